package io.mangacircus.reader.http;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * HTTP dates ({@code Last-Modified}) formatted once per second value and kept in a small table, so that a page answer
 * does not format the same chapter date again on every request. Keyed by the exact second: another instant (a
 * republished chapter) gets its own text. Thread-safe (entries are immutable; a lost race only formats again).
 */
public final class HttpDates {

  private static final DateTimeFormatter RFC_1123 = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);
  private static final int SLOTS = 256;

  private record Entry(long second, String text) {
  }

  private static final Entry[] TABLE = new Entry[SLOTS];

  private HttpDates() {
  }

  /** {@code instant} as an HTTP date ({@code Sun, 29 Nov 2026 10:00:00 GMT}), to the second as HTTP dates are. */
  public static String format(Instant instant) {
    long second = instant.getEpochSecond();
    int slot = (int) (second ^ (second >>> 32)) & (SLOTS - 1);
    Entry known = TABLE[slot];
    if (known != null && known.second == second) {
      return known.text;
    }
    String text = RFC_1123.format(Instant.ofEpochSecond(second));
    TABLE[slot] = new Entry(second, text);
    return text;
  }
}
