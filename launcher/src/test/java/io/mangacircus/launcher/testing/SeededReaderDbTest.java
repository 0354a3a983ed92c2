package io.mangacircus.launcher.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.testing.SeededReaderDb.Account;
import io.mangacircus.reader.accounts.PasswordHasher;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.SqliteDatabase;
import io.mangacircus.reader.store.User;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeededReaderDbTest {

  @TempDir
  Path data;

  @Test
  void aSeededDataFolderHoldsTheAccountsAtTheCurrentSchemaWithPasswordsTheReaderAccepts() throws Exception {
    SeededReaderDb.into(data, Account.admin("seed-admin-pass"), Account.reader("rita", "rita-password"));

    try (SqliteDatabase database = SqliteDatabase.open(data.resolve("reader.db"))) {
      assertThat(database.schemaVersion()).isEqualTo(SqliteDatabase.SCHEMA);
    }
    try (ReaderStores stores = ReaderStores.openSqlite(data.resolve("reader.db"))) {
      assertThat(stores.users().countAdmins()).isEqualTo(1);
      User admin = stores.users().user("admin").orElseThrow();
      assertThat(admin.role()).isEqualTo("admin");
      assertThat(PasswordHasher.verify("seed-admin-pass".toCharArray(), admin.passwordHash())).isTrue();
      User rita = stores.users().user("rita").orElseThrow();
      assertThat(rita.role()).isEqualTo("reader");
      assertThat(PasswordHasher.verify("rita-password".toCharArray(), rita.passwordHash())).isTrue();
      assertThat(PasswordHasher.verify("wrong".toCharArray(), rita.passwordHash())).isFalse();
    }
  }

  @Test
  void aDataFolderThatAlreadyHasAReaderDbKeepsIt() throws Exception {
    Files.writeString(data.resolve("reader.db"), "what a previous start wrote");

    SeededReaderDb.into(data, Account.admin("seed-admin-pass"));

    assertThat(Files.readString(data.resolve("reader.db"))).isEqualTo("what a previous start wrote");
  }
}
