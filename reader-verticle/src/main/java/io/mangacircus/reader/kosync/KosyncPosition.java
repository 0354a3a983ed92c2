package io.mangacircus.reader.kosync;

/**
 * KOReader's position in a CBZ to and from the reader's page. For a paged document (a CBZ is one) KOReader's kosync
 * plugin sends {@code progress} as the current page number (1-based) turned into a string and {@code percentage} as
 * page / pages floored to 4 decimals, and on a pull goes to page {@code tonumber(progress)}
 * (koreader plugins/kosync.koplugin/main.lua {@code getLastProgress}, {@code getLastPercent}, {@code syncToProgress};
 * frontend/apps/reader/modules/readerpaging.lua; frontend/optmath.lua {@code roundPercent}; Komga's
 * interfaces/api/kosync/dto/DocumentProgressDto.kt: "For PDF and CBZ, contains the current page number").
 */
public final class KosyncPosition {

  private KosyncPosition() {
  }

  /**
   * The page {@code progress} names in a chapter of {@code pages} pages, brought into 1..pages (a file with more or
   * fewer pages than ours still lands on a page).
   *
   * @throws IllegalArgumentException when {@code progress} is not a page number
   */
  public static int page(String progress, int pages) {
    if (pages < 1) {
      throw new IllegalArgumentException("a chapter has at least one page");
    }
    if (progress == null) {
      throw new IllegalArgumentException("no progress");
    }
    String text = progress.trim();
    double number;
    try {
      number = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("progress '" + progress + "' is not a page number");
    }
    if (Double.isNaN(number) || Double.isInfinite(number) || !text.matches("[+-]?[0-9]+(\\.[0-9]*)?")) {
      throw new IllegalArgumentException("progress '" + progress + "' is not a page number");
    }
    long page = (long) Math.floor(number);
    return (int) Math.max(1, Math.min(pages, page));
  }

  /** KOReader's {@code progress} for a page: its number as a string. */
  public static String progress(int page) {
    return Integer.toString(page);
  }

  /** KOReader's {@code percentage} for page {@code page} of {@code pages}: the fraction read, floored to 4 decimals. */
  public static double percentage(int page, int pages) {
    if (pages < 1) {
      throw new IllegalArgumentException("a chapter has at least one page");
    }
    int clamped = Math.max(1, Math.min(pages, page));
    return Math.floor((double) clamped * 10_000 / pages) / 10_000;
  }

  /**
   * A pushed {@code percentage}: a number (or a number in a string, as the reference server's {@code tonumber}
   * takes) from 0 to 1.
   *
   * @throws IllegalArgumentException otherwise
   */
  public static double fraction(Object percentage) {
    double value;
    if (percentage instanceof Number n) {
      value = n.doubleValue();
    } else if (percentage instanceof String s) {
      try {
        value = Double.parseDouble(s.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("percentage '" + s + "' is not a number");
      }
    } else {
      throw new IllegalArgumentException("no percentage");
    }
    if (Double.isNaN(value) || value < 0 || value > 1) {
      throw new IllegalArgumentException("percentage " + value + " is not a fraction from 0 to 1");
    }
    return value;
  }
}
