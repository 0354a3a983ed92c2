package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.contracts.InvalidConfigException;
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
 */
public record MangaDexOptions(boolean dataSaver, int feedPageSize) {

  /** The keys this adapter knows. */
  public static final Set<String> KEYS = Set.of("dataSaver", "feedPageSize");

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
    return new MangaDexOptions(dataSaver, pageSize);
  }
}
