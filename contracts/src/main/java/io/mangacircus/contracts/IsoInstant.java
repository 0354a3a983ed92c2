package io.mangacircus.contracts;

import java.time.Instant;
import java.time.LocalDate;
import java.time.Year;
import java.time.format.DateTimeParseException;

/**
 * {@link Instant#parse} with a fast path for the shape {@link Instant#toString} writes ({@code 2026-12-02T13:55:29.466Z}:
 * a four-digit year, seconds, 0–9 fraction digits, {@code Z}): a library scan parses one per {@code chapter.json}, and
 * java.time's formatter built a map and a context for each (≈ 9 % of what a rescan of 100,000 chapters allocated;
 * docs/benchmarks.md#what-a-scan-allocates). Anything else, a date that does not exist included, goes to
 * {@link Instant#parse}, which decides: the two never answer apart.
 */
public final class IsoInstant {

  private IsoInstant() {
  }

  /**
   * The instant {@code text} names.
   *
   * @throws DateTimeParseException as {@link Instant#parse} does
   */
  public static Instant parse(CharSequence text) {
    Instant fast = fast(text);
    return fast != null ? fast : Instant.parse(text);
  }

  /** The instant of the usual shape, or null when {@code text} is not of it exactly. */
  static Instant fast(CharSequence text) {
    int length = text.length();
    if (length < 20 || length > 30 || length == 21 || text.charAt(length - 1) != 'Z' || text.charAt(4) != '-'
        || text.charAt(7) != '-' || text.charAt(10) != 'T' || text.charAt(13) != ':' || text.charAt(16) != ':') {
      return null;
    }
    int year = digits(text, 0, 4);
    int month = digits(text, 5, 2);
    int day = digits(text, 8, 2);
    int hour = digits(text, 11, 2);
    int minute = digits(text, 14, 2);
    int second = digits(text, 17, 2);
    if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59
        || second < 0 || second > 59 || day > java.time.Month.of(month).length(Year.isLeap(year))) {
      return null;
    }
    int nanos = 0;
    if (length > 20) {
      if (text.charAt(19) != '.') {
        return null;
      }
      int fraction = length - 21;
      int value = digits(text, 20, fraction);
      if (value < 0) {
        return null;
      }
      nanos = value;
      for (int i = fraction; i < 9; i++) {
        nanos *= 10;
      }
    }
    long days = LocalDate.of(year, month, day).toEpochDay();
    return Instant.ofEpochSecond(days * 86_400 + hour * 3_600L + minute * 60L + second, nanos);
  }

  /** The value of {@code count} decimal digits at {@code from}, or -1 when one is not a digit. */
  private static int digits(CharSequence text, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
