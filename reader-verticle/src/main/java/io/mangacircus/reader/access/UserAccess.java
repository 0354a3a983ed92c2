package io.mangacircus.reader.access;

import io.mangacircus.contracts.rating.AgeLimit;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What an admin allows one account to see: every library or a list of library names, and an age limit. It says
 * nothing about admins, who see everything whatever it holds ({@link SeriesAccess}).
 *
 * @param allLibraries whether every library is allowed, those added later included
 * @param libraries the allowed library names when not {@code allLibraries} (empty then: none); sorted
 * @param ageLimit the age limit ({@link AgeLimit#NONE} for none)
 */
public record UserAccess(boolean allLibraries, Set<String> libraries, AgeLimit ageLimit) {

  /** A library's name: the downloads library's {@code downloads} or an admin's collection name. */
  public static final Pattern LIBRARY_NAME = Pattern.compile("[a-z0-9-]{1,32}");

  /** Every library, no age limit: what an account has until an admin restricts it. */
  public static final UserAccess EVERYTHING = new UserAccess(true, Set.of(), AgeLimit.NONE);

  /** @throws IllegalArgumentException on a library name of the wrong shape, or a list beside "all libraries" */
  public UserAccess {
    Objects.requireNonNull(ageLimit, "ageLimit");
    libraries = libraries == null ? Set.of() : java.util.Collections.unmodifiableSortedSet(new TreeSet<>(libraries));
    if (allLibraries && !libraries.isEmpty()) {
      throw new IllegalArgumentException("all libraries allowed: no list of libraries beside it");
    }
    for (String library : libraries) {
      if (library == null || !LIBRARY_NAME.matcher(library).matches()) {
        throw new IllegalArgumentException("a library name is 1 to 32 of a-z, 0-9 and '-'");
      }
    }
  }

  /** Every library, under {@code ageLimit}. */
  public static UserAccess allLibraries(AgeLimit ageLimit) {
    return new UserAccess(true, Set.of(), ageLimit);
  }

  /** Only {@code libraries} (none when empty), under {@code ageLimit}. */
  public static UserAccess only(Set<String> libraries, AgeLimit ageLimit) {
    return new UserAccess(false, libraries, ageLimit);
  }

  /** Whether series of {@code library} are allowed. */
  public boolean allowsLibrary(String library) {
    return allLibraries || libraries.contains(library);
  }

  /** Whether this hides anything from a non-admin. */
  public boolean restricted() {
    return !allLibraries || ageLimit.restricted();
  }
}
