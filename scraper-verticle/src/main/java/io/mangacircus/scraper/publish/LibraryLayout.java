package io.mangacircus.scraper.publish;

import java.nio.file.Path;
import java.text.Normalizer;
import java.util.Locale;
import java.util.Map;

/**
 * Where chapters live: {@code library/<series>/<chapter>/} for published ones and
 * {@code library/.staging-mcscraper-resume-<fingerprint>/} for unfinished ones. Names are slugs: never a path
 * separator, never {@code ..}, whatever a source sends. A source may have a series-folder prefix
 * ({@code library/mangapill-<series>/}); staging folder names never change (recovery finds them by fingerprint).
 */
public final class LibraryLayout {

  /** Prefix of staging folders; anything else starting with a dot is not ours. */
  public static final String STAGING_PREFIX = ".staging-mcscraper-resume-";

  private final Path root;
  private final Map<String, String> seriesPrefixes;

  public LibraryLayout(Path root) {
    this(root, Map.of());
  }

  /**
   * @param seriesPrefixes by source name, text put before the series folder name of that source's chapters (an HTML
   *     definition's {@code seriesFolderPrefix}, e.g. {@code mangapill-}); sources without one are left out
   */
  public LibraryLayout(Path root, Map<String, String> seriesPrefixes) {
    seriesPrefixes.forEach((source, prefix) -> {
      if (!prefix.matches("[a-z0-9][a-z0-9-]{0,39}")) {
        throw new IllegalArgumentException("series-folder prefix of source " + source + " is not a slug: " + prefix);
      }
    });
    this.root = root;
    this.seriesPrefixes = Map.copyOf(seriesPrefixes);
  }

  /** {@code data/library}. */
  public Path root() {
    return root;
  }

  /** The staging folder of a chapter fingerprint. */
  public Path staging(String fingerprint) {
    if (!fingerprint.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException("not a fingerprint: " + fingerprint);
    }
    return root.resolve(STAGING_PREFIX + fingerprint);
  }

  /** The published folder of a chapter. */
  public Path chapter(ChapterKey key) {
    return series(key.source(), key.seriesTitle()).resolve(chapterSlug(key.number(), key.chapterId()));
  }

  /** The series folder for a title of a source: the source's prefix, if any, then the title's slug. */
  public Path series(String source, String seriesTitle) {
    String prefix = seriesPrefixes.getOrDefault(source, "");
    return root.resolve(prefix + slug(seriesTitle, "series"));
  }

  /** {@code chapter-0012} or {@code chapter-0012.5}; falls back to the chapter id when there is no number. */
  static String chapterSlug(String number, String chapterId) {
    String n = number == null ? "" : number.trim();
    if (n.matches("\\d{1,6}(\\.\\d{1,3})?")) {
      String[] parts = n.split("\\.");
      String whole = String.format(Locale.ROOT, "%04d", Integer.parseInt(parts[0]));
      return "chapter-" + whole + (parts.length > 1 ? "." + parts[1] : "");
    }
    return "chapter-" + slug(n.isEmpty() ? chapterId : n, "x");
  }

  /** Lower-case ASCII letters, digits and single dashes; {@code fallback} when nothing is left. */
  static String slug(String text, String fallback) {
    String ascii = Normalizer.normalize(text == null ? "" : text, Normalizer.Form.NFKD).replaceAll("\\p{M}", "");
    String slug = ascii.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-+|-+$)", "");
    if (slug.length() > 80) {
      slug = slug.substring(0, 80).replaceAll("-+$", "");
    }
    return slug.isEmpty() ? fallback : slug;
  }
}
