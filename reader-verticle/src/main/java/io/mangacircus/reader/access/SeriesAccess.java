package io.mangacircus.reader.access;

import io.mangacircus.contracts.rating.AgeRating;
import java.util.Objects;

/**
 * Decides whether one account sees a series, from the series' library and effective age rating: an admin sees every
 * series; anyone else a series of an allowed library whose rating their age limit allows ({@link AgeRating#UNRATED}
 * by the limit's unrated flag). Whole series are shown or hidden; there is no per-chapter rule.
 *
 * @param admin whether the account is an admin
 * @param access what the admin allowed the account (ignored for admins)
 */
public record SeriesAccess(boolean admin, UserAccess access) {

  /** Sees everything: admins, and the admin token. */
  public static final SeriesAccess EVERYTHING = new SeriesAccess(true, UserAccess.EVERYTHING);

  public SeriesAccess {
    Objects.requireNonNull(access, "access");
  }

  /** The access of an account with {@code role} ({@code admin} or {@code reader}) and its stored {@code access}. */
  public static SeriesAccess of(String role, UserAccess access) {
    return new SeriesAccess("admin".equals(role), access);
  }

  /**
   * Whether the account sees a series.
   *
   * @param library the name of the series' library
   * @param rating the series' effective rating ({@link io.mangacircus.contracts.rating.SeriesRating#decide}); null
   *     counts as {@link AgeRating#UNRATED}
   */
  public boolean sees(String library, AgeRating rating) {
    if (admin) {
      return true;
    }
    return access.allowsLibrary(library) && access.ageLimit().allows(rating == null ? AgeRating.UNRATED : rating);
  }

  /** Whether this account may see every series whatever its library and rating, so a route may skip the checks. */
  public boolean seesEverything() {
    return admin || !access.restricted();
  }
}
