package io.mangacircus.reader.finder;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import java.util.regex.Pattern;

/**
 * The rules for what an admin sends to the title finder's routes (docs/api.md, "Finding and adding titles"): a search
 * text, a source name, a title or cover id, a result limit, a language code. Each check returns the value to use or
 * throws {@link IllegalArgumentException} with a sentence for the 400 answer. Pure rules: no Vert.x here.
 */
public final class FinderInput {

  /** Longest search text, characters after trimming (as the scraper's search request allows). */
  public static final int MAX_QUERY = 200;
  /** Results per source when the request names no limit. */
  public static final int DEFAULT_LIMIT = 20;
  /** Largest result limit per source. */
  public static final int MAX_LIMIT = 50;
  /** Longest title or cover id, characters. */
  public static final int MAX_ID = 200;

  private static final Pattern SOURCE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
  /** Segments of URL-safe characters joined by slashes (HTML sites' title ids are paths like {@code 123/name}). */
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._~:@+=-]+(/[A-Za-z0-9._~:@+=-]+)*");

  private FinderInput() {
  }

  /** The trimmed search text: 1 to {@link #MAX_QUERY} characters, no control character. */
  public static String query(String raw) {
    String query = raw == null ? "" : raw.strip();
    if (query.isEmpty()) {
      throw new IllegalArgumentException("q is required: the name to search for (e.g. ?q=starfall)");
    }
    if (query.codePointCount(0, query.length()) > MAX_QUERY) {
      throw new IllegalArgumentException("q is longer than " + MAX_QUERY + " characters");
    }
    if (query.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException("q contains a control character");
    }
    return query;
  }

  /** A source name as the scraper's configuration spells it; {@code what} names the parameter in the message. */
  public static String source(String raw, String what) {
    if (raw == null || !SOURCE.matcher(raw).matches()) {
      throw new IllegalArgumentException(what + " is not a source name (letters, digits, '.', '_' and '-', at most "
          + "64): " + shown(raw));
    }
    return raw;
  }

  /** The optional source of a search: null or blank means every source that can search. */
  public static String optionalSource(String raw) {
    return raw == null || raw.isBlank() ? null : source(raw, "source");
  }

  /**
   * A title or cover id: URL-safe characters in segments joined by single slashes, at most {@link #MAX_ID}, never a
   * {@code .} or {@code ..} segment (no way out of a folder or up a path).
   */
  public static String id(String raw, String what) {
    if (raw == null || raw.isEmpty() || raw.length() > MAX_ID || !ID.matcher(raw).matches()) {
      throw new IllegalArgumentException(what + " is not an id (letters, digits and . _ ~ : @ + = - in segments "
          + "joined by '/', at most " + MAX_ID + " characters): " + shown(raw));
    }
    for (String segment : raw.split("/")) {
      if (segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException(what + " must not contain a '" + segment + "' segment: " + shown(raw));
      }
    }
    return raw;
  }

  /** The result limit per source: absent is {@link #DEFAULT_LIMIT}, else a whole number 1..{@link #MAX_LIMIT}. */
  public static int limit(String raw) {
    if (raw == null || raw.isBlank()) {
      return DEFAULT_LIMIT;
    }
    try {
      int limit = Integer.parseInt(raw.strip());
      if (limit >= 1 && limit <= MAX_LIMIT) {
        return limit;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new IllegalArgumentException("limit must be a whole number from 1 to " + MAX_LIMIT + ": " + shown(raw));
  }

  /** A language code such as {@code en} or {@code pt-br}; null stays null (the scraper's default). */
  public static String language(Object raw) {
    if (raw == null) {
      return null;
    }
    try {
      if (raw instanceof String text) {
        return MessageFields.language("request", "language", text);
      }
    } catch (InvalidMessageException e) {
      // answered below
    }
    throw new IllegalArgumentException("language must be a language code such as \"en\" or \"pt-br\"");
  }

  /** At most 80 characters of what was sent, control characters shown as '?', for messages. */
  private static String shown(String raw) {
    if (raw == null) {
      return "(none)";
    }
    String cut = raw.length() > 80 ? raw.substring(0, 80) + "…" : raw;
    StringBuilder out = new StringBuilder("\"");
    cut.codePoints().forEach(c -> out.appendCodePoint(Character.isISOControl(c) ? '?' : c));
    return out.append('"').toString();
  }
}
