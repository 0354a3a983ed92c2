package io.mangacircus.scraper.source;

import java.net.URI;
import java.time.Instant;
import java.util.Optional;

/**
 * One chapter as a source lists it.
 *
 * @param id the source's chapter id
 * @param number the chapter number as written ("12", "12.5")
 * @param title chapter title, may be empty
 * @param language language code ("en")
 * @param readableAt when the source makes it readable, if that is still ahead (a scheduled chapter), else null
 * @param externalUrl where the chapter is hosted when the source only links to it (nothing to download), else null
 */
public record ChapterInfo(String id, String number, String title, String language, Instant readableAt,
    String externalUrl) {

  /** A chapter the source serves now. */
  public ChapterInfo(String id, String number, String title, String language) {
    this(id, number, title, language, null, null);
  }

  /**
   * Why the chapter cannot be downloaded at {@code now}: "external, not downloadable: host" for a chapter hosted
   * elsewhere, "scheduled: readable from …" for one the source releases later; empty when it can be.
   */
  public Optional<String> notDownloadable(Instant now) {
    if (externalUrl != null && !externalUrl.isBlank()) {
      return Optional.of("external, not downloadable: " + host(externalUrl));
    }
    if (readableAt != null && readableAt.isAfter(now)) {
      return Optional.of("scheduled: readable from " + readableAt);
    }
    return Optional.empty();
  }

  private static String host(String url) {
    try {
      String host = URI.create(url.trim()).getHost();
      return host == null ? url.trim() : host;
    } catch (IllegalArgumentException e) {
      return url.trim();
    }
  }
}
