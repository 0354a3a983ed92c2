package io.mangacircus.launcher.testing;

import io.mangacircus.reader.accounts.PasswordHasher;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@code reader.db} whose accounts are already hashed, made once per test JVM by the reader's own database and
 * hasher and copied into fresh data folders: a start then finds its admin and does not hash a password (PBKDF2 at
 * 210,000 iterations, a few hundred milliseconds on a busy machine), and a test that only uses an account does not
 * create it. The first-start creation itself is asserted where it is the subject (AdminPasswordIT, ReaderRoutesTest).
 */
public final class SeededReaderDb {

  /** An account of the seed: its password is the one a test logs in with. */
  public record Account(String username, String password, String role) {

    /** The {@code admin} account, as a first start with this initial admin password creates it. */
    public static Account admin(String password) {
      return new Account("admin", password, "admin");
    }

    /** A reader account. */
    public static Account reader(String username, String password) {
      return new Account(username, password, "reader");
    }
  }

  private static final Map<List<Account>, Path> MADE = new ConcurrentHashMap<>();

  private SeededReaderDb() {
  }

  /**
   * Copies a {@code reader.db} holding exactly {@code accounts} into the data folder {@code data}, unless it already
   * has one (a restart keeps what the previous start wrote).
   */
  public static void into(Path data, Account... accounts) {
    Path target = data.resolve("reader.db");
    if (Files.exists(target)) {
      return;
    }
    Path seed = MADE.computeIfAbsent(List.of(accounts), SeededReaderDb::make);
    try {
      Files.createDirectories(data);
      Files.copy(seed, target);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A data folder's {@code reader.db} made by the reader's code, its write-ahead log folded in by the close. */
  private static Path make(List<Account> accounts) {
    try {
      Path folder = Files.createTempDirectory("mangacircus-seeded-reader-db");
      Path file = folder.resolve("reader.db");
      try (ReaderStores stores = ReaderStores.openSqlite(file)) {
        for (Account account : accounts) {
          stores.users().createUser(account.username(), PasswordHasher.hash(account.password().toCharArray()),
              account.role(), Instant.now());
        }
      }
      if (Files.exists(folder.resolve("reader.db-wal"))) {
        throw new IllegalStateException("the seeded reader.db kept a write-ahead log: copying the file alone loses it");
      }
      folder.toFile().deleteOnExit();
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (StoreException e) {
      throw new IllegalStateException("cannot seed a reader.db: " + e, e);
    }
  }
}
