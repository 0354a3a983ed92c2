package io.mangacircus.testing.powercut;

import static io.mangacircus.testing.powercut.SyncSteps.fsyncFolder;
import static io.mangacircus.testing.powercut.SyncSteps.treeOf;
import static io.mangacircus.testing.powercut.SyncSteps.writeSynced;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The power-cut filesystem behind java.nio.file: paths, Files helpers, what it refuses, several writers at once. */
class PowerCutNioTest {

  @TempDir
  Path temp;

  private Path mount;
  private PowerCutFileSystem fileSystem;
  private Path root;

  @BeforeEach
  void mount() throws IOException {
    mount = Files.createDirectory(temp.resolve("mount")).toRealPath();
    fileSystem = PowerCutFileSystem.over(mount);
    root = fileSystem.root();
  }

  @Test
  void toFileThrowsSoThatCodeGoingAroundNioIsCaught() {
    assertThatThrownBy(() -> root.resolve("queue.json").toFile())
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("java.io.File");
  }

  @Test
  void pathsBehaveLikeTheRealPathsTheyStandFor() {
    Path page = root.resolve("library/starfall/1.jpg");

    assertThat(page.getFileSystem()).isSameAs(fileSystem);
    assertThat(page.toString()).isEqualTo(mount.resolve("library/starfall/1.jpg").toString());
    assertThat(page.getFileName()).isEqualTo(fileSystem.getPath("1.jpg"));
    assertThat(page.getParent().getParent()).isEqualTo(root.resolve("library"));
    assertThat(root.relativize(page)).isEqualTo(fileSystem.getPath("library", "starfall", "1.jpg"));
    assertThat(page.resolveSibling("2.jpg")).isEqualTo(root.resolve("library/starfall/2.jpg"));
    assertThat(page.startsWith(root)).isTrue();
    assertThat(page.startsWith(mount)).isFalse();
    assertThat(page.endsWith("starfall/1.jpg")).isTrue();
    assertThat(page.subpath(0, 1)).isEqualTo(fileSystem.getPath(mount.getName(0).toString()));
    assertThat(page.getNameCount()).isEqualTo(mount.getNameCount() + 3);
    assertThat(root.resolve("library/../queue.json").normalize()).isEqualTo(root.resolve("queue.json"));
    assertThat(page.getRoot()).isEqualTo(fileSystem.getPath("/"));
    assertThat(page.compareTo(root.resolve("library/starfall/2.jpg"))).isNegative();
    assertThat(page).isNotEqualTo(mount.resolve("library/starfall/1.jpg"));

    URI uri = page.toUri();
    assertThat(uri.getScheme()).isEqualTo("powercut");
    assertThat(fileSystem.provider().getPath(uri)).isEqualTo(page);
    assertThatThrownBy(() -> root.resolve(Path.of("queue.json"))).isInstanceOf(ProviderMismatchException.class);
  }

  @Test
  void filesHelpersWorkOnItsPaths() throws IOException {
    Path series = Files.createDirectories(root.resolve("library/starfall"));
    Files.writeString(series.resolve("series.json"), "{}");
    Files.write(series.resolve("1.jpg"), new byte[] {1, 2, 3});
    try (BufferedWriter writer = Files.newBufferedWriter(series.resolve("notes.txt"))) {
      writer.write("read");
    }
    Path temporary = Files.createTempFile(series, ".series.json.", ".tmp");
    Files.copy(series.resolve("1.jpg"), series.resolve("1-copy.jpg"));
    Files.setLastModifiedTime(series.resolve("1.jpg"), FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));

