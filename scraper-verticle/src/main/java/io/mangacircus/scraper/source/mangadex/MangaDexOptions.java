package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.contracts.InvalidConfigException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code options} of a {@code mangadex} source ({@code docs/sources.md}). Unknown keys and wrong types are refused
 * with the key's full name.
 *
 * @param dataSaver fetch the re-compressed, smaller "data saver" images ({@code /data-saver/}) instead of the
 *     originals ({@code /data/}). Default false.
 * @param feedPageSize chapters asked for per feed request, 1–500 (the API's maximum). Default 500: fewer requests.
 * @param atHomeLimit the server's published limit of {@code /at-home/server} look-ups per {@code atHomeWindowSeconds}
 *     (MangaDex: 40); the adapter keeps one under it. 2–1000.
 * @param atHomeWindowSeconds the rolling window of that limit in seconds (MangaDex: 60), 1–3600; only a server with
 *     other rules (a test's fake) needs another.
 * @param contentRatings the content ratings a title search asks for ({@code safe}, {@code suggestive}, {@code erotica},
 *     {@code pornographic}). Default safe and suggestive.
 * @param uploadsUrl where covers are served ({@code {uploadsUrl}/covers/{titleId}/{file}.256.jpg}); null: MangaDex's
 *     {@code https://uploads.mangadex.org} for its own API, else the source's {@code baseUrl} (a test's fake serves
 *     both)
 */
public record MangaDexOptions(boolean dataSaver, int feedPageSize, int atHomeLimit, int atHomeWindowSeconds,
    List<String> contentRatings, String uploadsUrl) {

  /** The keys this adapter knows. */
  public static final Set<String> KEYS = Set.of("dataSaver", "feedPageSize", "atHomeLimit", "atHomeWindowSeconds",
      "contentRatings", "uploadsUrl");

  /** The content ratings MangaDex knows. */
  public static final List<String> RATINGS = List.of("safe", "suggestive", "erotica", "pornographic");

  /** The content ratings a search asks for unless configured. */
  public static final List<String> DEFAULT_RATINGS = List.of("safe", "suggestive");

  public MangaDexOptions {
    contentRatings = contentRatings == null ? DEFAULT_RATINGS : List.copyOf(contentRatings);
  }

  /** Options with the default content ratings and cover site. */
  public MangaDexOptions(boolean dataSaver, int feedPageSize, int atHomeLimit, int atHomeWindowSeconds) {
    this(dataSaver, feedPageSize, atHomeLimit, atHomeWindowSeconds, DEFAULT_RATINGS, null);
  }

  /** MangaDex's published at-home limit: 40 look-ups a minute. */
  public static final int AT_HOME_LIMIT = 40;
  public static final int AT_HOME_WINDOW_SECONDS = 60;

  /** Options with MangaDex's own at-home limit. */
  public MangaDexOptions(boolean dataSaver, int feedPageSize) {
    this(dataSaver, feedPageSize, AT_HOME_LIMIT, AT_HOME_WINDOW_SECONDS);
  }

  /** The API's largest page of a chapter feed. */
  public static final int MAX_FEED_PAGE_SIZE = 500;

  /** Every option at its default. */
  public static final MangaDexOptions DEFAULTS = new MangaDexOptions(false, MAX_FEED_PAGE_SIZE);

  /**
   * Reads and checks a source's options.
   *
   * @param keyPrefix the options' own key, e.g. {@code scraper.sources.mangadex.options}, for messages
   * @throws InvalidConfigException naming the key of an unknown or bad option
   */
  public static MangaDexOptions of(String keyPrefix, Map<String, Object> options) {
    for (String key : options.keySet()) {
      if (!KEYS.contains(key)) {
        throw new InvalidConfigException(keyPrefix + "." + key, "is not a mangadex option (known: "
            + String.join(", ", new TreeSet<>(KEYS)) + ")");
      }
    }
    boolean dataSaver = DEFAULTS.dataSaver();
    Object saver = options.get("dataSaver");
    if (saver != null) {
      if (!(saver instanceof Boolean b)) {
        throw new InvalidConfigException(keyPrefix + ".dataSaver", "must be true or false, got " + saver);
      }
      dataSaver = b;
    }
    int pageSize = DEFAULTS.feedPageSize();
    Object size = options.get("feedPageSize");
    if (size != null) {
      if (!(size instanceof Integer || size instanceof Long) || ((Number) size).longValue() < 1
          || ((Number) size).longValue() > MAX_FEED_PAGE_SIZE) {
        throw new InvalidConfigException(keyPrefix + ".feedPageSize", "must be a whole number from 1 to "
            + MAX_FEED_PAGE_SIZE + ", got " + size);
      }
      pageSize = ((Number) size).intValue();
    }
    int limit = whole(keyPrefix + ".atHomeLimit", options.get("atHomeLimit"), 2, 1000, AT_HOME_LIMIT);
    int window = whole(keyPrefix + ".atHomeWindowSeconds", options.get("atHomeWindowSeconds"), 1, 3600,
        AT_HOME_WINDOW_SECONDS);
    return new MangaDexOptions(dataSaver, pageSize, limit, window, ratings(keyPrefix + ".contentRatings",
        options.get("contentRatings")), uploadsUrl(keyPrefix + ".uploadsUrl", options.get("uploadsUrl")));
  }

  private static List<String> ratings(String key, Object value) {
    if (value == null) {
      return DEFAULT_RATINGS;
    }
    if (!(value instanceof List<?> list) || list.isEmpty()) {
      throw new InvalidConfigException(key, "must be a non-empty list of " + String.join(", ", RATINGS)
          + ", got " + value);
    }
    List<String> ratings = new java.util.ArrayList<>();
    for (Object entry : list) {
      if (!(entry instanceof String rating) || !RATINGS.contains(rating)) {
        throw new InvalidConfigException(key, "'" + entry + "' is not a MangaDex content rating (known: "
            + String.join(", ", RATINGS) + ")");
      }
      if (!ratings.contains(rating)) {
        ratings.add(rating);
      }
    }
    return List.copyOf(ratings);
  }

  private static String uploadsUrl(String key, Object value) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof String url) || !url.trim().matches("https?://[^\\s/]+(/\\S*)?")) {
      throw new InvalidConfigException(key, "must be an http(s) URL, got " + value);
    }
    String trimmed = url.trim();
    return trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
  }

  private static int whole(String key, Object value, int min, int max, int fallback) {
    if (value == null) {
      return fallback;
    }
    if (!(value instanceof Integer || value instanceof Long) || ((Number) value).longValue() < min
        || ((Number) value).longValue() > max) {
      throw new InvalidConfigException(key, "must be a whole number from " + min + " to " + max + ", got " + value);
    }
    return ((Number) value).intValue();
  }
}
