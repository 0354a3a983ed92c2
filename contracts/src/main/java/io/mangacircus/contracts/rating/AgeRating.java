package io.mangacircus.contracts.rating;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The age ratings a series can carry (all ages, 9+, 12+, 15+, 18+), plus {@link #UNRATED} for a series nothing rates,
 * and how ComicInfo's {@code AgeRating}, MangaDex's {@code contentRating} and our own short codes map onto them.
 * Every reading is tolerant and total: unknown or missing input is {@link #UNRATED}, never an exception.
 */
public enum AgeRating {
  ALL_AGES("all", 0),
  NINE_PLUS("9", 9),
  TWELVE_PLUS("12", 12),
  FIFTEEN_PLUS("15", 15),
  EIGHTEEN_PLUS("18", 18),
  /** No rating known: not a level, so it is never "milder" or "stricter" than one; limits decide it by a flag. */
  UNRATED("unrated", -1);

  /*
   * ComicInfo's AgeRating enumeration (schema v2.0, unchanged in the v2.1 draft) mixes three systems: the ESRB's
   * (Early Childhood, Everyone, Everyone 10+, Teen, Mature 17+, Adults Only 18+, Rating Pending, and Kids to Adults,
   * the ESRB's name for Everyone until 1998), Australia's classification (G, PG, M, MA15+, R18+, X18+) and the
   * schema's own Unknown. A rating whose system publishes a minimum age maps to the lowest of our levels at or above
   * that age, so a limit never lets through a book its rating system keeps from readers of the limit's age.
   * Keys are normalised by key(): lower case, without spaces, hyphens or underscores.
   */
  private static final Map<String, AgeRating> COMIC_INFO = Map.ofEntries(
      // The schema's default: the file says nothing about age.
      Map.entry("unknown", UNRATED),
      // ESRB RP: submitted but not yet rated, so no rating yet.
      Map.entry("ratingpending", UNRATED),
      // ESRB eC: made for ages 3 and up, i.e. for the youngest readers.
      Map.entry("earlychildhood", ALL_AGES),
      // ESRB E: suitable for all ages.
      Map.entry("everyone", ALL_AGES),
      // ESRB K-A: the former name of E, suitable for all ages.
      Map.entry("kidstoadults", ALL_AGES),
      // Australia G: general, suitable for everyone.
      Map.entry("g", ALL_AGES),
      // Australia PG: parental guidance recommended, no age restriction; milder than any teen rating, so the first
      // level above all ages.
      Map.entry("pg", NINE_PLUS),
      // ESRB E10+: ages 10 and up; 9+ would admit nine-year-olds, so the next level.
      Map.entry("everyone10+", TWELVE_PLUS),
      // ESRB T: ages 13 and up; 12+ would admit twelve-year-olds, so the next level.
      Map.entry("teen", FIFTEEN_PLUS),
      // Australia M: recommended for ages 15 and over (ESRB's M is the separate "Mature 17+" value).
      Map.entry("m", FIFTEEN_PLUS),
      // Australia MA15+: legally restricted to ages 15 and over.
      Map.entry("ma15+", FIFTEEN_PLUS),
      // ESRB M: ages 17 and up; above 15+, so 18+.
      Map.entry("mature17+", EIGHTEEN_PLUS),
      // ESRB AO: adults only, 18 and up.
      Map.entry("adultsonly18+", EIGHTEEN_PLUS),
      // Australia R18+: restricted to adults.
      Map.entry("r18+", EIGHTEEN_PLUS),
      // Australia X18+: restricted to adults, sexually explicit.
      Map.entry("x18+", EIGHTEEN_PLUS));

  /*
   * MangaDex's contentRating values; suggestive's fan service is a teen-and-older matter on MangaDex's own scale,
   * erotica and pornographic are adult content.
   */
  private static final Map<String, AgeRating> MANGADEX = Map.of(
      "safe", ALL_AGES,
      "suggestive", FIFTEEN_PLUS,
      "erotica", EIGHTEEN_PLUS,
      "pornographic", EIGHTEEN_PLUS);

  private final String code;
  private final int minimumAge;

  AgeRating(String code, int minimumAge) {
    this.code = code;
    this.minimumAge = minimumAge;
  }

  /**
   * The short form in config, JSON and the catalog: {@code all}, {@code 9}, {@code 12}, {@code 15}, {@code 18},
   * {@code unrated}.
   */
  public String code() {
    return code;
  }

  /** Whether this is a level ({@link #UNRATED} is not). */
  public boolean rated() {
    return this != UNRATED;
  }

  /** The youngest age this level admits (0 for all ages); empty for {@link #UNRATED}. */
  public Optional<Integer> minimumAge() {
    return rated() ? Optional.of(minimumAge) : Optional.empty();
  }

  /** Whether this level is at most {@code other}: both rated and this one admits readers at least as young. */
  public boolean atMost(AgeRating other) {
    return rated() && other.rated() && minimumAge <= other.minimumAge;
  }

  /** The stricter of two ratings, a rated one winning over {@link #UNRATED}. */
  public static AgeRating stricter(AgeRating a, AgeRating b) {
    if (!a.rated()) {
      return b;
    }
    if (!b.rated()) {
      return a;
    }
    return a.minimumAge >= b.minimumAge ? a : b;
  }

  /** The level of a ComicInfo.xml {@code AgeRating} element's text (null or unknown text: {@link #UNRATED}). */
  public static AgeRating fromComicInfo(String value) {
    return value == null ? UNRATED : COMIC_INFO.getOrDefault(key(value), UNRATED);
  }

  /**
   * The ComicInfo.xml {@code AgeRating} value written for this level, one that {@link #fromComicInfo} reads back as
   * this very level: ESRB's Everyone for all ages, Australia's PG for 9+ (the only value that reads as 9+), ESRB's
   * Everyone 10+ for 12+, Australia's MA15+ for 15+ (a legal minimum of 15, where Teen means 13) and ESRB's Adults Only
   * 18+ for 18+; empty for {@link #UNRATED}, which is written as no element at all.
   */
  public Optional<String> comicInfo() {
    return switch (this) {
      case ALL_AGES -> Optional.of("Everyone");
      case NINE_PLUS -> Optional.of("PG");
      case TWELVE_PLUS -> Optional.of("Everyone 10+");
      case FIFTEEN_PLUS -> Optional.of("MA15+");
      case EIGHTEEN_PLUS -> Optional.of("Adults Only 18+");
      case UNRATED -> Optional.empty();
    };
  }

  /** The level of a MangaDex {@code contentRating} (null or unknown: {@link #UNRATED}). */
  public static AgeRating fromMangaDex(String contentRating) {
    return contentRating == null ? UNRATED : MANGADEX.getOrDefault(key(contentRating), UNRATED);
  }

  /**
   * The rating a {@link #code()} names, also written with a trailing {@code +} ({@code 12+}) or as {@code all ages};
   * empty when the text names none, so a caller can report it.
   */
  public static Optional<AgeRating> fromCode(String text) {
    if (text == null) {
      return Optional.empty();
    }
    // Only spaces are dropped here: a code is a number, and "-12" must not read as 12.
    String key = text.toLowerCase(Locale.ROOT).replaceAll("\\s+", "");
    if (key.equals("allages")) {
      return Optional.of(ALL_AGES);
    }
    String bare = key.endsWith("+") ? key.substring(0, key.length() - 1) : key;
    for (AgeRating rating : values()) {
      if (rating.code.equals(bare) && (rating.rated() || bare.equals(key))) {
        return Optional.of(rating);
      }
    }
    return Optional.empty();
  }

  /** Lower case without spaces, hyphens or underscores, so "Adults Only 18+" and "adults-only 18+" meet. */
  private static String key(String text) {
    return text.toLowerCase(Locale.ROOT).replaceAll("[\\s_-]+", "");
  }
}
