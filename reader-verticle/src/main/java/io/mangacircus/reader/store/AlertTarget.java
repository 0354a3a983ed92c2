package io.mangacircus.reader.store;

/**
 * Where a user's new-chapter alerts go.
 *
 * @param type {@code ntfy} or {@code webhook}
 * @param url the ntfy server or the webhook URL
 * @param topic the ntfy topic (empty for a webhook)
 * @param token an ntfy access token or a webhook bearer token, or empty
 */
public record AlertTarget(String type, String url, String topic, String token) {
  @Override
  public String toString() {
    return "AlertTarget[type=" + type + ", url=<set>, topic=" + (topic.isEmpty() ? "<none>" : "<set>") + ", token="
        + (token.isEmpty() ? "<none>" : "<set>") + "]";
  }
}
