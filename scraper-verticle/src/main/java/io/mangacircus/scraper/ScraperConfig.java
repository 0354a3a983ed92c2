package io.mangacircus.scraper;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.mangacircus.scraper.validate.PageValidator;
import java.util.Map;

/**
 * The scraper service's typed configuration (the {@code scraper} section of {@code conf/mangacircus.json}).
 * {@code docs/configuration.md} lists every key with its default and unit.
 *
 * @param statusLogIntervalSeconds period of a one-line queue summary in the log, s; 0 disables it. Default 300.
 * @param autoConfirm whether inspected titles download without the operator's confirmation. Default false.
 * @param leaseSeconds how long a lane's claim on a job lasts without a checkpoint renewing it, s. Default 120.
 * @param claimPollMs how often an idle lane looks for work, ms. Default 1000.
 * @param pageTimeoutSeconds timeout of one page fetch, s. Default 60.
 * @param metadataTimeoutSeconds timeout of a title or chapter-list request, s. Default 30.
 * @param recovery startup recovery limits
 * @param demo the built-in demo site
 * @param sources configured sources by name
 * @param failures failure handling limits (docs/resilience.md, "The table")
 * @param stall the stall watchdog
 * @param discovery nightly new-chapter discovery
 * @param proxy the outbound proxy of every source that names none of its own; null for none (docs/sources.md,
 *     "Outbound proxy")
 */
