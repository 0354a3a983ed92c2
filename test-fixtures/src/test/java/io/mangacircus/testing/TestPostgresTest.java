package io.mangacircus.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The embedded server: a new empty database per call, password logins only for its owner. */
class TestPostgresTest {

  @Test
  void eachFreshDatabaseIsANewEmptyDatabaseOnTheSharedServer() throws Exception {
    TestPostgres.Database first = TestPostgres.freshDatabase();
    TestPostgres.Database second = TestPostgres.freshDatabase();

    assertThat(first.name()).isNotEqualTo(second.name());
    assertThat(first.port()).isEqualTo(second.port());
    try (Connection connection = DriverManager.getConnection(first.jdbcUrl(), first.user(), first.password());
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE marker (id INTEGER)");
    }
    try (Connection connection = DriverManager.getConnection(second.jdbcUrl(), second.user(), second.password());
        Statement statement = connection.createStatement();
        ResultSet tables = statement.executeQuery(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")) {
      tables.next();
      assertThat(tables.getInt(1)).isZero();
    }
  }

  @Test
  void aFreshDatabaseRefusesItsOwnerWithAWrongPassword() {
    TestPostgres.Database database = TestPostgres.freshDatabase();

    assertThatThrownBy(() -> DriverManager.getConnection(database.jdbcUrl(), database.user(), "wrong").close())
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("password authentication failed");
  }
}
