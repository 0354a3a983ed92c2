package io.mangacircus.reader.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Base64;
import java.util.Optional;

/** A record carried in a cookie as base64url JSON and read back from one; a value it cannot read is none, never a 500. */
public final class JsonCookie {

  /** Longer values are refused unread: a browser keeps at most about 4 KB per cookie anyway. */
  static final int MAX_LENGTH = 4096;

  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonCookie() {
  }

  /** The cookie value of {@code value}: its JSON, base64url without padding (no character a cookie must quote). */
  public static String encode(Object value) {
    try {
      return Base64.getUrlEncoder().withoutPadding().encodeToString(JSON.writeValueAsBytes(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a record of strings and numbers is always JSON", e);
    }
  }

  /**
   * The {@code type} a cookie value holds; empty when it is missing, too long, not base64url, not that JSON, or refused
   * by the type's own constructor.
   */
  public static <T> Optional<T> decode(String value, Class<T> type) {
    if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(JSON.readValue(Base64.getUrlDecoder().decode(value), type));
    } catch (IllegalArgumentException | IOException e) {
      return Optional.empty();
    }
  }
}
