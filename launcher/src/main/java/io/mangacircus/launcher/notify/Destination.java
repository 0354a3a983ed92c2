package io.mangacircus.launcher.notify;

import io.mangacircus.launcher.config.NotificationsConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A place notifications go, and the exact request each one becomes there ({@code docs/notifications.md}): ntfy,
 * Gotify or a generic JSON webhook.
 */
public sealed interface Destination {

  /** The destination's name from the config (never its URL). */
  String name();

  /** Whether it receives this event kind ({@code test} always). */
  boolean wants(String kind);

  /** The request that delivers {@code notification}. */
  OutgoingRequest request(Notification notification);

  /** The destination a config entry describes. */
  static Destination of(NotificationsConfig.Destination config) {
    return switch (config.type()) {
      case "ntfy" -> new Ntfy(config.name(), config.url(), config.topic(), config.token(), config.events());
      case "gotify" -> new Gotify(config.name(), config.url(), config.token(), config.events());
      case "webhook" -> new Webhook(config.name(), config.url(), config.token(), config.events());
      default -> throw new IllegalArgumentException("unknown destination type " + config.type());
    };
  }

  private static String trimSlash(String url) {
    return url.replaceAll("/+$", "");
  }

  /**
   * ntfy: {@code POST <server>/<topic>}, the message as the body, {@code Title}, {@code Priority} (1-5), {@code Tags}
   * and {@code Click} headers; {@code Authorization: Bearer <token>} when a token is set.
   */
  record Ntfy(String name, String server, String topic, String token, Set<String> events) implements Destination {

    @Override
    public boolean wants(String kind) {
      return "test".equals(kind) || events.contains(kind);
    }

    @Override
    public OutgoingRequest request(Notification n) {
      Map<String, String> headers = new LinkedHashMap<>();
      // Header values are ISO-8859-1 on the wire; ntfy documents RFC 2047 encoding for anything else.
      headers.put("Title", headerText(n.title()));
      headers.put("Priority", String.valueOf(n.priority()));
      if (!n.tags().isEmpty()) {
        headers.put("Tags", String.join(",", n.tags()));
      }
      if (!n.click().isEmpty()) {
        headers.put("Click", n.click());
      }
      if (!token.isEmpty()) {
        headers.put("Authorization", "Bearer " + token);
      }
      headers.put("Content-Type", "text/plain; charset=utf-8");
      return new OutgoingRequest("POST", trimSlash(server) + "/" + topic, headers, n.message());
    }

    static String headerText(String text) {
      boolean plain = text.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
      if (plain) {
        return text;
      }
      return "=?UTF-8?B?" + java.util.Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8)) + "?=";
    }
  }

  /**
   * Gotify: {@code POST <server>/message?token=<app token>} with JSON {@code {title, message, priority}}; priority on
   * Gotify's 0-10 scale (ntfy's 1..5 become 1, 3, 5, 7, 10), extras carry the click URL.
   */
  record Gotify(String name, String server, String token, Set<String> events) implements Destination {

    private static final int[] PRIORITY = {0, 1, 3, 5, 7, 10};

    @Override
    public boolean wants(String kind) {
      return "test".equals(kind) || events.contains(kind);
    }

    @Override
    public OutgoingRequest request(Notification n) {
      JsonObject body = new JsonObject().put("title", n.title()).put("message", n.message())
          .put("priority", PRIORITY[n.priority()]);
      if (!n.click().isEmpty()) {
        body.put("extras", new JsonObject().put("client::notification", new JsonObject()
            .put("click", new JsonObject().put("url", n.click()))));
      }
      String url = trimSlash(server) + "/message?token="
          + java.net.URLEncoder.encode(token, StandardCharsets.UTF_8);
      return new OutgoingRequest("POST", url, Map.of("Content-Type", "application/json"), body.encode());
    }
  }

  /**
   * A generic webhook: {@code POST <url>} with JSON {@code {v:1, kind, key, title, message, priority, tags, click, at,
   * repeats}}; {@code Authorization: Bearer <token>} when a token is set.
   */
  record Webhook(String name, String url, String token, Set<String> events) implements Destination {

    @Override
    public boolean wants(String kind) {
      return "test".equals(kind) || events.contains(kind);
    }

    @Override
    public OutgoingRequest request(Notification n) {
      JsonObject body = new JsonObject().put("v", 1).put("kind", n.kind()).put("key", n.key()).put("title", n.title())
          .put("message", n.message()).put("priority", n.priority()).put("tags", new JsonArray(n.tags()))
          .put("click", n.click().isEmpty() ? null : n.click()).put("at", n.at().toString())
          .put("repeats", n.repeats());
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("Content-Type", "application/json");
      if (!token.isEmpty()) {
        headers.put("Authorization", "Bearer " + token);
      }
      return new OutgoingRequest("POST", url, headers, body.encode());
    }
  }
}
