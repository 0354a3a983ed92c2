package io.mangacircus.launcher.notify;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.launcher.config.NotificationsConfig;
import io.mangacircus.support.net.SameServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The Settings page's edits of notification destinations and the heartbeat, without I/O: what the config file sets
 * wins and is read-only (a saved destination cannot take a config-file destination's name; a saved heartbeat counts
 * only while the config file sets none); an edit that leaves a secret ({@code url}, {@code topic}, {@code token})
 * blank keeps the saved one, but a saved topic or token only while the url points to the same server; every value is
 * checked by the config file's own rules.
 */
public final class NotificationSettings {

  /** Why an edit was refused; nothing was changed. */
  public enum Refusal { INVALID, NOT_FOUND, READ_ONLY }

  /** An edit that was refused, with a message for the operator (never a secret). */
  public static final class Refused extends RuntimeException {
    private final Refusal reason;

    Refused(Refusal reason, String message) {
      super(message, null, false, false);
      this.reason = reason;
    }

    public Refusal reason() {
      return reason;
    }
  }

  private final NotificationsConfig fromFile;

  /** @param fromFile the {@code notifications} section of the config file */
  public NotificationSettings(NotificationsConfig fromFile) {
    this.fromFile = fromFile;
  }

  /** What applies: the config file's destinations, then the saved ones; the config file's heartbeat, else the saved. */
  public NotificationsConfig merged(SettingsFile.Saved saved) {
    List<NotificationsConfig.Destination> destinations = new ArrayList<>(fromFile.destinations());
    saved.destinations().stream().filter(d -> fromConfigFile(d.name()).isEmpty()).forEach(destinations::add);
    NotificationsConfig.Heartbeat heartbeat = fromFile.heartbeat().enabled() || saved.heartbeat() == null
        ? fromFile.heartbeat() : saved.heartbeat();
    return new NotificationsConfig(fromFile.publicUrl(), fromFile.outboxMax(), fromFile.dedupMinutes(),
        fromFile.requestTimeoutSeconds(), fromFile.retry(), heartbeat, destinations,
        fromFile.readerAlertAllowedHosts(), fromFile.enabled());
  }

  private Optional<NotificationsConfig.Destination> fromConfigFile(String name) {
    return fromFile.destinations().stream().filter(d -> d.name().equals(name)).findFirst();
  }

