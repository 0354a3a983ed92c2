package io.mangacircus.reader.store;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.FluentConfiguration;

/**
 * The reader's schema migrations, Flyway scripts per engine ({@code db/reader/sqlite}, {@code db/reader/postgresql}),
 * numbered alike: a version means the same tables on both. A database recorded at a newer version than {@link #SCHEMA}
 * is refused before anything is written to it (the callers check {@link #isNewer} first).
 */
public final class ReaderMigrations {

  /** The schema this version creates and reads: the newest script of each engine. */
  public static final int SCHEMA = 15;

  /** Flyway's history table, in both engines. */
  public static final String HISTORY = "flyway_schema_history";

  /** The engines the reader's database may run on, with where their scripts are. */
  public enum Engine {
    SQLITE("classpath:db/reader/sqlite"),
    POSTGRESQL("classpath:db/reader/postgresql");

    private final String location;

    Engine(String location) {
      this.location = location;
    }
  }

  private ReaderMigrations() {
  }

  /** Whether a recorded version (as Flyway writes it, e.g. {@code "12"}) is newer than this version's schema. */
  public static boolean isNewer(String recorded) {
    return MigrationVersion.fromVersion(recorded).isNewerThan(String.valueOf(SCHEMA));
  }

  /** Whether a recorded version is this version's schema, so that there is nothing to migrate. */
  public static boolean isCurrent(String recorded) {
    return MigrationVersion.fromVersion(recorded).equals(MigrationVersion.fromVersion(String.valueOf(SCHEMA)));
  }

  /** The newest of the versions a history table records ({@code "0"} for none), compared as versions, not text. */
  public static String newest(Collection<String> recorded) {
    return recorded.stream().map(MigrationVersion::fromVersion).max(Comparator.naturalOrder())
        .map(MigrationVersion::getVersion).orElse("0");
  }

  /**
   * Migrates the database forward to {@link #SCHEMA}. A database with tables and no Flyway history yet (a SQLite file
   * of the versions before Flyway) is first recorded as being at {@code legacyVersion}, then migrated from there.
   */
  public static void migrate(Engine engine, DataSource dataSource, Optional<Integer> legacyVersion) {
    FluentConfiguration configuration = Flyway.configure()
        .dataSource(dataSource)
        .locations(engine.location)
        .table(HISTORY)
        .failOnMissingLocations(true)
        .loggers("slf4j")
        .group(true)
        .skipDefaultCallbacks(true);
    legacyVersion.ifPresent(version -> configuration.baselineOnMigrate(true)
        .baselineVersion(MigrationVersion.fromVersion(String.valueOf(version)))
        .baselineDescription("schema_version " + version + " (before Flyway)"));
    configuration.load().migrate();
  }
}
