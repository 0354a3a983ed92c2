package io.mangacircus.contracts.rating;

import io.mangacircus.contracts.OperatorText;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A user's age limit: none, or the strictest {@link AgeRating} they may see, and whether they see unrated series.
 * Its text form, for config and JSON, is {@code none}, {@code all}, {@code 9}, {@code 12}, {@code 15} or {@code 18};
 * the unrated flag is a separate boolean beside it, off unless the admin turns it on.
 *
 * @param maximum the strictest rating allowed; null for no limit
 * @param unratedShown whether unrated series are shown; always true without a limit, since an unrestricted user
 *     sees everything
 */
public record AgeLimit(AgeRating maximum, boolean unratedShown) {

  /** No limit: every series, rated or not. */
  public static final AgeLimit NONE = new AgeLimit(null, true);

  private static final String FORMS = "none, all, 9, 12, 15 or 18";

  /** @throws IllegalArgumentException when {@code maximum} is {@link AgeRating#UNRATED}, which is not a level */
  public AgeLimit {
    if (maximum == AgeRating.UNRATED) {
      throw new IllegalArgumentException("an age limit's maximum is a level, not unrated");
    }
    if (maximum == null) {
      unratedShown = true;
    }
  }

  /** A limit at {@code maximum}, unrated series hidden (the default). */
  public static AgeLimit atMost(AgeRating maximum) {
    return new AgeLimit(Objects.requireNonNull(maximum, "maximum"), false);
  }

  /** This limit with unrated series shown or hidden; no limit stays no limit. */
  public AgeLimit withUnratedShown(boolean shown) {
    return new AgeLimit(maximum, shown);
  }

  /** Whether this limit hides anything. */
  public boolean restricted() {
    return maximum != null;
  }

  /** Whether a series rated {@code rating} is shown: a level up to the maximum, unrated by the flag. */
  public boolean allows(AgeRating rating) {
    if (maximum == null) {
      return true;
    }
    return rating.rated() ? rating.atMost(maximum) : unratedShown;
  }

  /** The text form: {@code none} or the maximum's code ({@code all}, {@code 9}, {@code 12}, {@code 15}, {@code 18}). */
  public String text() {
    return maximum == null ? "none" : maximum.code();
  }

  /**
   * Reads a text form (case and surrounding spaces ignored; {@code 12+} and {@code all ages} accepted too), unrated
   * series hidden; bad input is an {@link Invalid} saying what is accepted, never an exception.
   */
  public static Parsed parse(String text) {
    if (text == null || text.isBlank()) {
      return new Invalid("age limit is empty; use one of " + FORMS);
    }
    if (text.strip().toLowerCase(Locale.ROOT).equals("none")) {
      return new Valid(NONE);
    }
    Optional<AgeRating> rating = AgeRating.fromCode(text).filter(AgeRating::rated);
    return rating.<Parsed>map(r -> new Valid(atMost(r)))
        .orElseGet(() -> new Invalid("age limit " + quoted(text.strip()) + " is not one of " + FORMS));
  }

  /** The text in quotes when it is short and clean; messages reach logs, so control characters are not echoed. */
  private static String quoted(String text) {
    return text.length() <= 40 && OperatorText.firstForbidden(text, false).isEmpty() ? "'" + text + "'" : "given";
  }

  /** What {@link #parse} made of a text. */
  public sealed interface Parsed permits Valid, Invalid {
  }

  /** The text named {@code limit}. */
  public record Valid(AgeLimit limit) implements Parsed {
  }

  /** The text named no limit; {@code message} says which forms are accepted. */
  public record Invalid(String message) implements Parsed {
  }
}
