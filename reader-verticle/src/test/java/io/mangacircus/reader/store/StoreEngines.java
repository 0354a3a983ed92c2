package io.mangacircus.reader.store;

import io.mangacircus.reader.store.pg.PostgresTarget;
import io.mangacircus.testing.TestPostgres;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The store contract tests' databases: a new empty database of either engine (a SQLite file in the test's folder, or
 * a database on this JVM's embedded PostgreSQL server), opened as {@link ReaderStores} as often as a test asks.
 */
public final class StoreEngines {

  /** The engines every store contract test runs on. */
  public enum Engine {
    SQLITE, POSTGRESQL
  }

  /** A new empty database, which a test opens (and opens again, to see what a restart keeps). */
  @FunctionalInterface
  public interface FreshDatabase {

    /** The stores over this database, migrated forward; closing them closes what this opened. */
    ReaderStores open();
  }

  private static final AtomicInteger NEXT = new AtomicInteger();

  private StoreEngines() {
  }

  /** A new empty database of {@code engine}; SQLite's file goes in {@code folder} (a test's temporary folder). */
  public static FreshDatabase fresh(Engine engine, Path folder) {
    return switch (engine) {
      case SQLITE -> {
        Path file = folder.resolve("reader-" + NEXT.incrementAndGet() + ".db");
        yield () -> ReaderStores.openSqlite(file);
      }
      case POSTGRESQL -> {
        PostgresTarget target = target(TestPostgres.freshDatabase());
        yield () -> openPostgres(target);
      }
    };
  }

  /** The stores over a new empty database of {@code engine}. */
  public static ReaderStores open(Engine engine, Path folder) {
    return fresh(engine, folder).open();
  }

  /** Where a fresh PostgreSQL database is, as the reader's configuration would name it. */
  public static PostgresTarget target(TestPostgres.Database database) {
    return new PostgresTarget(database.host(), database.port(), database.name(), database.user(), database.password(),
        PostgresTarget.SslMode.DISABLE, 4);
  }

  /** The PostgreSQL stores on a Vert.x instance of their own, closed with them. */
  private static ReaderStores openPostgres(PostgresTarget target) {
    Vertx vertx = Vertx.vertx();
    ReaderStores stores;
    try {
      stores = ReaderStores.openPostgres(vertx, target);
    } catch (RuntimeException e) {
      vertx.close().await();
      throw e;
    }
    return new ReaderStores(stores.users(), stores.sessions(), stores.appPasswords(), stores.progress(),
        stores.alerts(), stores.kosync(), stores.merges(), stores.trackers(), stores.readingSettings(), stores.catalog(),
        () -> {
          try {
            stores.close();
          } finally {
            vertx.close().await();
          }
        });
  }
}
