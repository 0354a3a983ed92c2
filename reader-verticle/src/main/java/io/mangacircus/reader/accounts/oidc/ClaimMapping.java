package io.mangacircus.reader.accounts.oidc;

import io.mangacircus.contracts.rating.AgeLimit;
import io.mangacircus.reader.access.UserAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads what an ID token's claims say about the account, as {@code reader.oidc} maps them: its user name (made to fit
 * the user name rules), its role when {@code adminClaim} is set, and what it may see when {@code librariesClaim} or
 * {@code ageLimitClaim} is set. A mapping that is not configured, or a claim the token lacks, says nothing: that part
 * stays as it is here.
 */
public final class ClaimMapping {

  /** What the claims say; empty parts leave the account's own as they are. */
  public record Mapped(String username, Optional<String> role, Optional<Set<String>> libraries,
      Optional<AgeLimit> ageLimit) {

    /** {@code current} with the parts the claims set replaced. */
    public UserAccess accessFrom(UserAccess current) {
      AgeLimit limit = ageLimit.orElse(current.ageLimit());
      if (libraries.isEmpty()) {
        return new UserAccess(current.allLibraries(), current.libraries(), limit);
      }
      return libraries.get().contains(ALL) ? UserAccess.allLibraries(limit) : UserAccess.only(libraries.get(), limit);
    }

    /** Whether the claims set any part of the account's access. */
    public boolean setsAccess() {
      return libraries.isPresent() || ageLimit.isPresent();
    }
  }

  /** The libraries claim's value for every library. */
  static final String ALL = "all";

  private static final int MAX_USERNAME = 64;

  private final OidcConfig config;

  public ClaimMapping(OidcConfig config) {
    this.config = config;
  }

  /**
   * The mapped account, or empty when the token has no usable user name claim.
   *
   * @param problems where a claim value that cannot be used is described (the rest of the mapping still applies)
   */
  public Optional<Mapped> map(Map<String, Object> claims, List<String> problems) {
    Optional<String> username = username(claims.get(config.usernameClaim()));
    if (username.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> role = Optional.empty();
    if (!config.adminClaim().isEmpty()) {
      boolean admin = strings(claims.get(config.adminClaim())).stream().anyMatch(config.adminValues()::contains);
      role = Optional.of(admin ? "admin" : "reader");
    }
    Optional<Set<String>> libraries = Optional.empty();
    if (!config.librariesClaim().isEmpty() && claims.containsKey(config.librariesClaim())) {
      Set<String> names = new TreeSet<>();
      for (String value : strings(claims.get(config.librariesClaim()))) {
        String name = value.trim().toLowerCase(Locale.ROOT);
        if (name.equals(ALL) || UserAccess.LIBRARY_NAME.matcher(name).matches()) {
          names.add(name);
        } else {
          problems.add(config.librariesClaim() + ": '" + value + "' is not a library name (ignored)");
        }
      }
      libraries = Optional.of(names.contains(ALL) ? Set.of(ALL) : names);
    }
    Optional<AgeLimit> ageLimit = Optional.empty();
    if (!config.ageLimitClaim().isEmpty() && claims.get(config.ageLimitClaim()) != null) {
      String text = String.valueOf(claims.get(config.ageLimitClaim())).trim();
      if (AgeLimit.parse(text) instanceof AgeLimit.Valid valid) {
        ageLimit = Optional.of(valid.limit());
      } else {
        problems.add(config.ageLimitClaim() + ": '" + text + "' is not an age limit (kept the account's own)");
      }
    }
    return Optional.of(new Mapped(username.get(), role, libraries, ageLimit));
  }

  /**
   * The claim as a user name: letters, digits, '.', '_' and '-' kept, any other character (an e-mail's '@', a space,
   * an accented letter) made '_', at most 64 characters; empty when nothing usable is left.
   */
  static Optional<String> username(Object claim) {
    if (!(claim instanceof String text)) {
      return Optional.empty();
    }
    String safe = text.trim().replaceAll("[^A-Za-z0-9._-]", "_");
    if (safe.length() > MAX_USERNAME) {
      safe = safe.substring(0, MAX_USERNAME);
    }
    return safe.replace("_", "").isEmpty() ? Optional.empty() : Optional.of(safe);
  }

  /** A claim holding one string or a list of them (groups, roles); anything else holds none. */
  private static List<String> strings(Object claim) {
    List<String> values = new ArrayList<>();
    if (claim instanceof String one) {
      values.add(one);
    } else if (claim instanceof List<?> list) {
      list.stream().filter(String.class::isInstance).map(String.class::cast).forEach(values::add);
    }
    return values;
  }
}
