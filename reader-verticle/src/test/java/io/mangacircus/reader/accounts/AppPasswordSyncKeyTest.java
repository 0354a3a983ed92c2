package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.AppPassword;
import io.mangacircus.reader.store.AppScope;
import io.mangacircus.reader.store.ReaderStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.mangacircus.reader.store.StoreEngines;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * App passwords in a real database (SQLite and PostgreSQL): their scope stored and listed, and KOReader's sync credentials (the MD5 of
 * the password typed into it) accepted for an app password only, never for the account password or a disabled user.
 */
@ParameterizedClass
@EnumSource(StoreEngines.Engine.class)
class AppPasswordSyncKeyTest {

  @Parameter
  StoreEngines.Engine engine;

  private static final String ACCOUNT_PASSWORD = "rita-account-password";

  @TempDir
  Path dir;

  private ReaderStores stores;
  private AppPasswords appPasswords;
  private long rita;

  @BeforeEach
  void open() throws Exception {
    stores = StoreEngines.open(engine, dir);
    appPasswords = new AppPasswords(stores.appPasswords(), InstantSource.system());
    rita = stores.users().createUser("Rita", PasswordHasher.hash(ACCOUNT_PASSWORD.toCharArray()), "reader",
        Instant.now());
  }

  @AfterEach
  void close() throws Exception {
    stores.close();
  }

  @Test
  void eachAppPasswordKeepsTheScopeItWasMadeWith() throws Exception {
    String read = appPasswords.create(rita, "Panels", AppScope.READ).orElseThrow().secret();
    String progress = appPasswords.create(rita, "Mihon", AppScope.READ_PROGRESS).orElseThrow().secret();

    assertThat(appPasswords.list(rita)).extracting(AppPassword::name, AppPassword::scope, AppPassword::syncable)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("Panels", AppScope.READ, true),
            org.assertj.core.groups.Tuple.tuple("Mihon", AppScope.READ_PROGRESS, true));
    assertThat(appPasswords.check("rita", read).orElseThrow().mayMoveProgress()).isFalse();
    assertThat(appPasswords.check("rita", progress).orElseThrow().mayMoveProgress()).isTrue();
    assertThat(appPasswords.checkApiKey(progress).orElseThrow().scope()).isEqualTo(AppScope.READ_PROGRESS);
  }

  @Test
  void theMd5OfAnAppPasswordIsAcceptedAsAKoreaderSyncKeyInAnyCase() throws Exception {
    AppPasswords.Created created = appPasswords.create(rita, "KOReader", AppScope.READ_PROGRESS).orElseThrow();

    AppPasswords.Access access = appPasswords.checkSyncKey("rita", md5(created.secret())).orElseThrow();
    assertThat(access.appPasswordId()).isEqualTo(created.id());
    assertThat(access.userId()).isEqualTo(rita);
    assertThat(access.scope()).isEqualTo(AppScope.READ_PROGRESS);
    assertThat(appPasswords.checkSyncKey("RITA", md5(created.secret()).toUpperCase(Locale.ROOT))).isPresent();
    assertThat(appPasswords.list(rita).get(0).lastUsedAt()).as("its use recorded").isNotNull();
  }

  @Test
  void theMd5OfTheAccountPasswordAnotherUsersNameOrJunkIsRefused() throws Exception {
    String secret = appPasswords.create(rita, "KOReader", AppScope.READ).orElseThrow().secret();
    stores.users().createUser("otto", PasswordHasher.hash("otto-password".toCharArray()), "reader", Instant.now());

    assertThat(appPasswords.checkSyncKey("rita", md5(ACCOUNT_PASSWORD))).isEmpty();
    assertThat(appPasswords.checkSyncKey("otto", md5(secret))).isEmpty();
    assertThat(appPasswords.checkSyncKey("rita", secret)).as("the secret itself is not its MD5").isEmpty();
    assertThat(appPasswords.checkSyncKey("rita", md5(secret).substring(1))).isEmpty();
    assertThat(appPasswords.checkSyncKey("", md5(secret))).isEmpty();
  }

  @Test
  void aDisabledUsersSyncKeyStopsAtOnceEvenWhenRemembered() throws Exception {
    String secret = appPasswords.create(rita, "KOReader", AppScope.READ_PROGRESS).orElseThrow().secret();
    assertThat(appPasswords.checkSyncKey("rita", md5(secret))).isPresent();

    stores.users().setDisabled("Rita", true);
    appPasswords.forgetAll();

    assertThat(appPasswords.checkSyncKey("rita", md5(secret))).isEmpty();
  }

  @Test
  void aRevokedAppPasswordsSyncKeyStopsAtOnce() throws Exception {
    AppPasswords.Created created = appPasswords.create(rita, "KOReader", AppScope.READ_PROGRESS).orElseThrow();
    assertThat(appPasswords.checkSyncKey("rita", md5(created.secret()))).isPresent();

    appPasswords.revoke(rita, created.id());

    assertThat(appPasswords.checkSyncKey("rita", md5(created.secret()))).isEmpty();
  }

  private static String md5(String text) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
  }
}
