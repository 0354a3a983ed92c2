package io.mangacircus.launcher.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.mangacircus.contracts.InvalidConfigException;
import java.util.List;
import java.util.Set;

/**
 * Where the operator's notifications go and how they are delivered ({@code docs/notifications.md}). Nothing is
 * configured by default: with no destination and no heartbeat URL the process opens no outbound connection.
 *
 * @param publicUrl the address readers and operators use for this instance (for example
 *     {@code https://manga.example.org}); messages link to the console page there. Empty: no links (default empty)
 * @param outboxMax deliveries kept waiting at most; beyond it the oldest is dropped and counted in
 *     {@code mc_notifications_dropped_total} (default 500)
 * @param dedupMinutes the same event key within this window is sent once, repeats are counted (default 15)
 * @param requestTimeoutSeconds how long one delivery or heartbeat request may take, s (default 10)
 * @param retry backoff of failed deliveries
 * @param heartbeat the dead-man's switch
 * @param destinations where messages go (default none)
 * @param readerAlertAllowedHosts hosts that readers' own alert targets may name although they are, or resolve to, a
 *     loopback, private, link-local or otherwise internal address; host names or IP addresses as written in the
 *     target's URL, without scheme, port or path. Other reader targets must resolve only to public addresses, when
 *     saved and again at every send. The operator's destinations are never restricted (default none)
 * @param enabled whether this process sends what the cluster's events call for: the operator's notifications, the
 *     heartbeat and readers' new-chapter alerts (default true). With several readers, all but one set it false, or
 *     each would send them. False still checks this reader's users' alert targets and sends the notices that arise on
 *     this reader (a tracker sign-in to renew), which no other process sends
 */