  /**
   * Adds the destination {@code name} or replaces the saved one of that name; in {@code body}: {@code type},
   * {@code url}, {@code topic}, {@code token} (blank or missing: keep the saved one), {@code removeToken},
   * {@code events} (missing: keep, or all for a new one), {@code maxPerHour} (missing: keep, or 30).
   */
  public SettingsFile.Saved putDestination(SettingsFile.Saved saved, String name, JsonObject body) {
    if (fromConfigFile(name).isPresent()) {
      throw new Refused(Refusal.READ_ONLY, "destination \"" + name + "\" is set in the config file "
          + "(notifications.destinations); change it there");
    }
    Optional<NotificationsConfig.Destination> old = saved.destinations().stream().filter(d -> d.name().equals(name))
        .findFirst();
    String type = text(body, "type").orElse(old.map(NotificationsConfig.Destination::type).orElse(""));
    if (!List.of("ntfy", "gotify", "webhook").contains(type)) {
      throw new Refused(Refusal.INVALID, "type must be \"ntfy\", \"gotify\" or \"webhook\"");
    }
    String url = text(body, "url").orElse(old.map(NotificationsConfig.Destination::url).orElse(""));
    if (url.isEmpty()) {
      throw new Refused(Refusal.INVALID, "url is missing: the " + ("webhook".equals(type) ? "webhook's URL"
          : "server's address, for example https://ntfy.sh"));
    }
    String topic = "ntfy".equals(type)
        ? text(body, "topic").orElse(old.map(NotificationsConfig.Destination::topic).orElse("")) : "";
    if ("ntfy".equals(type) && topic.isEmpty()) {
      throw new Refused(Refusal.INVALID, "topic is missing: an ntfy destination needs its topic");
    }
    String token = Boolean.TRUE.equals(body.getValue("removeToken")) ? ""
        : text(body, "token").orElse(old.map(NotificationsConfig.Destination::token).orElse(""));
    keptSecretsStayWithTheirServer(old.map(NotificationsConfig.Destination::url), url, type, body,
        old.map(NotificationsConfig.Destination::topic).orElse(""),
        old.map(NotificationsConfig.Destination::token).orElse(""));
    if ("gotify".equals(type) && token.isEmpty()) {
      throw new Refused(Refusal.INVALID, "token is missing: a Gotify destination needs its application token");
    }
    Set<String> events;
    if (body.getValue("events") == null) {
      events = old.map(NotificationsConfig.Destination::events).orElse(Set.copyOf(NotificationsConfig.EVENT_KINDS));
    } else if (body.getValue("events") instanceof JsonArray list) {
      events = new LinkedHashSet<>();
      for (Object kind : list) {
        if (!(kind instanceof String k) || !NotificationsConfig.EVENT_KINDS.contains(k)) {
          throw new Refused(Refusal.INVALID, "events: \"" + kind + "\" is not an event kind; the kinds are "
              + String.join(", ", NotificationsConfig.EVENT_KINDS));
        }
        events.add(k);
      }
    } else {
      throw new Refused(Refusal.INVALID, "events must be a list of event kinds");
    }
    Object rate = body.getValue("maxPerHour");
    if (rate != null && !(rate instanceof Integer)) {
      throw new Refused(Refusal.INVALID, "maxPerHour must be a whole number between 1 and 3600");
    }
    int maxPerHour = rate != null ? (Integer) rate : old.map(NotificationsConfig.Destination::maxPerHour).orElse(30);
    NotificationsConfig.Destination destination = new NotificationsConfig.Destination(name, type, url, topic, token,
        events, maxPerHour);
    List<NotificationsConfig.Destination> destinations = new ArrayList<>();
    boolean replaced = false;
    for (NotificationsConfig.Destination d : saved.destinations()) {
      if (d.name().equals(name)) {
        destinations.add(destination);
        replaced = true;
      } else {
        destinations.add(d);
      }
    }
    if (!replaced) {
      destinations.add(destination);
    }
    SettingsFile.Saved next = new SettingsFile.Saved(destinations, saved.heartbeat());
    checkEdit(next);
    return next;
  }

  /**
   * A saved topic or token is sent only to the server it was given for: an edit that points the destination at another
   * server and leaves one blank (keep it) is refused, so that it is given again (or the token removed).
   */
  private static void keptSecretsStayWithTheirServer(Optional<String> oldUrl, String url, String type,
      JsonObject body, String oldTopic, String oldToken) {
    // A url that is not an http(s) address is refused by the destination's own checks, which name the url.
    if (oldUrl.isEmpty() || !url.matches("https?://\\S+") || SameServer.as(oldUrl.get(), url)) {
      return;
    }
    if (!oldToken.isEmpty() && text(body, "token").isEmpty() && !Boolean.TRUE.equals(body.getValue("removeToken"))) {
      throw new Refused(Refusal.INVALID, "token: the url now points to another server; give the token again (or "
          + "removeToken) so that the saved one is never sent there");
    }
    if (!oldTopic.isEmpty() && "ntfy".equals(type) && text(body, "topic").isEmpty()) {
      throw new Refused(Refusal.INVALID, "topic: the url now points to another server; give the topic again so that "
          + "the saved one is never sent there");
    }
  }

  /** Removes the saved destination {@code name}. */
  public SettingsFile.Saved removeDestination(SettingsFile.Saved saved, String name) {
    if (fromConfigFile(name).isPresent()) {
      throw new Refused(Refusal.READ_ONLY, "destination \"" + name + "\" is set in the config file "
          + "(notifications.destinations); remove it there");
    }
    List<NotificationsConfig.Destination> rest = saved.destinations().stream().filter(d -> !d.name().equals(name))
        .toList();
    if (rest.size() == saved.destinations().size()) {
      throw new Refused(Refusal.NOT_FOUND, "no saved destination is named \"" + name + "\"");
    }
    return new SettingsFile.Saved(rest, saved.heartbeat());
  }

