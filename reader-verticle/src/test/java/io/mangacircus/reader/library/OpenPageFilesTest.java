package io.mangacircus.reader.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Page files kept open between sends: capped, never closed under a send, closed when idle, never a replaced file. */
class OpenPageFilesTest {

  @TempDir
  Path folder;

  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-01T10:00:00Z"));
  private final InstantSource clock = () -> now.get();

  private Path page(String name, String text) throws IOException {
    return Files.writeString(folder.resolve(name), text);
  }

  private static String read(OpenPageFiles.Handle handle) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate((int) handle.channel().size());
    handle.channel().read(buffer, 0);
    return new String(buffer.array());
  }

  @Test
  void noMoreThanTheLimitOfFilesStaysOpen() throws Exception {
    OpenPageFiles files = new OpenPageFiles(4, Duration.ofSeconds(30), clock);
    for (int i = 0; i < 10; i++) {
      Path p = page(i + ".jpg", "page " + i);
      files.acquire(p, OpenPageFiles.Identity.of(p)).release();
    }
    assertThat(files.openFiles()).isEqualTo(4);
    assertThat(files.keptFiles()).isEqualTo(4);
  }

  @Test
  void aFileInUseIsNotClosedWhenPushedOutAndIsClosedWhenItsSendEnds() throws Exception {
    OpenPageFiles files = new OpenPageFiles(2, Duration.ofSeconds(30), clock);
    Path first = page("a.jpg", "first");
    OpenPageFiles.Handle inUse = files.acquire(first, OpenPageFiles.Identity.of(first));
    List<OpenPageFiles.Handle> others = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Path p = page(i + ".jpg", "page " + i);
      others.add(files.acquire(p, OpenPageFiles.Identity.of(p)));
    }
    others.forEach(OpenPageFiles.Handle::release);

    assertThat(inUse.channel().isOpen()).isTrue();
    assertThat(read(inUse)).isEqualTo("first");
    inUse.release();
    assertThat(inUse.channel().isOpen()).isFalse();
    assertThat(files.openFiles()).isEqualTo(2);
  }

  @Test
  void aKeptFileIsReusedAndClosedOnceIdle() throws Exception {
    OpenPageFiles files = new OpenPageFiles(8, Duration.ofSeconds(30), clock);
    Path p = page("a.jpg", "bytes");
    OpenPageFiles.Handle one = files.acquire(p, OpenPageFiles.Identity.of(p));
    one.release();
    OpenPageFiles.Handle two = files.acquire(p, OpenPageFiles.Identity.of(p));
    assertThat(two.channel()).isSameAs(one.channel());
    two.release();

    now.set(now.get().plusSeconds(10));
    files.closeIdle();
    assertThat(files.openFiles()).isEqualTo(1);
    now.set(now.get().plusSeconds(31));
    files.closeIdle();
    assertThat(files.openFiles()).isZero();
    assertThat(one.channel().isOpen()).isFalse();
  }

  @Test
  void aFileReplacedAtTheSamePathIsOpenedAgainNeverServedFromTheOldHandle() throws Exception {
    OpenPageFiles files = new OpenPageFiles(8, Duration.ofSeconds(30), clock);
    Path p = page("a.jpg", "old bytes");
    OpenPageFiles.Handle old = files.acquire(p, OpenPageFiles.Identity.of(p));
    old.release();
    Path next = Files.writeString(folder.resolve("next.tmp"), "new bytes, longer");
    Files.move(next, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);

    OpenPageFiles.Handle fresh = files.acquire(p, OpenPageFiles.Identity.of(p));

    assertThat(read(fresh)).isEqualTo("new bytes, longer");
    assertThat(old.channel().isOpen()).isFalse();
    fresh.release();
  }

  @Test
  void aFileThatIsNotTheExpectedOneAnyMoreIsRefused() throws Exception {
    OpenPageFiles files = new OpenPageFiles(8, Duration.ofSeconds(30), clock);
    Path p = page("a.jpg", "old bytes");
    OpenPageFiles.Identity laidOut = OpenPageFiles.Identity.of(p);
    Files.delete(p);
    page("a.jpg", "other bytes!");

    assertThatThrownBy(() -> files.acquire(p, laidOut)).isInstanceOf(IOException.class);
    assertThat(files.openFiles()).isZero();
    Files.delete(p);
    assertThatThrownBy(() -> files.acquire(p, laidOut)).isInstanceOf(IOException.class);
  }

  @Test
  void forgettingAChapterFolderClosesItsKeptFiles() throws Exception {
    OpenPageFiles files = new OpenPageFiles(8, Duration.ofSeconds(30), clock);
    Files.createDirectories(folder.resolve("c1"));
    Path p = page("c1/a.jpg", "bytes");
    Path q = page("b.jpg", "other");
    files.acquire(p, OpenPageFiles.Identity.of(p)).release();
    files.acquire(q, OpenPageFiles.Identity.of(q)).release();

    files.forgetUnder(folder.resolve("c1"));

    assertThat(files.openFiles()).isEqualTo(1);
  }

  @Test
  void closingAllClosesKeptFilesAndThoseInUseWhenTheirSendEnds() throws Exception {
    OpenPageFiles files = new OpenPageFiles(8, Duration.ofSeconds(30), clock);
    Path p = page("a.jpg", "bytes");
    Path q = page("b.jpg", "other");
    files.acquire(p, OpenPageFiles.Identity.of(p)).release();
    OpenPageFiles.Handle inUse = files.acquire(q, OpenPageFiles.Identity.of(q));

    files.closeAll();

    assertThat(files.openFiles()).isEqualTo(1);
    assertThat(inUse.channel().isOpen()).isTrue();
    inUse.release();
    assertThat(files.openFiles()).isZero();
  }
}
