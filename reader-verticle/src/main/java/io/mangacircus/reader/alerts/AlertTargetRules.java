package io.mangacircus.reader.alerts;

import io.mangacircus.reader.store.AlertTarget;
import io.mangacircus.support.net.SameServer;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * Where a reader's alerts may go: an ntfy server and topic (optional access token) or a webhook (optional bearer
 * token). An edit that leaves {@code url}, {@code topic} or {@code token} blank keeps the saved value (a topic or token
 * only while the url points to the same server); a refused value
 * throws {@link IllegalArgumentException} with a message naming the field (answered 400).
 */
final class AlertTargetRules {

  private AlertTargetRules() {
  }

  static AlertTarget edit(Optional<AlertTarget> old, JsonObject body) {
    String type = text(body, "type").orElse(old.map(AlertTarget::type).orElse(""));
    if (!type.equals("ntfy") && !type.equals("webhook")) {
      throw new IllegalArgumentException("type must be \"ntfy\" or \"webhook\"");
    }
    String url = text(body, "url").orElse(old.map(AlertTarget::url).orElse(""));
    if (url.isEmpty()) {
      throw new IllegalArgumentException("url is missing: " + (type.equals("ntfy")
          ? "the ntfy server's address, for example https://ntfy.sh" : "the webhook's URL"));
    }
    if (!url.matches("https?://[^\\s]+") || url.length() > 2000) {
      throw new IllegalArgumentException("url must be an http(s) address");
    }
    if (old.isPresent() && !SameServer.as(old.get().url(), url)) {
      // A saved secret goes only to the server it was given for: a new server gets it again, or none.
      if (!old.get().token().isEmpty() && text(body, "token").isEmpty()
          && !Boolean.TRUE.equals(body.getValue("removeToken"))) {
        throw new IllegalArgumentException("token: the url now points to another server; give the token again (or "
            + "removeToken) so that the saved one is never sent there");
      }
      if (type.equals("ntfy") && !old.get().topic().isEmpty() && text(body, "topic").isEmpty()) {
        throw new IllegalArgumentException("topic: the url now points to another server; give the topic again so "
            + "that the saved one is never sent there");
      }
    }
    String topic = type.equals("ntfy")
        ? text(body, "topic").orElse(old.map(AlertTarget::topic).orElse("")) : "";
    if (type.equals("ntfy") && !topic.matches("[A-Za-z0-9_-]{1,64}")) {
      throw new IllegalArgumentException(topic.isEmpty() ? "topic is missing: an ntfy alert needs its topic"
          : "topic must be 1-64 letters, digits, dashes or underscores");
    }
    String token = Boolean.TRUE.equals(body.getValue("removeToken")) ? ""
        : text(body, "token").orElse(old.map(AlertTarget::token).orElse(""));
    if (token.chars().anyMatch(Character::isWhitespace) || token.length() > 500) {
      throw new IllegalArgumentException("token must not contain whitespace");
    }
    return new AlertTarget(type, url, topic, token);
  }

  private static Optional<String> text(JsonObject body, String key) {
    Object value = body.getValue(key);
    if (value != null && !(value instanceof String)) {
      throw new IllegalArgumentException(key + " must be text");
    }
    String text = value == null ? "" : ((String) value).strip();
    return text.isEmpty() ? Optional.empty() : Optional.of(text);
  }
}
