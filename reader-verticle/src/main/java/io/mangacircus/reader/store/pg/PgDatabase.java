package io.mangacircus.reader.store.pg;

import io.mangacircus.reader.store.ReaderMigrations;
import io.mangacircus.reader.store.StoreException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.flywaydb.core.api.FlywayException;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader's PostgreSQL database: its schema migrated by Flyway at open (over JDBC), then a pool of the Vert.x
 * reactive client that the {@code Pg*Store} classes run their SQL on. The stores stay blocking: a worker thread waits
 * here for the reactive client's answer, so event loops never block (waiting on one is refused).
 */
public final class PgDatabase {

  private static final Logger LOG = LoggerFactory.getLogger(PgDatabase.class);

  /** How long a caller waits for one piece of work before it fails (a lost server, a lock held elsewhere). */
  static final Duration WAIT = Duration.ofSeconds(30);

  private final Pool pool;
  private final String describe;

  private PgDatabase(Pool pool, String describe) {
    this.pool = pool;
    this.describe = describe;
  }

  /**
   * Checks that the database is not from a newer version (refused before anything is written), migrates it forward
   * unless it is at this version (blocking), then opens the pool. Call from a worker thread.
   *
   * @throws UnusableDatabaseException naming the database (never its password) and what is wrong with it
   */
  public static PgDatabase open(Vertx vertx, PostgresTarget target) {
    PGSimpleDataSource dataSource = dataSource(target);
    String recorded = recordedVersion(dataSource, target);
    if (ReaderMigrations.isNewer(recorded)) {
      throw new UnusableDatabaseException(target, "it has schema " + recorded + ", newer than this version's "
          + ReaderMigrations.SCHEMA + "; nothing was written to it");
    }
    // At the newest version already (every start but the first after an upgrade), Flyway's scan is skipped.
    if (!ReaderMigrations.isCurrent(recorded)) {
      try {
        ReaderMigrations.migrate(ReaderMigrations.Engine.POSTGRESQL, dataSource, Optional.empty());
      } catch (FlywayException e) {
        throw new UnusableDatabaseException(target, "its migration failed: " + e.getMessage());
      }
    }
    PgConnectOptions connect = new PgConnectOptions()
        .setHost(target.host())
        .setPort(target.port())
        .setDatabase(target.database())
        .setUser(target.user())
        .setPassword(target.password().orElse(null))
        .setReconnectAttempts(2)
        .setReconnectInterval(500);
    if (target.sslMode() == PostgresTarget.SslMode.REQUIRE) {
      // As libpq's "require": encrypted, the server's certificate not verified.
      connect.setSslMode(SslMode.REQUIRE).setSslOptions(new ClientSSLOptions().setTrustAll(true));
    } else {
      connect.setSslMode(SslMode.DISABLE);
    }
    Pool pool = PgBuilder.pool()
        .with(new PoolOptions().setMaxSize(target.poolSize()).setName("reader-" + target.database()))
        .connectingTo(connect)
        .using(vertx)
        .build();
    LOG.info("[READER] database: PostgreSQL {} (pool of {})", target.describe(), target.poolSize());
    return new PgDatabase(pool, target.describe());
  }

  private static PGSimpleDataSource dataSource(PostgresTarget target) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setServerNames(new String[] {target.host()});
    dataSource.setPortNumbers(new int[] {target.port()});
    dataSource.setDatabaseName(target.database());
    dataSource.setUser(target.user());
    target.password().ifPresent(dataSource::setPassword);
    dataSource.setSslMode(target.sslMode() == PostgresTarget.SslMode.REQUIRE ? "require" : "disable");
    dataSource.setConnectTimeout((int) WAIT.toSeconds());
    dataSource.setApplicationName("mangacircus-reader");
    return dataSource;
  }

  /** The newest version Flyway recorded, "0" for a database without its history: read only. */
  private static String recordedVersion(PGSimpleDataSource dataSource, PostgresTarget target) {
    try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
      try (ResultSet exists = statement.executeQuery("SELECT to_regclass('" + ReaderMigrations.HISTORY + "')")) {
        if (!exists.next() || exists.getString(1) == null) {
          return "0";
        }
      }
      List<String> versions = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery("SELECT version FROM " + ReaderMigrations.HISTORY
          + " WHERE success AND version IS NOT NULL")) {
        while (rows.next()) {
          versions.add(rows.getString(1));
        }
      }
      return ReaderMigrations.newest(versions);
    } catch (SQLException e) {
      throw new UnusableDatabaseException(target, "cannot read it: " + e.getMessage());
    }
  }

  /** The pool the stores run their SQL on. */
  public Pool pool() {
    return pool;
  }

  /**
   * Waits (at most 30 s) for work on the pool to end and returns its result; a failure of the database becomes a
   * {@link StoreException} carrying the server's message.
   *
   * @throws IllegalStateException when called on an event loop, which must never block
   */
  public <T> T await(Future<T> work) throws StoreException {
    if (Context.isOnEventLoopThread()) {
      throw new IllegalStateException("the PostgreSQL stores block: call them from a worker thread, not an event loop");
    }
    try {
      return work.toCompletionStage().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new StoreException(String.valueOf(cause.getMessage()), cause);
    } catch (TimeoutException e) {
      throw new StoreException("PostgreSQL " + describe + " did not answer within " + WAIT.toSeconds() + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while waiting for PostgreSQL " + describe, e);
    }
  }

  /** Runs {@code work} in one transaction (committed when its future succeeds, rolled back when it fails) and waits. */
  public <T> T transaction(Function<SqlConnection, Future<T>> work) throws StoreException {
    return await(pool.withTransaction(work));
  }

  /** The newest schema version Flyway recorded in the database. */
  public int schemaVersion() throws StoreException {
    return await(pool.query("SELECT version FROM " + ReaderMigrations.HISTORY
        + " WHERE success AND version IS NOT NULL ORDER BY installed_rank DESC LIMIT 1").execute()
        .map(rows -> {
          for (Row row : rows) {
            return Integer.parseInt(row.getString(0));
          }
          return 0;
        }));
  }

  /** Closes the pool (waiting for it when not on an event loop). */
  public void close() {
    Future<Void> closed = pool.close();
    if (!Context.isOnEventLoopThread()) {
      try {
        await(closed);
      } catch (StoreException e) {
        LOG.warn("[READER] closing the PostgreSQL pool of {} failed: {}", describe, e.getMessage());
      }
    }
  }
}