    assertThat(Files.exists(series.resolve("series.json"))).isTrue();
    assertThat(Files.isDirectory(series)).isTrue();
    assertThat(Files.size(series.resolve("1.jpg"))).isEqualTo(3);
    assertThat(Files.readAllBytes(series.resolve("1-copy.jpg"))).containsExactly(1, 2, 3);
    assertThat(Files.readString(series.resolve("notes.txt"))).isEqualTo("read");
    assertThat(Files.getLastModifiedTime(series.resolve("1.jpg")).toInstant())
        .isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(Files.deleteIfExists(temporary)).isTrue();
    assertThat(Files.deleteIfExists(temporary)).isFalse();
    try (Stream<Path> files = Files.list(series)) {
      assertThat(files.map(path -> path.getFileName().toString()))
          .containsExactlyInAnyOrder("series.json", "1.jpg", "1-copy.jpg", "notes.txt");
    }
    try (Stream<Path> all = Files.walk(root)) {
      assertThat(all.filter(Files::isRegularFile)).hasSize(4).allMatch(path -> path.getFileSystem() == fileSystem);
    }
    try (DirectoryStream<Path> images = Files.newDirectoryStream(series, "*.jpg")) {
      List<Path> found = new ArrayList<>();
      images.forEach(found::add);
      assertThat(found).containsExactlyInAnyOrder(series.resolve("1.jpg"), series.resolve("1-copy.jpg"));
    }
    assertThat(Files.createDirectories(series)).isEqualTo(series);
    assertThatThrownBy(() -> Files.createDirectory(series)).isInstanceOf(FileAlreadyExistsException.class);
  }

  @Test
  void aLockOfItsChannelBelongsToThatChannel() throws IOException {
    try (FileChannel channel = FileChannel.open(root.resolve("lock"), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE); FileLock lock = channel.tryLock()) {
      assertThat(lock.channel()).isSameAs(channel);
      assertThat(lock.isValid()).isTrue();
    }
  }

  @Test
  void changesOutsideTheRootAreRefused() {
    Path outside = fileSystem.getPath(temp.resolve("elsewhere.json").toString());

    assertThatThrownBy(() -> Files.writeString(outside, "{}"))
        .isInstanceOf(IOException.class).hasMessageContaining("outside the power-cut root");
    assertThat(Files.exists(temp.resolve("elsewhere.json"))).isFalse();
  }

  @Test
  void aFileMadeAroundTheFilesystemIsRefused() throws IOException {
    Files.writeString(mount.resolve("behind-its-back.json"), "{}");

    assertThatThrownBy(() -> Files.readString(root.resolve("behind-its-back.json")))
        .isInstanceOf(IOException.class).hasMessageContaining("not in the power-cut model");
  }

  @Test
  void linksWatchersAndAsynchronousChannelsAreUnsupported() {
    assertThatThrownBy(() -> Files.createSymbolicLink(root.resolve("link"), root))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> Files.createLink(root.resolve("link"), root))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(fileSystem::newWatchService).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aCutGoesOnlyIntoAnEmptyFolderOfTheDefaultFilesystem() throws IOException {
    Files.writeString(Files.createDirectory(temp.resolve("full")).resolve("x"), "x");

    assertThatThrownBy(() -> fileSystem.cut(temp.resolve("full"))).isInstanceOf(DirectoryNotEmptyException.class);
    assertThatThrownBy(() -> fileSystem.cut(root.resolve("cut"))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void concurrentWritersEndWithAConsistentModel() throws Exception {
    int writers = 4;
    int pages = 100;
    AtomicInteger heard = new AtomicInteger();
    fileSystem.onSync(sync -> heard.incrementAndGet());
    Path chapter = Files.createDirectory(root.resolve("chapter"));
    fsyncFolder(root);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int writer = 0; writer < writers; writer++) {
        String prefix = "writer-" + writer + "-page-";
        done.add(pool.submit(() -> {
          for (int page = 0; page < pages; page++) {
            writeSynced(chapter.resolve(prefix + page + ".part"), prefix + page);
            Files.move(chapter.resolve(prefix + page + ".part"), chapter.resolve(prefix + page + ".jpg"));
            fsyncFolder(chapter);
          }
          return null;
        }));
      }
      for (Future<?> writer : done) {
        writer.get();
      }
    } finally {
      pool.shutdown();
      pool.awaitTermination(1, TimeUnit.MINUTES);
    }

    assertThat(treeOf(fileSystem.cut(temp.resolve("cut")))).isEqualTo(treeOf(mount)).hasSize(1 + writers * pages);
    assertThat(fileSystem.syncs()).isEqualTo(1 + writers * 2 * pages).isEqualTo(heard.get());
  }
}
