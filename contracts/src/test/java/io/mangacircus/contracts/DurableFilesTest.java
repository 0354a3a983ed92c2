package io.mangacircus.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.testing.powercut.PowerCutFileSystem;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link DurableFiles} and {@link AtomicFiles} leave after a power cut, on the power-cut filesystem (writes and
 * folder entries that were never fsynced are lost): each change is durable once the call returned.
 */
class DurableFilesTest {

  @TempDir
  Path mount;

  @TempDir
  Path after;

  private PowerCutFileSystem fs;
  private Path root;

  @BeforeEach
  void mount() throws Exception {
    fs = PowerCutFileSystem.over(mount);
    root = fs.root();
  }

  @AfterEach
  void unmount() {
    fs.close();
  }

  @Test
  void foldersCreatedAtSeveralLevelsSurviveACut() throws Exception {
    DurableFiles.createDirectories(root.resolve("data").resolve("library").resolve(".staging-x"));

    Path cut = fs.cut(after);

    assertThat(cut.resolve("data").resolve("library").resolve(".staging-x")).isDirectory();
  }

  @Test
  void aFileCreatedForAppendingInANewFolderKeepsWhatWasForced() throws Exception {
    try (FileChannel log = DurableFiles.open(root.resolve("data").resolve("scraper").resolve("events.log"),
        StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      log.write(ByteBuffer.wrap("one\n".getBytes(StandardCharsets.UTF_8)));
      log.force(false);
      log.write(ByteBuffer.wrap("two, never forced\n".getBytes(StandardCharsets.UTF_8)));
    }

    Path cut = fs.cut(after);

    assertThat(cut.resolve("data").resolve("scraper").resolve("events.log")).hasContent("one");
  }

  @Test
  void aRenameAcrossFoldersIsInItsNewPlaceOnlyAfterACut() throws Exception {
    Path staging = DurableFiles.createDirectories(root.resolve("library").resolve(".staging-c1"));
    AtomicFiles.write(staging.resolve("001.png"), new byte[] {1, 2, 3});
    Path series = DurableFiles.createDirectories(root.resolve("library").resolve("series"));

    DurableFiles.rename(staging, series.resolve("c1"), false);
    Path cut = fs.cut(after);

    assertThat(cut.resolve("library").resolve("series").resolve("c1").resolve("001.png")).hasBinaryContent(
        new byte[] {1, 2, 3});
    assertThat(cut.resolve("library").resolve(".staging-c1")).doesNotExist();
  }

  @Test
  void aDeletedFileAndADeletedTreeStayDeletedAfterACut() throws Exception {
    AtomicFiles.write(root.resolve("a").resolve("checkpoint.json"), "{}".getBytes(StandardCharsets.UTF_8));
    AtomicFiles.write(root.resolve("b").resolve("c").resolve("001.png"), new byte[] {1});

    assertThat(DurableFiles.delete(root.resolve("a").resolve("checkpoint.json"))).isTrue();
    assertThat(DurableFiles.delete(root.resolve("a").resolve("missing"))).isFalse();
    DurableFiles.deleteTree(root.resolve("b"));
    Path cut = fs.cut(after);

    assertThat(cut.resolve("a")).isEmptyDirectory();
    assertThat(cut.resolve("b")).doesNotExist();
  }

  @Test
  void anAtomicWriteKeepsItsNewContentAfterACut() throws Exception {
    Path file = root.resolve("data").resolve("scraper").resolve("queue.json");
    AtomicFiles.write(file, "old".getBytes(StandardCharsets.UTF_8));
    AtomicFiles.write(file, "new".getBytes(StandardCharsets.UTF_8));

    Path cut = fs.cut(after);

    assertThat(cut.resolve("data").resolve("scraper").resolve("queue.json")).hasContent("new");
    try (var left = Files.list(cut.resolve("data").resolve("scraper"))) {
      assertThat(left).as("no temporary file is left behind").hasSize(1);
    }
  }

  @Test
  void aFilesystemWithoutHardLinksIsToldSoAndALinkMadeIsDurable() throws Exception {
    // The power-cut filesystem has no hard links, as some filesystems do not: the caller is told and copies instead.
    AtomicFiles.write(root.resolve("queue.json"), "{}".getBytes(StandardCharsets.UTF_8));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> DurableFiles.link(root.resolve("queue.json.bak"),
        root.resolve("queue.json"))).isInstanceOf(UnsupportedOperationException.class);

    Path disk = Files.createDirectories(after.resolve("disk"));
    Files.writeString(disk.resolve("queue.json"), "{}");
    DurableFiles.link(disk.resolve("queue.json.bak"), disk.resolve("queue.json"));
    assertThat(Files.isSameFile(disk.resolve("queue.json.bak"), disk.resolve("queue.json"))).isTrue();
  }
}
