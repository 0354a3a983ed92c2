package io.mangacircus.launcher.config;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.reader.ReaderConfig;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.source.ScraperSources;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The whole of {@code conf/mangacircus.json}, typed: the launcher's own sections plus each service's section.
 * {@code docs/configuration.md} documents every key. Jackson binds these records directly ({@link ConfigLoader}): every
 * component is a required key, unknown keys are refused.
 *
 * @param dataDir the data folder (default {@code ./data}; environment {@code MANGACIRCUS_DATA}; {@code --data})
 * @param notifications the operator's notification destinations and heartbeat (none by default)
 */
public record MangaCircusConfig(String dataDir, Http http, Metrics metrics, Log log, Cluster cluster,
    Supervision supervision, Memory memory, Health health, NotificationsConfig notifications, ReaderConfig reader,
    ScraperConfig scraper) {

  /** The data folder as a path. */
  public Path dataPath() {
    return Path.of(dataDir);
  }

  /**
   * HTTP listeners.
   *
   * @param bind address every listener binds to (default {@code 127.0.0.1}; {@code MANGACIRCUS_BIND}; {@code --bind})
   * @param port the reader's HTTP port (default 8080; {@code MANGACIRCUS_PORT}; {@code --port})
   * @param healthPort HTTP port of a process without the reader, serving {@code /health/*} and {@code /metrics}
   *     (default 8081; {@code MANGACIRCUS_HEALTH_PORT}; {@code --health-port})
   * @param nativeTransport whether Netty's native transport (epoll on Linux) is used where it loads; false, or where it
   *     does not load, Java's NIO (default true)
   * @param headerTimeoutSeconds how long a request's head (request line and headers) may take from its first byte
   *     until complete, s (default 30); past it the connection is closed
   * @param idleTimeoutSeconds how long a connection may stay open with nothing asked or answered, s (default 75); a
   *     request body being read or an answer being written is never timed, nor is the console's WebSocket
   * @param maxConnections open HTTP connections at most, all listeners of the port together (default 512); a
   *     connection over it is closed at once
   * @param publicHosts the names (host or host:port) the reader's pages and API answer to; a request naming another
   *     {@code Host} is 421 (DNS rebinding). Empty (default): any {@code Host}. {@code /health/*} and {@code /metrics}
   *     answer to any
   */
  public record Http(String bind, int port, int healthPort, boolean nativeTransport, int headerTimeoutSeconds,
      int idleTimeoutSeconds, int maxConnections, List<String> publicHosts) {

    public Http {
      publicHosts = publicHosts == null ? List.of() : List.copyOf(publicHosts);
    }

    /** Checks the ranges of the timeouts, the cap and the names; throws naming the key. */
    void check() {
      require(headerTimeoutSeconds >= 1 && headerTimeoutSeconds <= 3600, "http.headerTimeoutSeconds",
          "must be between 1 and 3600 s");
      require(idleTimeoutSeconds >= 1 && idleTimeoutSeconds <= 86_400, "http.idleTimeoutSeconds",
          "must be between 1 and 86400 s");
      require(maxConnections >= 1 && maxConnections <= 1_000_000, "http.maxConnections",
          "must be between 1 and 1000000");
      for (String name : publicHosts) {
        String problem = io.mangacircus.launcher.edge.PublicHosts.problem(name);
        require(problem == null, "http.publicHosts", problem);
      }
    }
  }

  /**
   * Prometheus endpoint.
   *
   * @param token bearer token required by {@code GET /metrics}; empty disables the endpoint (404)
   *     (default empty; {@code MANGACIRCUS_METRICS_TOKEN}). Never logged.
   */
  public record Metrics(String token) {
    public Metrics {
      token = token == null ? "" : token;
    }

    /** Whether {@code /metrics} is served at all. */
    public boolean enabled() {
      return !token.isEmpty();
    }

    @Override
    public String toString() {
      return "Metrics[token=" + (enabled() ? "<set>" : "<none>") + "]";
    }
  }

  /**
   * Logging.
   *
   * @param format {@code text} (default) or {@code json} (one JSON object a line); {@code MANGACIRCUS_LOG_FORMAT}
   * @param level root level: TRACE, DEBUG, INFO (default), WARN or ERROR
   */
  public record Log(String format, String level) {

    /** Whether log lines are JSON objects. */
    public boolean json() {
      return "json".equals(format);
    }
  }

  /**
   * The clustered event bus (used only with {@code --cluster}).
   *
   * @param name Hazelcast cluster name; only members with the same name join (default {@code mangacircus};
   *     {@code MANGACIRCUS_CLUSTER_NAME})
   * @param members TCP/IP join members, {@code host} or {@code host:port} (default {@code ["127.0.0.1"]};
   *     {@code MANGACIRCUS_CLUSTER_MEMBERS}, comma-separated; {@code --cluster-members})
   * @param port first Hazelcast member port; the next free one is taken when busy (default 5701)
   * @param publicHost address other members use to reach this one; empty = the bind address (default empty)
   */
  public record Cluster(String name, List<String> members, int port, String publicHost) {
    public Cluster {
      members = members == null ? List.of() : List.copyOf(members);
      publicHost = publicHost == null ? "" : publicHost;
    }
  }

  /**
   * How launchers supervise their services (docs/architecture.md §6).
   *
   * @param pingIntervalMs liveness ping period, ms (default 10000)
   * @param pingTimeoutMs liveness ping timeout, ms (default 2000; below the interval)
   * @param missedPingsBeforeRestart consecutive failed pings that count as one failure (default 3)
   * @param crashBudgetFailures failures within the window that park a service (default 3)
   * @param crashBudgetWindowMinutes the rolling window, minutes (default 60)
   * @param backoffInitialMs delay before the first redeploy, ms (default 1000)
   * @param backoffMultiplier growth of the delay per failure in the window (default 2.0)
   * @param backoffMaxMs cap of the redeploy delay, ms (default 60000)
   * @param shutdownGraceSeconds how long a graceful stop may take before the process gives up, s (default 30)
   */
  public record Supervision(long pingIntervalMs, long pingTimeoutMs, int missedPingsBeforeRestart,
      int crashBudgetFailures, long crashBudgetWindowMinutes, long backoffInitialMs, double backoffMultiplier,
      long backoffMaxMs, long shutdownGraceSeconds) {
  }

  /**
   * Memory-pressure yield of a process that hosts the scraper (docs/resilience.md, "Memory-pressure yield").
   *
   * @param enabled whether the launcher watches {@code /proc/meminfo} at all (default true)
   * @param pollSeconds how often it reads, s (default 5)
   * @param highWatermarkPct used memory at or above which downloads pause at their next checkpoint (default 92)
   * @param lowWatermarkPct downloads do not resume at or above this (default 80)
   * @param cooldownSeconds no resume for this long after a pressure pause, whatever the backlog, s (default 300)
   */
  public record Memory(boolean enabled, long pollSeconds, int highWatermarkPct, int lowWatermarkPct,
      long cooldownSeconds) {
  }

  /**
   * Health endpoints.
   *
   * @param checkTimeoutMs how long a readiness check waits for a service's ping reply, ms (default 2000)
   */
  public record Health(long checkTimeoutMs) {
  }

  private static final Set<String> LEVELS = Set.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR");

  /** Checks every value's range; the first bad one throws {@link InvalidConfigException} naming its key. */
  public MangaCircusConfig validate() {
    require(dataDir != null && !dataDir.isBlank(), "dataDir", "must name a folder");
    require(http.bind() != null && !http.bind().isBlank(), "http.bind", "must be an address such as 127.0.0.1");
    port(http.port(), "http.port");
    port(http.healthPort(), "http.healthPort");
    http.check();
    require(!metrics.token().chars().anyMatch(Character::isWhitespace), "metrics.token", "must not contain whitespace");
    token(metrics.token(), "metrics.token");
    require("text".equals(log.format()) || "json".equals(log.format()), "log.format",
        "must be \"text\" or \"json\", got \"" + log.format() + "\"");
    require(log.level() != null && LEVELS.contains(log.level().toUpperCase(Locale.ROOT)), "log.level",
        "must be one of " + LEVELS);
    require(cluster.name() != null && !cluster.name().isBlank(), "cluster.name", "must not be empty");
    require(!cluster.members().isEmpty(), "cluster.members", "must list at least one host");
    for (String member : cluster.members()) {
      require(member != null && member.matches("[A-Za-z0-9._-]+(:\\d{1,5})?"), "cluster.members",
          "\"" + member + "\" is not host or host:port");
    }
    port(cluster.port(), "cluster.port");
    Supervision s = supervision;
    require(s.pingIntervalMs() >= 100, "supervision.pingIntervalMs", "must be at least 100 ms");
    require(s.pingTimeoutMs() >= 50 && s.pingTimeoutMs() < s.pingIntervalMs(), "supervision.pingTimeoutMs",
        "must be at least 50 ms and below supervision.pingIntervalMs");
    require(s.missedPingsBeforeRestart() >= 1, "supervision.missedPingsBeforeRestart", "must be at least 1");
    require(s.crashBudgetFailures() >= 1, "supervision.crashBudgetFailures", "must be at least 1");
    require(s.crashBudgetWindowMinutes() >= 1, "supervision.crashBudgetWindowMinutes", "must be at least 1");
    require(s.backoffInitialMs() >= 1, "supervision.backoffInitialMs", "must be at least 1 ms");
    require(s.backoffMultiplier() >= 1.0, "supervision.backoffMultiplier", "must be at least 1.0");
    require(s.backoffMaxMs() >= s.backoffInitialMs(), "supervision.backoffMaxMs",
        "must be at least supervision.backoffInitialMs");
    require(s.shutdownGraceSeconds() >= 1 && s.shutdownGraceSeconds() <= 300, "supervision.shutdownGraceSeconds",
        "must be between 1 and 300");
    require(memory.pollSeconds() >= 1 && memory.pollSeconds() <= 3600, "memory.pollSeconds", "must be between 1 and 3600");
    require(memory.highWatermarkPct() > 0 && memory.highWatermarkPct() <= 100, "memory.highWatermarkPct",
        "must be a percentage between 1 and 100");
    require(memory.lowWatermarkPct() > 0 && memory.lowWatermarkPct() < memory.highWatermarkPct(),
        "memory.lowWatermarkPct", "must be a percentage below memory.highWatermarkPct");
    require(memory.cooldownSeconds() >= 0 && memory.cooldownSeconds() <= 86_400, "memory.cooldownSeconds",
        "must be between 0 and 86400");
    require(health.checkTimeoutMs() >= 50 && health.checkTimeoutMs() <= 30_000, "health.checkTimeoutMs",
        "must be between 50 and 30000 ms");
    notifications.check();
    require(reader.scraperRequestTimeoutMs() >= 100 && reader.scraperRequestTimeoutMs() <= 30_000,
        "reader.scraperRequestTimeoutMs", "must be between 100 and 30000 ms");
    require(!reader.adminToken().chars().anyMatch(Character::isWhitespace), "reader.adminToken",
        "must not contain whitespace");
    token(reader.adminToken(), "reader.adminToken");
    require(reader.initialAdminPassword().isEmpty() || reader.initialAdminPassword().length() >= 8,
        "reader.initialAdminPassword", "must be empty (generate one) or at least 8 characters");
    require(reader.initialAdminPassword().isEmpty() || !reader.initialAdminPassword().isBlank(),
        "reader.initialAdminPassword", "must not be only spaces");
    try {
      reader.trustedProxies();
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigException("reader.trustProxy", e.getMessage());
    }
    require(reader.sessionHours() >= 1 && reader.sessionHours() <= 8760, "reader.sessionHours",
        "must be between 1 and 8760");
    reader.databaseConfig().problem().ifPresent(problem -> {
      throw new InvalidConfigException(problem.substring(0, problem.indexOf(':')),
          problem.substring(problem.indexOf(':') + 2));
    });
    java.util.Set<String> libraryNames = new java.util.HashSet<>();
    for (int i = 0; i < reader.libraries().size(); i++) {
      io.mangacircus.reader.LibraryConfig library = reader.libraries().get(i);
      String key = "reader.libraries[" + i + "]";
      library.problem().ifPresent(problem -> {
        throw new InvalidConfigException(key, problem);
      });
      require(libraryNames.add(library.name()), key, "name '" + library.name() + "' is used twice");
      Path data = dataPath().toAbsolutePath().normalize();
      // MangaCircus writes in its data folder and never in a collection: the two must not hold each other.
      require(!library.folder().startsWith(data) && !data.startsWith(library.folder()), key + ".path",
          "'" + library.path() + "' overlaps the data folder " + data + "; a collection lies outside it");
    }
    reader.metadataProviders().problem().ifPresent(problem -> {
      throw new InvalidConfigException("reader.metadataProviders." + problem.substring(0, problem.indexOf(':')),
          problem.substring(problem.indexOf(':') + 2));
    });
    reader.trackers().problem().ifPresent(problem -> {
      throw new InvalidConfigException("reader.trackers." + problem.substring(0, problem.indexOf(':')),
          problem.substring(problem.indexOf(':') + 2));
    });
    if (reader.oidc() != null) {
      reader.oidc().problem().ifPresent(problem -> {
        throw new InvalidConfigException("reader.oidc." + problem.substring(0, problem.indexOf(':')),
            problem.substring(problem.indexOf(':') + 2));
      });
    }
    require(scraper.statusLogIntervalSeconds() >= 0 && scraper.statusLogIntervalSeconds() <= 86_400,
        "scraper.statusLogIntervalSeconds", "must be between 0 and 86400");
    validateScraper();
    return this;
  }

  private void validateScraper() {
    ScraperConfig s = scraper;
    require(s.leaseSeconds() >= 10 && s.leaseSeconds() <= 3600, "scraper.leaseSeconds", "must be between 10 and 3600");
    require(s.claimPollMs() >= 50 && s.claimPollMs() <= 60_000, "scraper.claimPollMs", "must be between 50 and 60000");
    require(s.pageTimeoutSeconds() >= 1 && s.pageTimeoutSeconds() <= 600, "scraper.pageTimeoutSeconds",
        "must be between 1 and 600");
    require(s.metadataTimeoutSeconds() >= 1 && s.metadataTimeoutSeconds() <= 600, "scraper.metadataTimeoutSeconds",
        "must be between 1 and 600");
    require(s.recovery().maxPerPass() >= 1, "scraper.recovery.maxPerPass", "must be at least 1");
    require(s.recovery().delayMs() >= 0 && s.recovery().delayMs() <= 60_000, "scraper.recovery.delayMs",
        "must be between 0 and 60000");
    ScraperConfig.Failures f = s.failures();
    require(f.retryWaitSeconds() >= 1 && f.retryWaitSeconds() <= 86_400, "scraper.failures.retryWaitSeconds",
        "must be between 1 and 86400");
    require(f.requestRetries() >= 0 && f.requestRetries() <= 10, "scraper.failures.requestRetries",
        "must be between 0 and 10");
    require(f.retryBackoffMs() >= 1 && f.retryBackoffMs() <= 60_000, "scraper.failures.retryBackoffMs",
        "must be between 1 and 60000");
    require(f.circuitMaxFailures() >= 1, "scraper.failures.circuitMaxFailures", "must be at least 1");
    require(f.circuitOpenSeconds() >= 1 && f.circuitOpenSeconds() <= 86_400, "scraper.failures.circuitOpenSeconds",
        "must be between 1 and 86400");
    require(f.systemicParserJobs() >= 1, "scraper.failures.systemicParserJobs", "must be at least 1");
    require(f.systemicParserWindowMinutes() >= 1, "scraper.failures.systemicParserWindowMinutes", "must be at least 1");
    require(s.stall().checkIntervalSeconds() >= 1 && s.stall().checkIntervalSeconds() <= 3600,
        "scraper.stall.checkIntervalSeconds", "must be between 1 and 3600");
    require(s.stall().stallAfterSeconds() >= 1, "scraper.stall.stallAfterSeconds", "must be at least 1");
    require(s.stall().chapterDelayGraceSeconds() >= 0, "scraper.stall.chapterDelayGraceSeconds", "must be at least 0");
    require(s.discovery().time() != null && s.discovery().time().matches("([01]\\d|2[0-3]):[0-5]\\d"),
        "scraper.discovery.time", "must be a local time HH:mm between 00:00 and 23:59");
    require(s.demo().port() >= 0 && s.demo().port() <= 65_535, "scraper.demo.port", "must be 0 (any) or a TCP port");
    require(s.demo().title() != null && !s.demo().title().isBlank(), "scraper.demo.title", "must name a demo title");
    ScraperSources.checkProxy(s);
    s.sources().forEach((name, source) -> {
      String key = "scraper.sources." + name;
      require(name.matches("[a-z0-9][a-z0-9-]{0,39}"), key, "source names are lower-case letters, digits and dashes");
      // Type, options (an html definition is loaded and checked) and base URL: the scraper's source registry decides.
      ScraperSources.check(name, source, s);
      require(source.pageDelayMs() >= 0 && source.pageDelayMs() <= 600_000, key + ".pageDelayMs",
          "must be between 0 and 600000 ms");
      require(source.chapterDelayMs() >= 0 && source.chapterDelayMs() <= 3_600_000, key + ".chapterDelayMs",
          "must be between 0 and 3600000 ms");
    });
  }

  /** A bearer token is empty (off) or long enough not to be guessed. */
  private static void token(String token, String key) {
    require(token.isEmpty() || token.length() >= ReaderConfig.MIN_TOKEN_LENGTH, key, "is " + token.length()
        + " characters long; a token must have at least " + ReaderConfig.MIN_TOKEN_LENGTH + " (or be empty to turn it "
        + "off): make one with `head -c 24 /dev/urandom | base64`");
  }

  private static void port(int port, String key) {
    require(port >= 1 && port <= 65_535, key, "must be a TCP port between 1 and 65535, got " + port);
  }

  private static void require(boolean ok, String key, String problem) {
    if (!ok) {
      throw new InvalidConfigException(key, problem);
    }
  }
}
