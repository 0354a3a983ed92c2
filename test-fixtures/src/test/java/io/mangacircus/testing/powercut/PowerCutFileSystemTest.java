package io.mangacircus.testing.powercut;

import static io.mangacircus.testing.powercut.SyncSteps.fsyncFolder;
import static io.mangacircus.testing.powercut.SyncSteps.treeOf;
import static io.mangacircus.testing.powercut.SyncSteps.writeSynced;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a power cut leaves after each kind of change, synced or not. */
class PowerCutFileSystemTest {

  @TempDir
  Path temp;

  private PowerCutFileSystem fileSystem;
  private Path root;
  private int cuts;

  @BeforeEach
  void mount() throws IOException {
    fileSystem = PowerCutFileSystem.over(Files.createDirectory(temp.resolve("mount")));
    root = fileSystem.root();
  }

  private Map<String, String> cut() throws IOException {
    return treeOf(fileSystem.cut(temp.resolve("cut-" + cuts++)));
  }

  @Test
  void aWriteNeverFsyncedLeavesAnEmptyFile() throws IOException {
    Files.writeString(root.resolve("page-1.jpg"), "page one");
    fsyncFolder(root);

    assertThat(cut()).containsExactly(entry("page-1.jpg", ""));
    assertThat(Files.readString(root.resolve("page-1.jpg"))).isEqualTo("page one");
  }

  @Test
  void anOverwriteNeverFsyncedLeavesTheContentOfTheLastFsync() throws IOException {
    writeSynced(root.resolve("queue.json"), "{\"published\":1}");
    fsyncFolder(root);
    Files.writeString(root.resolve("queue.json"), "{\"published\":2}");

    assertThat(cut()).containsExactly(entry("queue.json", "{\"published\":1}"));
  }

  @Test
  void aFileFsyncedInAFolderFsyncedIsKept() throws IOException {
    writeSynced(root.resolve("page-1.jpg"), "page one");
    fsyncFolder(root);

    assertThat(cut()).containsExactly(entry("page-1.jpg", "page one"));
  }

  @Test
  void aFileFsyncedInAFolderNeverFsyncedIsLost() throws IOException {
    writeSynced(root.resolve("page-1.jpg"), "page one");

    assertThat(cut()).isEmpty();
  }

  @Test
  void aRenameWithoutADirectoryFsyncIsRolledBack() throws IOException {
    writeSynced(root.resolve("page-1.part"), "page one");
    fsyncFolder(root);
    Files.move(root.resolve("page-1.part"), root.resolve("page-1.jpg"));

    assertThat(cut()).containsExactly(entry("page-1.part", "page one"));
  }

  @Test
  void aRenameFollowedByADirectoryFsyncIsKept() throws IOException {
    writeSynced(root.resolve("page-1.part"), "page one");
    fsyncFolder(root);
    Files.move(root.resolve("page-1.part"), root.resolve("page-1.jpg"));
    fsyncFolder(root);

    assertThat(cut()).containsExactly(entry("page-1.jpg", "page one"));
  }

  @Test
  void aRenameAcrossFoldersIsKeptOnceBothFoldersAreFsynced() throws IOException {
    Path staging = stagedPage();
    Path library = root.resolve("library");
    Files.move(staging.resolve("1.jpg"), library.resolve("1.jpg"));
    fsyncFolder(library);
    fsyncFolder(staging);

    assertThat(cut()).containsExactly(entry("library/", ""), entry("library/1.jpg", "page one"), entry("staging/", ""));
  }

  @Test
  void aRenameAcrossFoldersWithOnlyTheDestinationFsyncedLeavesTheFileInBothPlaces() throws IOException {
    Path staging = stagedPage();
    Path library = root.resolve("library");
    Files.move(staging.resolve("1.jpg"), library.resolve("1.jpg"));
    fsyncFolder(library);

    assertThat(cut()).containsExactly(entry("library/", ""), entry("library/1.jpg", "page one"),
        entry("staging/", ""), entry("staging/1.jpg", "page one"));
  }

  @Test
  void aRenameAcrossFoldersWithOnlyTheSourceFsyncedLosesTheFile() throws IOException {
    Path staging = stagedPage();
    Files.move(staging.resolve("1.jpg"), root.resolve("library").resolve("1.jpg"));
    fsyncFolder(staging);

    assertThat(cut()).containsExactly(entry("library/", ""), entry("staging/", ""));
  }

  /** staging/1.jpg and an empty library/, all durable. */
  private Path stagedPage() throws IOException {
    Path staging = Files.createDirectory(root.resolve("staging"));
    Files.createDirectory(root.resolve("library"));
    fsyncFolder(root);
    writeSynced(staging.resolve("1.jpg"), "page one");
    fsyncFolder(staging);
    return staging;
  }

  @Test
  void aDirectoryMovesWithItsSubtree() throws IOException {
    Path staging = Files.createDirectory(root.resolve("chapter-1.staging"));
    writeSynced(staging.resolve("1.jpg"), "page one");
    fsyncFolder(staging);
    fsyncFolder(root);
    Files.move(staging, root.resolve("chapter-1"));
    writeSynced(root.resolve("chapter-1").resolve("2.jpg"), "page two");
    fsyncFolder(root.resolve("chapter-1"));
    fsyncFolder(root);

    assertThat(cut()).containsExactly(entry("chapter-1/", ""), entry("chapter-1/1.jpg", "page one"),
        entry("chapter-1/2.jpg", "page two"));
  }

  @Test
  void aNewDirectoryWhoseParentWasNeverFsyncedIsLostWithItsContents() throws IOException {
    Path library = Files.createDirectories(root.resolve("library").resolve("starfall"));
    writeSynced(library.resolve("chapter-1.cbz"), "pages");
    fsyncFolder(library);
    fsyncFolder(library.getParent());

    assertThat(cut()).isEmpty();

    fsyncFolder(root);
    assertThat(cut()).containsExactly(entry("library/", ""), entry("library/starfall/", ""),
        entry("library/starfall/chapter-1.cbz", "pages"));
  }

  @Test
  void aDeleteWithoutADirectoryFsyncComesBack() throws IOException {
    writeSynced(root.resolve("checkpoint.log"), "page 1\n");
    fsyncFolder(root);
    Files.delete(root.resolve("checkpoint.log"));

    assertThat(Files.exists(root.resolve("checkpoint.log"))).isFalse();
    assertThat(cut()).containsExactly(entry("checkpoint.log", "page 1\n"));

    fsyncFolder(root);
    assertThat(cut()).isEmpty();
  }

  @Test
  void aDeletedDirectoryComesBackWithWhatItDurablyHeld() throws IOException {
    Path staging = Files.createDirectory(root.resolve("staging"));
    writeSynced(staging.resolve("1.jpg"), "page one");
    fsyncFolder(staging);
    fsyncFolder(root);
    Files.delete(staging.resolve("1.jpg"));
    Files.delete(staging);

    assertThat(cut()).containsExactly(entry("staging/", ""), entry("staging/1.jpg", "page one"));
  }

  @Test
  void whatWasUnderTheRootBeforeTheMountIsDurable() throws IOException {
    Path real = Files.createDirectory(temp.resolve("existing"));
    Files.createDirectory(real.resolve("library"));
    Files.writeString(real.resolve("library").resolve("chapter-1.cbz"), "pages");

    PowerCutFileSystem mounted = PowerCutFileSystem.over(real);

    assertThat(treeOf(mounted.cut(temp.resolve("existing-cut"))))
        .containsExactly(entry("library/", ""), entry("library/chapter-1.cbz", "pages"));
  }
}
