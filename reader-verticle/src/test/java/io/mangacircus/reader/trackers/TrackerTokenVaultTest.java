package io.mangacircus.reader.trackers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.mangacircus.reader.trackers.TrackerTokenVault.KeyFileRefused;
import io.mangacircus.reader.trackers.TrackerTokenVault.SealedTokenRefused;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrackerTokenVaultTest {

  private static final String TOKEN = "anilist-access-token-8f1c2e";

  @TempDir
  Path data;

  @Test
  void aSealedTokenOpensForItsUserAndTracker() {
    TrackerTokenVault vault = new TrackerTokenVault(data);

    String sealed = vault.seal(7, "anilist", new Secret(TOKEN));

    assertThat(sealed).startsWith("v1:").doesNotContain(TOKEN);
    assertThat(vault.open(7, "anilist", sealed).reveal()).isEqualTo(TOKEN);
  }

  @Test
  void theKeyFileIsCreatedOwnerOnlyAndASecondVaultOnTheFolderOpensWhatTheFirstSealed() throws Exception {
    String sealed = new TrackerTokenVault(data).seal(7, "anilist", new Secret(TOKEN));

    Path key = data.resolve("tracker-key");
    assertThat(Files.size(key)).isEqualTo(32);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
    byte[] before = Files.readAllBytes(key);
    assertThat(new TrackerTokenVault(data).open(7, "anilist", sealed).reveal()).isEqualTo(TOKEN);
    assertThat(Files.readAllBytes(key)).as("the second vault reused the key").isEqualTo(before);
    assertThat(data.resolve("tracker-key.new")).as("no pending key left behind").doesNotExist();
  }

  @Test
  void sealingTheSameTokenTwiceGivesTwoDifferentValues() {
    TrackerTokenVault vault = new TrackerTokenVault(data);

    assertThat(vault.seal(7, "anilist", new Secret(TOKEN))).isNotEqualTo(vault.seal(7, "anilist", new Secret(TOKEN)));
  }

  @Test
  void aValueWithAnyByteChangedIsRefused() {
    TrackerTokenVault vault = new TrackerTokenVault(data);
    byte[] bytes = Base64.getDecoder().decode(vault.seal(7, "anilist", new Secret(TOKEN)).substring(3));

    for (int at : new int[] {0, 12, bytes.length / 2, bytes.length - 1}) {
      byte[] changed = bytes.clone();
      changed[at] ^= 1;
      String tampered = "v1:" + Base64.getEncoder().encodeToString(changed);
      assertThatThrownBy(() -> vault.open(7, "anilist", tampered)).as("byte %d changed", at)
          .isInstanceOf(SealedTokenRefused.class).hasMessageContaining("does not open");
    }
  }

  @Test
  void aValueCutShortIsRefused() {
    TrackerTokenVault vault = new TrackerTokenVault(data);
    String sealed = vault.seal(7, "anilist", new Secret(TOKEN));

    // 16 base64 characters are 12 bytes: a nonce with nothing after it
    assertThatThrownBy(() -> vault.open(7, "anilist", sealed.substring(0, 3 + 16)))
        .isInstanceOf(SealedTokenRefused.class).hasMessageContaining("cut short");
    assertThatThrownBy(() -> vault.open(7, "anilist", sealed.substring(0, sealed.length() - 4)))
        .isInstanceOf(SealedTokenRefused.class);
  }

  @Test
  void aValueCopiedToAnotherUserOrTrackerIsRefused() {
    TrackerTokenVault vault = new TrackerTokenVault(data);
    String sealed = vault.seal(7, "anilist", new Secret(TOKEN));

    assertThatThrownBy(() -> vault.open(8, "anilist", sealed)).isInstanceOf(SealedTokenRefused.class)
        .hasMessageContaining("user 8 on anilist");
    assertThatThrownBy(() -> vault.open(7, "myanimelist", sealed)).isInstanceOf(SealedTokenRefused.class);
  }

  @Test
  void aValueSealedWithAnotherKeyIsRefused(@TempDir Path otherData) {
    String sealed = new TrackerTokenVault(otherData).seal(7, "anilist", new Secret(TOKEN));

    assertThatThrownBy(() -> new TrackerTokenVault(data).open(7, "anilist", sealed))
        .isInstanceOf(SealedTokenRefused.class).hasMessageContaining("tracker-key");
  }

  @Test
  void aKeyFileOfTheWrongSizeIsRefusedAndLeftUntouched() throws Exception {
    Path key = data.resolve("tracker-key");
    byte[] sixteen = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    Files.write(key, sixteen);
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));

    assertThatThrownBy(() -> new TrackerTokenVault(data)).isInstanceOf(KeyFileRefused.class)
        .hasMessageContaining(key.toAbsolutePath().toString()).hasMessageContaining("16 bytes")
        .hasMessageContaining("backup");
    assertThat(Files.readAllBytes(key)).isEqualTo(sixteen);

    Files.write(key, new byte[0]);
    assertThatThrownBy(() -> new TrackerTokenVault(data)).as("an empty key is not regenerated")
        .isInstanceOf(KeyFileRefused.class).hasMessageContaining("0 bytes");
    assertThat(Files.readAllBytes(key)).isEmpty();
  }

  @Test
  void aKeyFileOthersCanReadIsRefusedAndLeftUntouched() throws Exception {
    new TrackerTokenVault(data);
    Path key = data.resolve("tracker-key");
    byte[] before = Files.readAllBytes(key);
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r-----"));

    assertThatThrownBy(() -> new TrackerTokenVault(data)).isInstanceOf(KeyFileRefused.class)
        .hasMessageContaining(key.toAbsolutePath().toString()).hasMessageContaining("chmod 600");
    assertThat(Files.readAllBytes(key)).isEqualTo(before);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-r-----");
  }

  @Test
  void neitherTheSecretNorARefusalShowsTheTokenOrTheStoredValue() {
    TrackerTokenVault vault = new TrackerTokenVault(data);
    String sealed = vault.seal(7, "anilist", new Secret(TOKEN));
    String body = sealed.substring(3);
    String tampered = "v1:" + (body.charAt(0) == 'A' ? 'B' : 'A') + body.substring(1);

    assertThat(new Secret(TOKEN).toString()).isEqualTo("Secret[****]");
    assertThat(String.valueOf(new Secret(TOKEN))).doesNotContain(TOKEN);
    for (String stored : new String[] {tampered, "v1:" + body.substring(0, 10), "v1:" + body + "!*", body}) {
      Throwable refusal = catchThrowable(() -> vault.open(8, "anilist", stored));
      assertThat(refusal).isInstanceOf(SealedTokenRefused.class);
      String payload = stored.startsWith("v1:") ? stored.substring(3) : stored;
      for (Throwable t = refusal; t != null; t = t.getCause()) {
        assertThat(String.valueOf(t.getMessage())).doesNotContain(TOKEN).doesNotContain(payload.substring(1, 9));
      }
    }
  }

  @Test
  void readersNamingOneSharedKeyFileOpenEachOthersTokensAndMakeNoKeyOfTheirOwn(@TempDir Path shared)
      throws Exception {
    Path key = TrackerTokenVault.keyFile(shared);
    new TrackerTokenVault(shared);
    byte[] before = Files.readAllBytes(key);

    String sealedOnA = TrackerTokenVault.sharedKey(key).seal(7, "anilist", new Secret(TOKEN));

    assertThat(TrackerTokenVault.sharedKey(key).open(7, "anilist", sealedOnA).reveal()).isEqualTo(TOKEN);
    assertThat(Files.readAllBytes(key)).isEqualTo(before);
    assertThat(data.resolve("tracker-key")).as("nothing made in a reader's own data folder").doesNotExist();
  }

  @Test
  void aMissingSharedKeyFileIsRefusedNamingTheConfigKeyAndIsNotMade() {
    Path key = data.resolve("keys").resolve("tracker-key");

    assertThatThrownBy(() -> TrackerTokenVault.sharedKey(key)).isInstanceOf(KeyFileRefused.class)
        .hasMessageStartingWith("reader.trackers.keyFile: ").hasMessageContaining(key.toAbsolutePath().toString())
        .hasMessageContaining("does not exist");
    assertThat(key).doesNotExist();
    assertThat(data.resolve("keys")).doesNotExist();
  }

  @Test
  void aSharedKeyFileOfTheWrongSizeOrReadableByOthersIsRefusedNamingTheConfigKeyAndLeftUntouched() throws Exception {
    Path key = data.resolve("shared-key");
    byte[] short16 = new byte[16];
    Files.write(key, short16);
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));

    assertThatThrownBy(() -> TrackerTokenVault.sharedKey(key)).isInstanceOf(KeyFileRefused.class)
        .hasMessageStartingWith("reader.trackers.keyFile: ").hasMessageContaining("16 bytes");
    assertThat(Files.readAllBytes(key)).isEqualTo(short16);

    Files.write(key, new byte[32]);
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(() -> TrackerTokenVault.sharedKey(key)).isInstanceOf(KeyFileRefused.class)
        .hasMessageStartingWith("reader.trackers.keyFile: ").hasMessageContaining("chmod 600");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-r--r--");
  }
}
