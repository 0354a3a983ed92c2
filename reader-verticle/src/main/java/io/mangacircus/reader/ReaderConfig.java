package io.mangacircus.reader;

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
 * @param trustProxy whether the reader sits behind a reverse proxy whose {@code X-Forwarded-Prefix} (a sub-path such as
 *     {@code /manga}) it puts before the links it writes into OPDS feeds; only true when every request comes through
 *     that proxy, which must set or strip the header. Default false: the header is ignored.
 */
public record ReaderConfig(String adminToken, long scraperRequestTimeoutMs, String initialAdminPassword,
    long sessionHours, boolean trustProxy) {

  public ReaderConfig {
    adminToken = adminToken == null ? "" : adminToken;
    initialAdminPassword = initialAdminPassword == null ? "" : initialAdminPassword;
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
        + ", sessionHours=" + sessionHours + ", trustProxy=" + trustProxy + "]";
  }
}
