package io.mangacircus.launcher;

import java.util.List;

/** What a process runs: both services, one of them, or the read-only checks. */
public enum Mode {
  /** Reader and scraper in one JVM on the local event bus (the default). */
  ALL(List.of("reader", "scraper")),
  /** The reader only; with {@code --cluster} it reaches the scraper over the clustered event bus. */
  READER(List.of("reader")),
  /** The scraper only, with a health port instead of the reader's HTTP port. */
  SCRAPER(List.of("scraper")),
  /** Read-only checks of config, data files, locks, budgets and running services' health. */
  CHECK(List.of());

  private final List<String> services;

  Mode(List<String> services) {
    this.services = services;
  }

  /** The services this mode deploys. */
  public List<String> services() {
    return services;
  }

  /** Whether this process serves the reader's HTTP port (otherwise it serves the health port). */
  public boolean hostsReader() {
    return services.contains("reader");
  }

  /** Whether this process owns the download queue. */
  public boolean hostsScraper() {
    return services.contains("scraper");
  }

  /** The services whose readiness this process reports: the reader needs the scraper reachable too. */
  public List<String> readinessServices() {
    return hostsReader() ? List.of("reader", "scraper") : services;
  }

  /** Lower-case name as typed on the command line. */
  public String cliName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
