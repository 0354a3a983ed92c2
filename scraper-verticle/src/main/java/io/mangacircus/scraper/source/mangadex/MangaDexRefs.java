package io.mangacircus.scraper.source.mangadex;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What MangaDex references mean: a title id (a UUID) or a title URL ({@code https://mangadex.org/title/<uuid>/slug}),
 * and where a page lives on a MangaDex@Home server ({@code <server>/data/<hash>/<file>} or
 * {@code <server>/data-saver/<hash>/<file>}). Pure text work: nothing here contacts anything.
 */
public final class MangaDexRefs {

  private static final String UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
  private static final Pattern BARE_ID = Pattern.compile(UUID);
  private static final Pattern TITLE_URL = Pattern.compile(
      "(?:https?://)?(?:www\\.)?mangadex\\.org/title/(" + UUID + ")(?:[/?#].*)?", Pattern.CASE_INSENSITIVE);
  private static final Pattern PAGE_URL = Pattern.compile("https?://.+/(data|data-saver)/([0-9a-zA-Z]+)/([^/?#]+)");
  private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,199}");

  /** Where a page URL points: the chapter's hash and the page's file name. */
  public record PageLocation(String hash, String file) {
  }

  private MangaDexRefs() {
  }

  /** The title id a reference names, lower-case; empty when it is neither a UUID nor a mangadex.org title URL. */
  public static Optional<String> titleId(String titleRef) {
    String ref = titleRef == null ? "" : titleRef.trim();
    if (BARE_ID.matcher(ref).matches()) {
      return Optional.of(ref.toLowerCase(Locale.ROOT));
    }
    Matcher url = TITLE_URL.matcher(ref);
    return url.matches() ? Optional.of(url.group(1).toLowerCase(Locale.ROOT)) : Optional.empty();
  }

  /** Whether {@code id} is a MangaDex id (a UUID), as chapter ids are. */
  public static boolean isId(String id) {
    return id != null && BARE_ID.matcher(id).matches();
  }

  /** Whether a page file name from an at-home answer is safe to put in a URL and a manifest. */
  public static boolean isFileName(String file) {
    return file != null && FILE_NAME.matcher(file).matches() && !file.contains("..");
  }

  /** A page's URL on an at-home server. */
  public static String pageUrl(String serverBaseUrl, boolean dataSaver, String hash, String file) {
    String base = serverBaseUrl.endsWith("/") ? serverBaseUrl.substring(0, serverBaseUrl.length() - 1) : serverBaseUrl;
    return base + (dataSaver ? "/data-saver/" : "/data/") + hash + "/" + file;
  }

  /** The hash and file name in a page URL built by {@link #pageUrl}; empty for any other URL. */
  public static Optional<PageLocation> pageLocation(String url) {
    Matcher page = PAGE_URL.matcher(url == null ? "" : url);
    return page.matches() ? Optional.of(new PageLocation(page.group(2), page.group(3))) : Optional.empty();
  }
}
