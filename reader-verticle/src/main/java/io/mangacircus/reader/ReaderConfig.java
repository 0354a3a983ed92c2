package io.mangacircus.reader;

import io.mangacircus.reader.accounts.oidc.OidcConfig;
import io.mangacircus.reader.http.TrustedProxies;
import io.mangacircus.reader.store.ReaderDatabaseConfig;
import java.util.List;

/**
 * The reader service's typed configuration (the {@code reader} section of {@code conf/mangacircus.json}).
 *
 * @param adminToken bearer token that grants admin access to admin routes without a session; empty = disabled.
 *     Default empty; environment {@code MANGACIRCUS_ADMIN_TOKEN}. Never logged.
 * @param scraperRequestTimeoutMs timeout of the reader's requests to the scraper over the event bus, in
 *     milliseconds. Default 2000; 100..30000.
 * @param initialAdminPassword password of the {@code admin} account created on first start when no admin exists;
 *     empty = generate one and log it once. Default empty; environment {@code MANGACIRCUS_ADMIN_PASSWORD}. Never logged.
 * @param sessionHours how long a login session lasts, hours. Default 720 (30 days); 1..8760.
 * @param trustProxy the addresses (or CIDR ranges) of the reverse proxies in front of the reader: only a request from
 *     one of them has its {@code X-Forwarded-For} believed (the client address that logins are throttled by) and its
 *     {@code X-Forwarded-Prefix} (a sub-path such as {@code /manga} put before the links of OPDS feeds). Default empty:
 *     no proxy is trusted, the socket's peer is the client and both headers are ignored.
 * @param libraries the collections read in place, besides the downloads library ({@link LibraryConfig}); default none
 * @param metadataProviders the public metadata services an admin may ask ({@link MetadataProvidersConfig}); default
 *     off
 * @param trackers the trackers users may link their reading to ({@link TrackersConfig}); default none
 * @param database {@code "sqlite"} or a PostgreSQL URL without a password ({@link ReaderDatabaseConfig}); default
 *     {@code "sqlite"}
 * @param databasePasswordEnv the environment variable holding PostgreSQL's password; default none
 * @param databasePasswordFile the file holding PostgreSQL's password; default none
 * @param databasePoolSize connections to PostgreSQL; default 10, 1..100
 * @param oidc sign-in with an OpenID Connect provider ({@link OidcConfig}, docs/sso.md); default null: off
 */
