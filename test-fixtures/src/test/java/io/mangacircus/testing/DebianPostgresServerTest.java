package io.mangacircus.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The fallback server, forced as {@code mangacircus.test.postgres=debian} forces it: the same databases and logins. */
class DebianPostgresServerTest {

  private static DebianPostgresServer server;

  @BeforeAll
  static void startDebianServer() {
    server = TestPostgres.withRole((DebianPostgresServer) PostgresServerChoice.start("debian"));
  }

  @AfterAll
  static void stopDebianServer() throws Exception {
    server.stop();
  }

  @Test
  void aFreshDatabaseOnDebiansServerTakesItsOwnerWithThePasswordOverScram() throws Exception {
    TestPostgres.Database database = TestPostgres.freshDatabase(server);

    assertThat(database.port()).isEqualTo(server.port());
    try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE marker (id INTEGER)");
      try (ResultSet owner = statement.executeQuery("SELECT current_user, current_database()")) {
        owner.next();
        assertThat(owner.getString(1)).isEqualTo(database.user());
        assertThat(owner.getString(2)).isEqualTo(database.name());
      }
    }
    try (Connection connection = server.superuserConnection();
        Statement statement = connection.createStatement();
        ResultSet stored = statement.executeQuery(
            "SELECT rolpassword FROM pg_authid WHERE rolname = '" + database.user() + "'")) {
      stored.next();
      assertThat(stored.getString(1)).startsWith("SCRAM-SHA-256$");
    }
  }

  @Test
  void aFreshDatabaseOnDebiansServerRefusesItsOwnerWithAWrongPassword() {
    TestPostgres.Database database = TestPostgres.freshDatabase(server);

    assertThatThrownBy(() -> DriverManager.getConnection(database.jdbcUrl(), database.user(), "wrong").close())
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("password authentication failed");
  }

  @Test
  void anUnknownChoiceIsRefusedNamingTheProperty() {
    assertThatThrownBy(() -> PostgresServerChoice.start("zonky"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mangacircus.test.postgres")
        .hasMessageContaining("'zonky'");
  }

  @Test
  void stoppingRemovesTheServersDirectory() throws Exception {
    DebianPostgresServer another = (DebianPostgresServer) PostgresServerChoice.start("debian");
    Path data = another.data();
    assertThat(data.resolve("postmaster.pid")).exists();

    another.stop();

    assertThat(data.getParent()).doesNotExist();
    assertThatThrownBy(another::superuserConnection).isInstanceOf(SQLException.class);
  }
}
