package io.mangacircus.contracts.library;

import java.util.Locale;

/**
 * The image files a chapter's pages are, told by their names' extensions, as the scraper's imports, the reader's
 * library and archives read in place all tell them: one table, so a type added here is served, imported and listed
 * alike.
 */
public enum PageImageType {
  JPEG("image/jpeg", true, ".jpg", ".jpeg"),
  PNG("image/png", true, ".png"),
  WEBP("image/webp", true, ".webp"),
  GIF("image/gif", true, ".gif"),
  AVIF("image/avif", true, ".avif"),
  /** Stored by the scraper for HEIF pages; not a name a folder or an archive offers as a page. */
  HEIC("image/heic", false, ".heic");

  private final String mediaType;
  private final boolean offered;
  private final String[] extensions;

  PageImageType(String mediaType, boolean offered, String... extensions) {
    this.mediaType = mediaType;
    this.offered = offered;
    this.extensions = extensions;
  }

  /** The media type of a page file by its name's extension (any case); JPEG for any other name. */
  public static String mediaType(String name) {
    PageImageType type = of(name);
    return type == null ? JPEG.mediaType : type.mediaType;
  }

  /**
   * Whether a folder or an archive offers a file of this name as a page (jpg, jpeg, png, webp, gif, avif; any case).
   */
  public static boolean isPageName(String name) {
    PageImageType type = of(name);
    return type != null && type.offered;
  }

  private static PageImageType of(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (PageImageType type : values()) {
      for (String extension : type.extensions) {
        if (lower.endsWith(extension)) {
          return type;
        }
      }
    }
    return null;
  }
}
