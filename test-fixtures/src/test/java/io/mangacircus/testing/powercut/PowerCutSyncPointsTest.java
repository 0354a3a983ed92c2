package io.mangacircus.testing.powercut;

import static io.mangacircus.testing.powercut.SyncSteps.fsyncFolder;
import static io.mangacircus.testing.powercut.SyncSteps.treeOf;
import static io.mangacircus.testing.powercut.SyncSteps.writeFully;
import static io.mangacircus.testing.powercut.SyncSteps.writeSynced;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sync listeners, cuts taken at a sync point, and the write patterns the services use. */
class PowerCutSyncPointsTest {

  @TempDir
  Path temp;

  private PowerCutFileSystem fileSystem;
  private Path root;
  private int cuts;

  @BeforeEach
  void mount() throws IOException {
    Path mount = Files.createDirectory(temp.resolve("mount"));
    Files.writeString(mount.resolve("state.json"), "old");
    fileSystem = PowerCutFileSystem.over(mount);
    root = fileSystem.root();
  }

  private Map<String, String> cut() throws IOException {
    return treeOf(fileSystem.cut(temp.resolve("cut-" + cuts++)));
  }

  @Test
  void syncListenersSeeEachForceWithThePathItsChannelWasOpenedWith() throws IOException {
    List<Sync> seen = new ArrayList<>();
    fileSystem.onSync(seen::add);
    Path part = root.resolve("1.jpg.part");

    try (FileChannel channel = FileChannel.open(part, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      writeFully(channel, "page one");
      Files.move(part, root.resolve("1.jpg"));
      channel.force(false);
    }
    fsyncFolder(root);

    assertThat(seen).containsExactly(new Sync(part, false), new Sync(root, true));
    assertThat(fileSystem.syncs()).isEqualTo(2);
    assertThat(cut()).containsExactly(entry("1.jpg", "page one"), entry("state.json", "old"));
  }

  @Test
  void aCutTakenInsideAListenerSeesTheStateJustSynced() throws IOException {
    List<Map<String, String>> cutsAtSyncs = new ArrayList<>();
    fileSystem.onSync(sync -> {
      try {
        cutsAtSyncs.add(cut());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });

    writeSynced(root.resolve("1.jpg"), "page one");
    fsyncFolder(root);

    assertThat(cutsAtSyncs).containsExactly(
        Map.of("state.json", "old"),
        Map.of("state.json", "old", "1.jpg", "page one"));
  }

  @Test
  void anAtomicWriteWithItsFolderFsyncKeepsTheNewContent() throws IOException {
    atomicWrite(root.resolve("state.json"), "new", true);

    assertThat(cut()).containsExactly(entry("state.json", "new"));
  }

  @Test
  void anAtomicWriteWithoutItsFolderFsyncKeepsTheOldContent() throws IOException {
    atomicWrite(root.resolve("state.json"), "new", false);

    assertThat(Files.readString(root.resolve("state.json"))).isEqualTo("new");
    assertThat(cut()).containsExactly(entry("state.json", "old"));
  }

  /** The steps of contracts' AtomicFiles.write (test-fixtures cannot depend on contracts), the last one optional. */
  private static void atomicWrite(Path target, String content, boolean fsyncFolder) throws IOException {
    Path folder = target.toAbsolutePath().getParent();
    Files.createDirectories(folder);
    Path temp = Files.createTempFile(folder, "." + target.getFileName() + ".", ".tmp");
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        writeFully(channel, content);
        channel.force(true);
      }
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      if (fsyncFolder) {
        fsyncFolder(folder);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Test
  void anAppendingChannelSyncsWhatWasAppended() throws IOException {
    Path log = root.resolve("checkpoint.log");
    writeSynced(log, "1\n");
    fsyncFolder(root);
    Files.writeString(log, "2\n", StandardOpenOption.APPEND);

    assertThat(cut()).contains(entry("checkpoint.log", "1\n"));

    try (FileChannel channel = FileChannel.open(log, StandardOpenOption.APPEND)) {
      writeFully(channel, "3\n");
      channel.force(true);
    }
    assertThat(cut()).contains(entry("checkpoint.log", "1\n2\n3\n"));
  }

  @Test
  void aForceSnapshotsTheWholeFileWithoutMovingTheChannelsPosition() throws IOException {
    try (FileChannel channel = FileChannel.open(root.resolve("page.jpg"), StandardOpenOption.CREATE_NEW,
        StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      writeFully(channel, "abcdef");
      channel.position(2);
      channel.force(true);
      ByteBuffer rest = ByteBuffer.allocate(4);
      channel.read(rest);
      assertThat(new String(rest.array(), StandardCharsets.UTF_8)).isEqualTo("cdef");
    }
    fsyncFolder(root);

    assertThat(cut()).contains(entry("page.jpg", "abcdef"));
  }

  @Test
  void aCopyIsANewFileWhoseContentWasNeverSynced() throws IOException {
    Files.copy(root.resolve("state.json"), root.resolve("state.json.bak"));
    fsyncFolder(root);

    assertThat(cut()).containsExactly(entry("state.json", "old"), entry("state.json.bak", ""));
  }
}