public record NotificationsConfig(String publicUrl, int outboxMax, long dedupMinutes, long requestTimeoutSeconds,
    Retry retry, Heartbeat heartbeat, List<Destination> destinations, List<String> readerAlertAllowedHosts,
    @JsonProperty(required = false) Boolean enabled) {

  /** Every event kind a destination may receive, as written in the config. */
  public static final List<String> EVENT_KINDS = List.of("incident", "repair-required", "circuit", "quarantined",
      "corrupt-state", "memory-yield", "new-chapters");

  /** A host name or dotted IPv4 address, optionally with a final dot. */
  private static final String HOST_NAME = "(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
      + "(\\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\\.?";

  /** An IPv6 address (at least two colons, unlike a host with a port), with or without brackets. */
  private static final String IPV6 = "\\[?[0-9A-Fa-f.]*:[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*]?";

  public NotificationsConfig {
    publicUrl = publicUrl == null ? "" : publicUrl.replaceAll("/+$", "");
    destinations = destinations == null ? List.of() : List.copyOf(destinations);
    readerAlertAllowedHosts = readerAlertAllowedHosts == null ? List.of() : List.copyOf(readerAlertAllowedHosts);
    enabled = enabled == null || enabled;
  }

  /** Sending from this process ({@code enabled} unset). */
  public NotificationsConfig(String publicUrl, int outboxMax, long dedupMinutes, long requestTimeoutSeconds,
      Retry retry, Heartbeat heartbeat, List<Destination> destinations, List<String> readerAlertAllowedHosts) {
    this(publicUrl, outboxMax, dedupMinutes, requestTimeoutSeconds, retry, heartbeat, destinations,
        readerAlertAllowedHosts, null);
  }

  /** Whether this process sends the notifications the cluster's events call for ({@code notifications.enabled}). */
  public boolean sendsEvents() {
    return enabled;
  }

  /** Checks every value's range; the first bad one throws {@link InvalidConfigException} naming its key. */
  public void check() {
    require(publicUrl.isEmpty() || publicUrl.matches("https?://[^\\s]+"), "notifications.publicUrl",
        "must be empty or an http(s) address");
    require(outboxMax >= 1 && outboxMax <= 100_000, "notifications.outboxMax", "must be between 1 and 100000");
    require(dedupMinutes >= 0 && dedupMinutes <= 1440, "notifications.dedupMinutes", "must be between 0 and 1440");
    require(requestTimeoutSeconds >= 1 && requestTimeoutSeconds <= 120, "notifications.requestTimeoutSeconds",
        "must be between 1 and 120");
    require(retry.initialSeconds() >= 1 && retry.initialSeconds() <= 86_400, "notifications.retry.initialSeconds",
        "must be between 1 and 86400");
    require(retry.multiplier() >= 1.0 && retry.multiplier() <= 10, "notifications.retry.multiplier",
        "must be between 1.0 and 10");
    require(retry.maxSeconds() >= retry.initialSeconds() && retry.maxSeconds() <= 86_400,
        "notifications.retry.maxSeconds", "must be between notifications.retry.initialSeconds and 86400");
    require(retry.maxAttempts() >= 1 && retry.maxAttempts() <= 1000, "notifications.retry.maxAttempts",
        "must be between 1 and 1000");
    require(heartbeat.url().isEmpty() || heartbeat.url().matches("https?://[^\\s]+"), "notifications.heartbeat.url",
        "must be empty or an http(s) address");
    require(heartbeat.intervalSeconds() >= 1 && heartbeat.intervalSeconds() <= 86_400,
        "notifications.heartbeat.intervalSeconds", "must be between 1 and 86400");
    Set<String> names = new java.util.HashSet<>();
    for (int i = 0; i < destinations.size(); i++) {
      Destination d = destinations.get(i);
      String key = "notifications.destinations[" + i + "]";
      require(d.name() != null && d.name().matches("[A-Za-z0-9][A-Za-z0-9._-]{0,39}"), key + ".name",
          "must be 1-40 letters, digits, dots, dashes or underscores");
      require(names.add(d.name()), key + ".name", "\"" + d.name() + "\" is used twice");
      require(List.of("ntfy", "gotify", "webhook").contains(d.type()), key + ".type",
          "must be \"ntfy\", \"gotify\" or \"webhook\"");
      require(d.url() != null && d.url().matches("https?://[^\\s]+"), key + ".url", "must be an http(s) address");
      require(!"ntfy".equals(d.type()) || d.topic().matches("[A-Za-z0-9_-]{1,64}"), key + ".topic",
          "an ntfy destination needs a topic of 1-64 letters, digits, dashes or underscores");
      require(!"gotify".equals(d.type()) || !d.token().isBlank(), key + ".token",
          "a Gotify destination needs its application token");
      require(!d.token().chars().anyMatch(Character::isWhitespace), key + ".token", "must not contain whitespace");
      for (String event : d.events()) {
        require(EVENT_KINDS.contains(event), key + ".events", "\"" + event + "\" is not one of " + EVENT_KINDS);
      }
      require(d.maxPerHour() >= 1 && d.maxPerHour() <= 3600, key + ".maxPerHour", "must be between 1 and 3600");
    }
    for (int i = 0; i < readerAlertAllowedHosts.size(); i++) {
      String host = readerAlertAllowedHosts.get(i);
      require(host != null && (host.matches(HOST_NAME) || host.matches(IPV6)),
          "notifications.readerAlertAllowedHosts[" + i + "]", "must be a host name or an IP address, without scheme, "
              + "port or path");
    }
  }

  private static void require(boolean ok, String key, String problem) {
    if (!ok) {
      throw new InvalidConfigException(key, problem);
    }
  }

  /** Whether anything at all is configured (a destination or a heartbeat URL). */
  public boolean active() {
    return !destinations.isEmpty() || heartbeat.enabled();
  }

  /**
   * Retries of a failed delivery: initial × multiplier^(n−1), capped.
   *
   * @param initialSeconds delay before the first retry, s (default 10)
   * @param multiplier growth per failed attempt (default 2.0)
   * @param maxSeconds cap of the delay, s (default 900)
   * @param maxAttempts attempts before a delivery is given up and counted in {@code mc_notifications_failed_total}
   *     (default 20)
   */
  public record Retry(long initialSeconds, double multiplier, long maxSeconds, int maxAttempts) {
  }

  /**
   * The dead-man's switch: a GET to {@code url} every {@code intervalSeconds}, only while {@code /health/ready}
   * of this process would answer 200.
   *
   * @param url the push URL of an external monitor (healthchecks.io, Uptime Kuma push); empty = off (default).
   *     Never logged: it is a secret
   * @param intervalSeconds ping period, s (default 300)
   */
  public record Heartbeat(String url, long intervalSeconds) {
    public Heartbeat {
      url = url == null ? "" : url;
    }

    /** Whether a heartbeat URL is set. */
    public boolean enabled() {
      return !url.isBlank();
    }

    @Override
    public String toString() {
      return "Heartbeat[url=" + (enabled() ? "<set>" : "<none>") + ", intervalSeconds=" + intervalSeconds + "]";
    }
  }

  /**
   * One destination.
   *
   * @param name a short name, unique, used in logs and metrics (never the URL)
   * @param type {@code ntfy}, {@code gotify} or {@code webhook}
   * @param url ntfy or Gotify server address (for example {@code https://ntfy.sh}) or the webhook's URL; a secret
   *     for webhooks (it often carries a key), never logged
   * @param topic the ntfy topic (ntfy only)
   * @param token ntfy access token (optional, sent as {@code Authorization: Bearer}), Gotify app token (required,
   *     sent as {@code ?token=}), webhook bearer token (optional); never logged
   * @param events the event kinds it receives ({@link #EVENT_KINDS}; default all of them)
   * @param maxPerHour messages at most per rolling hour; further ones wait in the outbox (default 30)
   */
  public record Destination(String name, String type, String url, String topic, String token, Set<String> events,
      int maxPerHour) {

    public Destination {
      topic = topic == null ? "" : topic;
      token = token == null ? "" : token;
      events = events == null ? Set.copyOf(EVENT_KINDS) : Set.copyOf(events);
    }

    @JsonCreator
    public static Destination fromJson(@JsonProperty(value = "name", required = true) String name,
        @JsonProperty(value = "type", required = true) String type,
        @JsonProperty(value = "url", required = true) String url,
        @JsonProperty("topic") String topic,
        @JsonProperty("token") String token,
        @JsonProperty("events") List<String> events,
        @JsonProperty("maxPerHour") Integer maxPerHour) {
      return new Destination(name, type, url, topic, token, events == null ? null : Set.copyOf(events),
          maxPerHour == null ? 30 : maxPerHour);
    }

    @Override
    public String toString() {
      return "Destination[name=" + name + ", type=" + type + ", url=<set>, topic=" + (topic.isEmpty() ? "<none>"
          : "<set>") + ", token=" + (token.isEmpty() ? "<none>" : "<set>") + ", events=" + events + ", maxPerHour="
          + maxPerHour + "]";
    }
  }
}
