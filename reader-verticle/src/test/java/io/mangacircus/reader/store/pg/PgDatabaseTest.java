package io.mangacircus.reader.store.pg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.reader.store.ReaderMigrations;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.testing.TestPostgres;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Tuple;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The PostgreSQL database: migrated by Flyway at open, a newer one refused untouched, blocking only off event loops. */
class PgDatabaseTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void closeVertx() {
    vertx.close().await();
  }

  private static PostgresTarget target(TestPostgres.Database database) {
    return new PostgresTarget(database.host(), database.port(), database.name(), database.user(), database.password(),
        PostgresTarget.SslMode.DISABLE, 2);
  }

  @Test
  void aNewDatabaseIsMigratedToTheCurrentSchemaAndKeepsItsRowsAcrossAReopen() throws Exception {
    TestPostgres.Database database = TestPostgres.freshDatabase();
    PgDatabase db = PgDatabase.open(vertx, target(database));
    assertThat(db.schemaVersion()).isEqualTo(ReaderMigrations.SCHEMA);
    db.await(db.pool().preparedQuery("INSERT INTO users (username, password_hash, role, created_at)"
        + " VALUES ($1, 'x', 'reader', '2026-01-01T00:00:00Z')").execute(Tuple.of("Alice")));
    db.close();

    PgDatabase again = PgDatabase.open(vertx, target(database));
    assertThat(again.schemaVersion()).isEqualTo(ReaderMigrations.SCHEMA);
    String username = again.await(again.pool().query("SELECT username FROM users").execute()
        .map(rows -> rows.iterator().next().getString(0)));
    assertThat(username).isEqualTo("Alice");
    again.close();
  }

  @Test
  void userNamesAreUniqueWhateverTheirCase() throws Exception {
    PgDatabase db = PgDatabase.open(vertx, target(TestPostgres.freshDatabase()));
    String insert = "INSERT INTO users (username, password_hash, role, created_at)"
        + " VALUES ($1, 'x', 'reader', '2026-01-01T00:00:00Z')";
    db.await(db.pool().preparedQuery(insert).execute(Tuple.of("Alice")));

    assertThatThrownBy(() -> db.await(db.pool().preparedQuery(insert).execute(Tuple.of("ALICE"))))
        .isInstanceOf(StoreException.class).hasMessageContaining("users_username");
    db.close();
  }

  @Test
  void aDatabaseFromANewerVersionIsRefusedAndItsHistoryLeftAsItWas() throws Exception {
    TestPostgres.Database database = TestPostgres.freshDatabase();
    PgDatabase.open(vertx, target(database)).close();
    int newer = ReaderMigrations.SCHEMA + 1;
    try (Connection connection = jdbc(database); Statement sql = connection.createStatement()) {
      sql.execute("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
          + " installed_by, execution_time, success) VALUES (999, '" + newer + "', 'from the future', 'SQL',"
          + " 'V" + newer + "__future.sql', 'test', 0, true)");
    }
    List<String> before = history(database);

    assertThatThrownBy(() -> PgDatabase.open(vertx, target(database)))
        .isInstanceOf(UnusableDatabaseException.class)
        .hasMessageContaining("schema " + newer + ", newer than this version's " + ReaderMigrations.SCHEMA)
        .hasMessageContaining(database.name())
        .hasMessageNotContaining(database.password());
    assertThat(history(database)).isEqualTo(before);
  }

  @Test
  void aWrongPasswordIsRefusedWithAMessageNamingTheDatabaseButNotThePassword() {
    TestPostgres.Database database = TestPostgres.freshDatabase();
    PostgresTarget wrong = new PostgresTarget(database.host(), database.port(), database.name(), database.user(),
        "not-the-password-42", PostgresTarget.SslMode.DISABLE, 2);

    assertThatThrownBy(() -> PgDatabase.open(vertx, wrong))
        .isInstanceOf(UnusableDatabaseException.class)
        .hasMessageContaining(database.name())
        .hasMessageContaining("password authentication failed")
        .hasMessageNotContaining("not-the-password-42");
  }

  @Test
  void waitingOnAnEventLoopIsRefused() throws Exception {
    PgDatabase db = PgDatabase.open(vertx, target(TestPostgres.freshDatabase()));
    CompletableFuture<Throwable> refused = new CompletableFuture<>();
    vertx.runOnContext(nothing -> {
      try {
        db.await(Future.succeededFuture(1));
        refused.complete(null);
      } catch (Throwable e) {
        refused.complete(e);
      }
    });

    assertThat(refused.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("event loop");
    db.close();
  }

  @Test
  void aTransactionThatFailsLeavesNothingBehind() throws Exception {
    PgDatabase db = PgDatabase.open(vertx, target(TestPostgres.freshDatabase()));
    String insert = "INSERT INTO users (username, password_hash, role, created_at)"
        + " VALUES ($1, 'x', 'reader', '2026-01-01T00:00:00Z')";

    assertThatThrownBy(() -> db.transaction(connection -> connection.preparedQuery(insert).execute(Tuple.of("bob"))
        .compose(done -> connection.preparedQuery(insert).execute(Tuple.of("BOB")))))
        .isInstanceOf(StoreException.class);
    long users = db.await(db.pool().query("SELECT count(*) FROM users").execute()
        .map(rows -> rows.iterator().next().getLong(0)));
    assertThat(users).isZero();
    db.close();
  }

  private static Connection jdbc(TestPostgres.Database database) throws Exception {
    return DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
  }

  private static List<String> history(TestPostgres.Database database) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection connection = jdbc(database); Statement sql = connection.createStatement();
        ResultSet history = sql.executeQuery("SELECT installed_rank, version, checksum, success"
            + " FROM flyway_schema_history ORDER BY installed_rank")) {
      while (history.next()) {
        rows.add(history.getInt(1) + " " + history.getString(2) + " " + history.getObject(3) + " "
            + history.getBoolean(4));
      }
    }
    return rows;
  }
}
