package io.mangacircus.launcher.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessLockTest {

  @TempDir
  Path dir;

  @Test
  void aSecondOwnerIsRefusedWithTheHolderNamed() throws Exception {
    Path file = dir.resolve("scraper/daemon.lock");
    try (ProcessLock first = ProcessLock.acquire(file, "scraper pid 111")) {
      assertThatThrownBy(() -> ProcessLock.acquire(file, "scraper pid 222"))
          .isInstanceOf(LockHeldException.class)
          .hasMessageContaining("scraper pid 111");
      assertThat(ProcessLock.probe(file)).isEqualTo(ProcessLock.Probe.HELD);
    }
  }

  @Test
  void aReleasedLockCanBeTakenAgainAndItsFileStays() throws Exception {
    Path file = dir.resolve("daemon.lock");
    ProcessLock.acquire(file, "first").close();

    assertThat(file).exists();
    assertThat(ProcessLock.probe(file)).isEqualTo(ProcessLock.Probe.FREE);
    try (ProcessLock again = ProcessLock.acquire(file, "second")) {
      assertThat(Files.readString(file)).startsWith("second");
    }
  }

  @Test
  void probingAnAbsentLockCreatesNothing() throws Exception {
    Path file = dir.resolve("reader.lock");

    assertThat(ProcessLock.probe(file)).isEqualTo(ProcessLock.Probe.ABSENT);
    assertThat(file).doesNotExist();
  }
}