  /** Sets the heartbeat: {@code url} (blank or missing: keep the saved one), {@code intervalSeconds} (keep, or 300). */
  public SettingsFile.Saved putHeartbeat(SettingsFile.Saved saved, JsonObject body) {
    refuseWhenConfigFileHeartbeat();
    String url = text(body, "url").orElse(saved.heartbeat() == null ? "" : saved.heartbeat().url());
    if (url.isEmpty()) {
      throw new Refused(Refusal.INVALID, "url is missing: the push URL of your uptime monitor");
    }
    Object interval = body.getValue("intervalSeconds");
    if (interval != null && !(interval instanceof Integer || interval instanceof Long)) {
      throw new Refused(Refusal.INVALID, "intervalSeconds must be a whole number between 1 and 86400");
    }
    long seconds = interval != null ? ((Number) interval).longValue()
        : saved.heartbeat() == null ? 300 : saved.heartbeat().intervalSeconds();
    SettingsFile.Saved next = new SettingsFile.Saved(saved.destinations(),
        new NotificationsConfig.Heartbeat(url, seconds));
    checkEdit(next);
    return next;
  }

  /** Removes the saved heartbeat. */
  public SettingsFile.Saved removeHeartbeat(SettingsFile.Saved saved) {
    refuseWhenConfigFileHeartbeat();
    if (saved.heartbeat() == null) {
      throw new Refused(Refusal.NOT_FOUND, "no heartbeat is saved");
    }
    return new SettingsFile.Saved(saved.destinations(), null);
  }

  private void refuseWhenConfigFileHeartbeat() {
    if (fromFile.heartbeat().enabled()) {
      throw new Refused(Refusal.READ_ONLY, "the heartbeat is set in the config file (notifications.heartbeat); "
          + "change it there");
    }
  }

  private static void checkEdit(SettingsFile.Saved saved) {
    try {
      check(saved);
    } catch (InvalidConfigException e) {
      // "notifications.destinations[2].url: must be ..." becomes "url must be ...", the field the page shows.
      String key = e.key().replaceFirst("^notifications\\.(destinations\\[\\d+]\\.|heartbeat\\.)", "");
      String problem = e.getMessage().substring(e.getMessage().indexOf(e.key()) + e.key().length() + 2);
      throw new Refused(Refusal.INVALID, key + " " + problem);
    }
  }

  /** Checks saved values by the config file's rules; the first bad one throws {@link InvalidConfigException}. */
  static void check(SettingsFile.Saved saved) {
    NotificationsConfig.Heartbeat heartbeat = saved.heartbeat() == null
        ? new NotificationsConfig.Heartbeat("", 300) : saved.heartbeat();
    new NotificationsConfig("", 1, 0, 10, new NotificationsConfig.Retry(10, 2.0, 900, 20), heartbeat,
        saved.destinations(), List.of()).check();
  }

  /**
   * The Settings page's view of what applies: every secret only as {@code "set"}/{@code "none"}, each destination and
   * the heartbeat with its {@code origin} ({@code config}: read-only, {@code settings}: editable).
   */
  public JsonObject view(SettingsFile.Saved saved, String problem) {
    NotificationsConfig merged = merged(saved);
    JsonArray destinations = new JsonArray();
    merged.destinations().forEach(d -> destinations.add(new JsonObject().put("name", d.name()).put("type", d.type())
        .put("origin", fromConfigFile(d.name()).isPresent() ? "config" : "settings")
        .put("url", "set").put("topic", d.topic().isEmpty() ? null : "set")
        .put("token", d.token().isEmpty() ? "none" : "set")
        .put("events", new JsonArray(NotificationsConfig.EVENT_KINDS.stream().filter(d.events()::contains).toList()))
        .put("maxPerHour", d.maxPerHour())));
    NotificationsConfig.Heartbeat heartbeat = merged.heartbeat();
    return new JsonObject().put("v", 1).put("configured", merged.active()).put("publicUrl", merged.publicUrl())
        .put("destinations", destinations)
        .put("heartbeat", new JsonObject().put("url", heartbeat.enabled() ? "set" : "none")
            .put("intervalSeconds", heartbeat.intervalSeconds())
            .put("origin", fromFile.heartbeat().enabled() ? "config" : heartbeat.enabled() ? "settings" : null))
        .put("eventKinds", new JsonArray(NotificationsConfig.EVENT_KINDS))
        .put("settingsProblem", problem);
  }

  private static Optional<String> text(JsonObject body, String key) {
    Object value = body.getValue(key);
    if (value != null && !(value instanceof String)) {
      throw new Refused(Refusal.INVALID, key + " must be text");
    }
    String text = value == null ? "" : ((String) value).strip();
    return text.isEmpty() ? Optional.empty() : Optional.of(text);
  }
}
