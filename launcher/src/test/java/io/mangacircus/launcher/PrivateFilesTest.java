package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The start's repair of files holding secrets: owner-only again, each change said once, nothing else touched. */
class PrivateFilesTest {

  @TempDir
  Path dir;

  @Test
  void theStartMakesSecretsReadableByOthersOwnerOnlyAndLeavesOtherFilesAlone() throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    Path database = Files.writeString(data.resolve("reader.db"), "");
    Path wal = Files.writeString(data.resolve("reader.db-wal"), "");
    Path outbox = Files.writeString(Files.createDirectories(data.resolve("notifications")).resolve("outbox.json"),
        "{}");
    Path catalog = Files.writeString(data.resolve("catalog.json"), "{}");
    for (Path file : new Path[] {database, wal, outbox, catalog}) {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(outbox.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
    PrivateFiles files = new PrivateFiles(new DataLayout(data));

    assertThat(files.repair()).hasSize(5).allSatisfy(change -> assertThat(change).startsWith("made ")
        .contains("owner-only (it was rw"));

    assertThat(mode(database)).isEqualTo("rw-------");
    assertThat(mode(wal)).isEqualTo("rw-------");
    assertThat(mode(outbox)).isEqualTo("rw-------");
    assertThat(mode(data)).isEqualTo("rwx------");
    assertThat(mode(outbox.getParent())).isEqualTo("rwx------");
    assertThat(mode(catalog)).as("no secrets in it").isEqualTo("rw-r--r--");
    assertThat(files.wider()).isEmpty();
    assertThat(files.repair()).as("nothing left to repair").isEmpty();
  }

  private static String mode(Path path) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
