package io.mangacircus.contracts.library;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The naming rules of the library folder, shared by the scraper (which writes it) and the reader (which lists it):
 * {@code library/<series>/<chapter>/chapter.json}, staging folders {@code .staging-mcscraper-resume-<fingerprint>},
 * series-folder markers. Names are slugs: never a path separator, never {@code ..}, never a control character,
 * whatever a source sends (docs/downloads.md, "Library layout"). Pure rules: no file system here.
 */
public final class LibraryLayout {

  /** The manifest file of a published chapter. */
  public static final String CHAPTER_JSON = "chapter.json";

  /** Prefix of staging folders; anything else starting with a dot is not the scraper's. */
  public static final String STAGING_PREFIX = ".staging-mcscraper-resume-";

  /** The file in a series folder naming the title it belongs to: {@code {"source", "titleId", "series"}}. */
  public static final String SERIES_MARKER = ".mangacircus-series.json";

  /** The file in a series folder holding what the title's source says about it ({@link SourceSeriesMetadata}). */
  public static final String SOURCE_METADATA = ".mangacircus-source-metadata.json";

  private static final Pattern PREFIX = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");
  // Compiled once: startup recovery names tens of thousands of folders in a pass (docs/benchmarks.md, "Scale").
  private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern CHAPTER_NUMBER = Pattern.compile("\\d{1,6}(\\.\\d{1,3})?");
  private static final Pattern MARKS = Pattern.compile("\\p{M}");
  private static final Pattern NOT_SLUG = Pattern.compile("[^a-z0-9]+");
  private static final Pattern EDGE_DASHES = Pattern.compile("(^-+|-+$)");
  private static final Pattern TRAILING_DASHES = Pattern.compile("-+$");

  private LibraryLayout() {
  }

  /** Whether a library entry is private to the scraper (staging, markers): every name starting with a dot. */
  public static boolean isPrivate(String name) {
    return name.startsWith(".");
  }

  /**
   * Whether {@code name} is a plain file or folder name of at most {@code maxLength} characters: an ASCII letter or digit,
   * then letters, digits, {@code .}, {@code _} and {@code -} ({@code [A-Za-z0-9][A-Za-z0-9._-]{0,maxLength-1}}), checked
   * without a Matcher (a scan asks hundreds of thousands of times).
   */
  public static boolean isPlainName(String name, int maxLength) {
    if (name == null || name.isEmpty() || name.length() > maxLength || !letterOrDigit(name.charAt(0))) {
      return false;
    }
    for (int i = 1; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!letterOrDigit(c) && c != '.' && c != '_' && c != '-') {
        return false;
      }
    }
    return true;
  }

  private static boolean letterOrDigit(char c) {
    return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
  }

  /** The staging folder name of a chapter fingerprint. */
  public static String stagingName(String fingerprint) {
    if (!FINGERPRINT.matcher(fingerprint).matches()) {
      throw new IllegalArgumentException("not a fingerprint: " + fingerprint);
    }
    return STAGING_PREFIX + fingerprint;
  }

  /** Refuses a series-folder prefix that is not a short slug. */
  public static String requirePrefix(String source, String prefix) {
    if (!PREFIX.matcher(prefix).matches()) {
      throw new IllegalArgumentException("series-folder prefix of source " + source + " is not a slug: " + prefix);
    }
    return prefix;
  }

  /**
   * The folder names a title may get, in order: {@code <prefix><title>}, then {@code <prefix><title>-<source>}, then
   * {@code <prefix><title>-<source>-<first 8 hex digits of SHA-256(source NUL titleId)>}.
   */
  public static List<String> seriesCandidates(String prefix, String source, String titleId, String seriesTitle) {
    String base = prefix + slug(seriesTitle, "series");
    String withSource = base + "-" + slug(source, "source");
    return List.of(base, withSource, withSource + "-" + shortHash(source + "\u0000" + titleId));
  }

  /** {@code chapter-0012} or {@code chapter-0012.5}; falls back to the chapter id when there is no number. */
  public static String chapterSlug(String number, String chapterId) {
    String n = number == null ? "" : number.trim();
    if (CHAPTER_NUMBER.matcher(n).matches()) {
      int dot = n.indexOf('.');
      String whole = Integer.toString(Integer.parseInt(dot < 0 ? n : n.substring(0, dot)));
      return "chapter-" + "0".repeat(Math.max(0, 4 - whole.length())) + whole + (dot < 0 ? "" : n.substring(dot));
    }
    return "chapter-" + slug(n.isEmpty() ? chapterId : n, "x");
  }

  /** Lower-case ASCII letters, digits and single dashes; {@code fallback} when nothing is left. */
  public static String slug(String text, String fallback) {
    String ascii = MARKS.matcher(Normalizer.normalize(text == null ? "" : text, Normalizer.Form.NFKD)).replaceAll("");
    String slug = EDGE_DASHES.matcher(NOT_SLUG.matcher(ascii.toLowerCase(Locale.ROOT)).replaceAll("-")).replaceAll("");
    if (slug.length() > 80) {
      slug = TRAILING_DASHES.matcher(slug.substring(0, 80)).replaceAll("");
    }
    return slug.isEmpty() ? fallback : slug;
  }

  /** One digest per thread: a security-provider look-up per call was ≈ 7 % of startup recovery's samples. */
  private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  });

  private static String shortHash(String text) {
    byte[] digest = SHA_256.get().digest(text.getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(digest, 0, 4);
  }
}
