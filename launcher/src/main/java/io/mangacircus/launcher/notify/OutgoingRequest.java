package io.mangacircus.launcher.notify;

import java.util.Map;

/**
 * One HTTP request to a destination, fully shaped: method, URL, headers and body. The URL and some headers carry
 * secrets, so only {@link #toString()} (which names none of them) may be logged.
 */
public record OutgoingRequest(String method, String url, Map<String, String> headers, String body) {

  public OutgoingRequest {
    headers = Map.copyOf(headers);
  }

  @Override
  public String toString() {
    return method + " <destination url> (" + (body == null ? 0 : body.length()) + " bytes)";
  }
}