public record ScraperConfig(long statusLogIntervalSeconds, boolean autoConfirm, long leaseSeconds, long claimPollMs,
    long pageTimeoutSeconds, long metadataTimeoutSeconds, Recovery recovery, Demo demo, Map<String, SourceConfig> sources,
    Failures failures, Stall stall, Discovery discovery, ProxyConfig proxy) {

  /** A configuration with the default discovery settings. */
  public ScraperConfig(long statusLogIntervalSeconds, boolean autoConfirm, long leaseSeconds, long claimPollMs,
      long pageTimeoutSeconds, long metadataTimeoutSeconds, Recovery recovery, Demo demo,
      Map<String, SourceConfig> sources, Failures failures, Stall stall) {
    this(statusLogIntervalSeconds, autoConfirm, leaseSeconds, claimPollMs, pageTimeoutSeconds, metadataTimeoutSeconds,
        recovery, demo, sources, failures, stall, null);
  }

  /** A configuration with no default proxy. */
  public ScraperConfig(long statusLogIntervalSeconds, boolean autoConfirm, long leaseSeconds, long claimPollMs,
      long pageTimeoutSeconds, long metadataTimeoutSeconds, Recovery recovery, Demo demo,
      Map<String, SourceConfig> sources, Failures failures, Stall stall, Discovery discovery) {
    this(statusLogIntervalSeconds, autoConfirm, leaseSeconds, claimPollMs, pageTimeoutSeconds, metadataTimeoutSeconds,
        recovery, demo, sources, failures, stall, discovery, null);
  }

  @JsonCreator
  public ScraperConfig(
      @JsonProperty(value = "statusLogIntervalSeconds", required = true) long statusLogIntervalSeconds,
      @JsonProperty(value = "autoConfirm", required = true) boolean autoConfirm,
      @JsonProperty(value = "leaseSeconds", required = true) long leaseSeconds,
      @JsonProperty(value = "claimPollMs", required = true) long claimPollMs,
      @JsonProperty(value = "pageTimeoutSeconds", required = true) long pageTimeoutSeconds,
      @JsonProperty(value = "metadataTimeoutSeconds", required = true) long metadataTimeoutSeconds,
      @JsonProperty(value = "recovery", required = true) Recovery recovery,
      @JsonProperty(value = "demo", required = true) Demo demo,
      @JsonProperty(value = "sources", required = true) Map<String, SourceConfig> sources,
      @JsonProperty(value = "failures", required = true) Failures failures,
      @JsonProperty(value = "stall", required = true) Stall stall,
      @JsonProperty("discovery") Discovery discovery,
      @JsonProperty("proxy") ProxyConfig proxy) {
    this.statusLogIntervalSeconds = statusLogIntervalSeconds;
    this.autoConfirm = autoConfirm;
    this.leaseSeconds = leaseSeconds;
    this.claimPollMs = claimPollMs;
    this.pageTimeoutSeconds = pageTimeoutSeconds;
    this.metadataTimeoutSeconds = metadataTimeoutSeconds;
    this.recovery = recovery;
    this.demo = demo;
    this.sources = sources == null ? Map.of() : Map.copyOf(sources);
    this.failures = failures;
    this.stall = stall;
    this.discovery = discovery == null ? new Discovery(true, "03:30") : discovery;
    this.proxy = proxy;
  }

  /**
   * An outbound proxy as configured (docs/sources.md, "Outbound proxy"), read and checked into a
   * {@link io.mangacircus.scraper.source.SourceProxy} at start. Holds no secret: a password is only named (an
   * environment variable or a file), and one written inline is refused without being kept.
   *
   * @param url {@code http://host:port} or {@code socks5://host:port}, no credentials in it; on a source,
   *     {@value #NONE} means no proxy even though {@code scraper.proxy} sets one
   * @param username the proxy user; null for a proxy without authentication
   * @param passwordEnv the environment variable holding the proxy password; null when {@code passwordFile} holds it
   * @param passwordFile a file holding the proxy password (surrounding whitespace ignored); a relative path starts at
   *     the working directory; null when {@code passwordEnv} names it
   * @param noProxy hosts reached directly, by exact name or with {@code *} wildcards ({@code *.example.org}). Default
   *     empty.
   * @param passwordInline whether the configuration wrote a {@code password} inline (refused; its value is not kept)
   */
  public record ProxyConfig(String url, String username, String passwordEnv, String passwordFile,
      java.util.List<String> noProxy, boolean passwordInline) {

    /** The {@code url} that says "this source uses no proxy". */
    public static final String NONE = "none";

    public ProxyConfig {
      noProxy = noProxy == null ? java.util.List.of() : java.util.Collections.unmodifiableList(
          new java.util.ArrayList<>(noProxy));
    }

    /** No proxy, whatever the default. */
    public static ProxyConfig none() {
      return new ProxyConfig(NONE, null, null, null, null, false);
    }

    @JsonCreator
    public static ProxyConfig fromJson(@JsonProperty(value = "url", required = true) String url,
        @JsonProperty("username") String username,
        @JsonProperty("passwordEnv") String passwordEnv,
        @JsonProperty("passwordFile") String passwordFile,
        @JsonProperty("noProxy") java.util.List<String> noProxy,
        @JsonProperty("password") Object password) {
      return new ProxyConfig(url, username, passwordEnv, passwordFile, noProxy, password != null);
    }

    /** Whether this says "no proxy". */
    public boolean saysNone() {
      return NONE.equals(url);
    }

    /** Names where the password comes from, never the user or a URL's credentials. */
    @Override
    public String toString() {
      return "ProxyConfig[url=" + (url == null || url.contains("@") ? "(not shown)" : url)
          + (username == null ? "" : ", username=(set)")
          + (passwordEnv == null ? "" : ", passwordEnv=" + passwordEnv)
          + (passwordFile == null ? "" : ", passwordFile=" + passwordFile)
          + ", noProxy=" + noProxy + "]";
    }
  }

  /**
   * Nightly discovery of new chapters (docs/sources.md).
   *
   * @param enabled whether it runs at {@code time}. Default true; changeable at run time.
   * @param time local time of day {@code HH:mm} (the machine's time zone). Default {@code 03:30}.
   */
  public record Discovery(boolean enabled, String time) {
  }

  /**
   * Failure handling (docs/resilience.md, "The table").
   *
   * @param retryWaitSeconds how long a job waits in {@code retry_wait} after a network failure, s. Default 300.
   * @param requestRetries request-level retries of a failed fetch before it counts, honouring {@code Retry-After}.
   *     Default 2.
   * @param retryBackoffMs first delay between request-level retries (doubles each time, capped at 30 s), ms.
   *     Default 1000.
   * @param circuitMaxFailures failed requests that open a source's circuit. Default 3.
   * @param circuitOpenSeconds how long an open circuit stays open before one trial call, s. Default 300.
   * @param systemicParserJobs parser quarantines of different jobs of one source that pause its lane. Default 2.
   * @param systemicParserWindowMinutes the window for that count, min. Default 60.
   */
  public record Failures(long retryWaitSeconds, int requestRetries, long retryBackoffMs, int circuitMaxFailures,
      long circuitOpenSeconds, int systemicParserJobs, long systemicParserWindowMinutes) {
    @JsonCreator
    public Failures(@JsonProperty(value = "retryWaitSeconds", required = true) long retryWaitSeconds,
        @JsonProperty(value = "requestRetries", required = true) int requestRetries,
        @JsonProperty(value = "retryBackoffMs", required = true) long retryBackoffMs,
        @JsonProperty(value = "circuitMaxFailures", required = true) int circuitMaxFailures,
        @JsonProperty(value = "circuitOpenSeconds", required = true) long circuitOpenSeconds,
        @JsonProperty(value = "systemicParserJobs", required = true) int systemicParserJobs,
        @JsonProperty(value = "systemicParserWindowMinutes", required = true) long systemicParserWindowMinutes) {
      this.retryWaitSeconds = retryWaitSeconds;
      this.requestRetries = requestRetries;
      this.retryBackoffMs = retryBackoffMs;
      this.circuitMaxFailures = circuitMaxFailures;
      this.circuitOpenSeconds = circuitOpenSeconds;
      this.systemicParserJobs = systemicParserJobs;
      this.systemicParserWindowMinutes = systemicParserWindowMinutes;
    }
  }

  /**
   * The stall watchdog.
   *
   * @param checkIntervalSeconds how often it looks, s. Default 30.
   * @param stallAfterSeconds no checkpoint progress for this long is a stall, s. Default 900 (15 min).
   * @param chapterDelayGraceSeconds when a lane's chapter delay plus this is longer, that is the limit, s.
   *     Default 180 (3 min).
   */
  public record Stall(long checkIntervalSeconds, long stallAfterSeconds, long chapterDelayGraceSeconds) {
  }

  /**
   * Startup recovery limits (docs/downloads.md, "Startup recovery").
   *
   * @param maxPerPass source look-ups recovery makes per start, for open chapters with nothing staged; the rest wait
   *     for a later start (the lanes handle them meanwhile). Chapters the library or staging decides are all
   *     classified, uncapped. Default 50.
   * @param delayMs pause between two source look-ups during recovery, ms. Default 200.
   */
  public record Recovery(int maxPerPass, long delayMs) {
  }

  /**
   * The built-in demo site (also switched on by {@code --demo}).
   *
   * @param enabled start the demo site on loopback, register it as source {@code demo} and add {@code title}
   * @param port its port; 0 picks a free one. Default 0.
   * @param title the demo title added (auto-confirmed) on first start. Default {@code circus-nights}.
   */
  public record Demo(boolean enabled, int port, String title) {
    @JsonCreator
    public Demo(@JsonProperty(value = "enabled", required = true) boolean enabled,
        @JsonProperty(value = "port", required = true) int port,
        @JsonProperty(value = "title", required = true) String title) {
      this.enabled = enabled;
      this.port = port;
      this.title = title;
    }
  }

  /**
   * One source.
   *
   * @param type the adapter: {@code demo} (HTML pages shaped like the demo site's), {@code html} (a site described
   *     by a definition file named in {@code options.definition}, see docs/sources.md), {@code local} (an import
   *     folder, {@code options.folder}) or {@code mangadex} (its JSON API)
   * @param baseUrl the site root, e.g. {@code http://127.0.0.1:8090}; filled in for the built-in demo site; for
   *     {@code html}, empty takes the definition's; for {@code mangadex} the API root, {@code https://api.mangadex.org}
   *     when empty; not used by {@code local}
   * @param pageDelayMs polite delay between two page fetches, ms. Default 250 (or an HTML definition's {@code pacing}).
   * @param chapterDelayMs delay between two chapters, ms. Default 1000 (or an HTML definition's {@code pacing}).
   * @param challengeMarkers case-insensitive texts that mark an HTML answer (served with 200) as an access
   *     challenge instead of content. Default {@link #DEFAULT_CHALLENGE_MARKERS}.
   * @param options adapter-specific settings (each adapter documents and validates its own keys). Default empty.
   * @param defaulted the keys among {@code pageDelayMs} and {@code chapterDelayMs} that the configuration left out
   *     and that hold the built-in default, so that a source type with its own defaults (an HTML definition's
   *     pacing) may replace them. Empty for a source built in code.
   * @param validation how its pages are checked: {@code structure} (default: the format's structure walked to its
   *     end, no decode) or {@code decode} (that, then a full decode on a pool sized to the cores). Any other word is
   *     refused at start-up ({@link io.mangacircus.scraper.source.SourceTypes#check}).
   * @param proxy its own outbound proxy ({@link ProxyConfig#none()}: none even though {@code scraper.proxy} is set);
   *     null takes {@code scraper.proxy}
   */
  public record SourceConfig(String type, String baseUrl, long pageDelayMs, long chapterDelayMs,
      java.util.List<String> challengeMarkers, Map<String, Object> options, java.util.Set<String> defaulted,
      String validation, ProxyConfig proxy) {

    public SourceConfig {
      challengeMarkers = java.util.List.copyOf(challengeMarkers);
      options = options == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(options));
      defaulted = defaulted == null ? java.util.Set.of() : java.util.Set.copyOf(defaulted);
      validation = validation == null ? PageValidator.Mode.STRUCTURE.wire() : validation;
    }

    /** A source of its own settings taking {@code scraper.proxy}. */
    public SourceConfig(String type, String baseUrl, long pageDelayMs, long chapterDelayMs,
        java.util.List<String> challengeMarkers, Map<String, Object> options, java.util.Set<String> defaulted,
        String validation) {
      this(type, baseUrl, pageDelayMs, chapterDelayMs, challengeMarkers, options, defaulted, validation, null);
    }

    /** A source with the default page validation. */
    public SourceConfig(String type, String baseUrl, long pageDelayMs, long chapterDelayMs,
        java.util.List<String> challengeMarkers, Map<String, Object> options, java.util.Set<String> defaulted) {
      this(type, baseUrl, pageDelayMs, chapterDelayMs, challengeMarkers, options, defaulted, null);
    }

    /** A source whose every value was chosen (nothing defaulted). */
    public SourceConfig(String type, String baseUrl, long pageDelayMs, long chapterDelayMs,
        java.util.List<String> challengeMarkers, Map<String, Object> options) {
      this(type, baseUrl, pageDelayMs, chapterDelayMs, challengeMarkers, options, java.util.Set.of());
    }

    /** The same source with its pages checked in {@code validation} mode (null: the default); this one if unchanged. */
    public SourceConfig withValidation(String validation) {
      if (this.validation.equals(validation == null ? PageValidator.Mode.STRUCTURE.wire() : validation)) {
        return this;
      }
      return new SourceConfig(type, baseUrl, pageDelayMs, chapterDelayMs, challengeMarkers, options, defaulted,
          validation, proxy);
    }

    /** The same source with {@code proxy} as its own proxy (null: {@code scraper.proxy}); this one if unchanged. */
    public SourceConfig withProxy(ProxyConfig proxy) {
      if (java.util.Objects.equals(this.proxy, proxy)) {
        return this;
      }
      return new SourceConfig(type, baseUrl, pageDelayMs, chapterDelayMs, challengeMarkers, options, defaulted,
          validation, proxy);
    }

    /**
     * How its pages are checked.
     *
     * @throws IllegalStateException for a word that start-up would have refused
     */
    public PageValidator.Mode validationMode() {
      return PageValidator.Mode.of(validation).orElseThrow(() -> new IllegalStateException("validation \""
          + validation + "\" is not structure or decode"));
    }

    /** Markers of the common bot-challenge pages. */
    public static final java.util.List<String> DEFAULT_CHALLENGE_MARKERS = java.util.List.of("cf-chl-",
        "challenge-platform", "just a moment...", "g-recaptcha", "h-captcha", "ddos-guard");

    @JsonCreator
    public static SourceConfig fromJson(@JsonProperty(value = "type", required = true) String type,
        @JsonProperty("baseUrl") String baseUrl,
        @JsonProperty("pageDelayMs") Long pageDelayMs,
        @JsonProperty("chapterDelayMs") Long chapterDelayMs,
        @JsonProperty("challengeMarkers") java.util.List<String> challengeMarkers,
        @JsonProperty("options") Map<String, Object> options,
        @JsonProperty("validation") String validation,
        @JsonProperty("proxy") ProxyConfig proxy) {
      java.util.Set<String> defaulted = new java.util.HashSet<>();
      if (pageDelayMs == null) {
        defaulted.add("pageDelayMs");
      }
      if (chapterDelayMs == null) {
        defaulted.add("chapterDelayMs");
      }
      return new SourceConfig(type, baseUrl == null ? "" : baseUrl, pageDelayMs == null ? 250 : pageDelayMs,
          chapterDelayMs == null ? 1000 : chapterDelayMs,
          challengeMarkers == null ? DEFAULT_CHALLENGE_MARKERS : java.util.List.copyOf(challengeMarkers), options,
          defaulted, validation, proxy);
    }

    /** As read from a source's JSON that names no proxy of its own. */
    public static SourceConfig fromJson(String type, String baseUrl, Long pageDelayMs, Long chapterDelayMs,
        java.util.List<String> challengeMarkers, Map<String, Object> options, String validation) {
      return fromJson(type, baseUrl, pageDelayMs, chapterDelayMs, challengeMarkers, options, validation, null);
    }

    /** A source with the default challenge markers and no options. */
    public SourceConfig(String type, String baseUrl, long pageDelayMs, long chapterDelayMs) {
      this(type, baseUrl, pageDelayMs, chapterDelayMs, DEFAULT_CHALLENGE_MARKERS, Map.of());
    }

    /** A source with the given challenge markers and no options. */
    public SourceConfig(String type, String baseUrl, long pageDelayMs, long chapterDelayMs,
        java.util.List<String> challengeMarkers) {
      this(type, baseUrl, pageDelayMs, chapterDelayMs, challengeMarkers, Map.of());
    }
  }
}