public record ReaderConfig(String adminToken, long scraperRequestTimeoutMs, String initialAdminPassword,
    long sessionHours, List<String> trustProxy, List<LibraryConfig> libraries,
    @com.fasterxml.jackson.annotation.JsonProperty(required = false) MetadataProvidersConfig metadataProviders,
    @com.fasterxml.jackson.annotation.JsonProperty(required = false) TrackersConfig trackers,
    @com.fasterxml.jackson.annotation.JsonProperty(required = false) String database,
    @com.fasterxml.jackson.annotation.JsonProperty(required = false) String databasePasswordEnv,
    @com.fasterxml.jackson.annotation.JsonProperty(required = false) String databasePasswordFile,
    @com.fasterxml.jackson.annotation.JsonProperty(required = false) Integer databasePoolSize,
    @com.fasterxml.jackson.annotation.JsonProperty(required = false) OidcConfig oidc) {

  /** The shortest admin (and metrics) bearer token accepted: shorter ones are guessable. */
  public static final int MIN_TOKEN_LENGTH = 24;

  public ReaderConfig {
    adminToken = adminToken == null ? "" : adminToken;
    initialAdminPassword = initialAdminPassword == null ? "" : initialAdminPassword;
    trustProxy = trustProxy == null ? List.of() : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(trustProxy));
    libraries = libraries == null ? List.of() : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(libraries));
    metadataProviders = metadataProviders == null ? MetadataProvidersConfig.OFF : metadataProviders;
    trackers = trackers == null ? TrackersConfig.OFF : trackers;
    database = database == null || database.isBlank() ? ReaderDatabaseConfig.SQLITE : database;
    databasePasswordEnv = databasePasswordEnv == null ? "" : databasePasswordEnv;
    databasePasswordFile = databasePasswordFile == null ? "" : databasePasswordFile;
    databasePoolSize = databasePoolSize == null ? ReaderDatabaseConfig.DEFAULT.poolSize() : databasePoolSize;
  }

  /** Without single sign-on. */
  public ReaderConfig(String adminToken, long scraperRequestTimeoutMs, String initialAdminPassword, long sessionHours,
      List<String> trustProxy, List<LibraryConfig> libraries, MetadataProvidersConfig metadataProviders,
      TrackersConfig trackers, String database, String databasePasswordEnv, String databasePasswordFile,
      Integer databasePoolSize) {
    this(adminToken, scraperRequestTimeoutMs, initialAdminPassword, sessionHours, trustProxy, libraries,
        metadataProviders, trackers, database, databasePasswordEnv, databasePasswordFile, databasePoolSize, null);
  }

  /** On the embedded SQLite file, without single sign-on. */
  public ReaderConfig(String adminToken, long scraperRequestTimeoutMs, String initialAdminPassword, long sessionHours,
      List<String> trustProxy, List<LibraryConfig> libraries, MetadataProvidersConfig metadataProviders,
      TrackersConfig trackers) {
    this(adminToken, scraperRequestTimeoutMs, initialAdminPassword, sessionHours, trustProxy, libraries,
        metadataProviders, trackers, null, null, null, null, null);
  }

  /** Without trackers. */
  public ReaderConfig(String adminToken, long scraperRequestTimeoutMs, String initialAdminPassword, long sessionHours,
      List<String> trustProxy, List<LibraryConfig> libraries, MetadataProvidersConfig metadataProviders) {
    this(adminToken, scraperRequestTimeoutMs, initialAdminPassword, sessionHours, trustProxy, libraries,
        metadataProviders, null, null, null, null, null, null);
  }

  /** Without metadata providers (off). */
  public ReaderConfig(String adminToken, long scraperRequestTimeoutMs, String initialAdminPassword, long sessionHours,
      List<String> trustProxy, List<LibraryConfig> libraries) {
    this(adminToken, scraperRequestTimeoutMs, initialAdminPassword, sessionHours, trustProxy, libraries, null, null,
        null, null, null, null, null);
  }

  /** Without collections. */
  public ReaderConfig(String adminToken, long scraperRequestTimeoutMs, String initialAdminPassword, long sessionHours,
      List<String> trustProxy) {
    this(adminToken, scraperRequestTimeoutMs, initialAdminPassword, sessionHours, trustProxy, List.of(), null, null,
        null, null, null, null, null);
  }

  /** The trusted proxies; {@link IllegalArgumentException} naming an entry that is no IP address or range. */
  public TrustedProxies trustedProxies() {
    return TrustedProxies.of(trustProxy);
  }

  /** Where the reader keeps its data: the {@code database*} keys together. */
  public ReaderDatabaseConfig databaseConfig() {
    return new ReaderDatabaseConfig(database, databasePasswordEnv, databasePasswordFile, databasePoolSize);
  }

  /** Whether an admin bearer token is configured. */
  public boolean adminTokenEnabled() {
    return !adminToken.isEmpty();
  }

  /** Secrets are never printed, even by accident. */
  @Override
  public String toString() {
    return "ReaderConfig[adminToken=" + (adminTokenEnabled() ? "<set>" : "<none>")
        + ", scraperRequestTimeoutMs=" + scraperRequestTimeoutMs
        + ", initialAdminPassword=" + (initialAdminPassword.isEmpty() ? "<generate>" : "<set>")
        + ", sessionHours=" + sessionHours + ", trustProxy=" + trustProxy + ", libraries=" + libraries
        + ", metadataProviders=" + metadataProviders + ", trackers=" + trackers + ", " + databaseConfig() + ", oidc=" + oidc + "]";
  }
}
