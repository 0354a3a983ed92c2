package io.mangacircus.reader.accounts.oidc;

import io.mangacircus.reader.access.UserAccess;
import io.mangacircus.reader.accounts.PasswordHasher;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.User;
import io.mangacircus.reader.store.UserStore;
import java.time.InstantSource;
import java.util.Optional;

/**
 * Finds or creates the account a provider's identity signs in as, and brings its role and access in line with the
 * claims when those are mapped. An account disabled here stays disabled whatever the provider says; a local account is
 * taken over by a same-named identity only when {@code linkExistingAccounts} allows it. Blocking: run it on a worker.
 */
public final class SignInAccounts {

  /** How a sign-in ended. */
  public sealed interface Outcome permits SignedIn, Refused {
  }

  /**
   * The account signs in.
   *
   * @param created whether this sign-in created it
   * @param roleChanged whether the claims changed its role
   * @param accessChanged the access it now has when the claims changed it (the in-memory view must follow), else
   *     empty
   */
  public record SignedIn(User user, boolean created, boolean roleChanged, Optional<UserAccess> accessChanged) implements Outcome {
  }

  /** Refused: {@code code} for the login page, {@code reason} for the person and the log. */
  public record Refused(String code, String reason) implements Outcome {
  }

  private final UserStore users;
  private final boolean linkExisting;
  private final InstantSource clock;

  public SignInAccounts(UserStore users, boolean linkExistingAccounts, InstantSource clock) {
    this.users = users;
    this.linkExisting = linkExistingAccounts;
    this.clock = clock;
  }

  /** Signs in the identity ({@code issuer}, {@code subject}) whose claims map to {@code mapped}. */
  public Outcome signIn(String issuer, String subject, ClaimMapping.Mapped mapped) throws StoreException {
    Optional<User> linked = users.userByIdentity(issuer, subject);
    if (linked.isPresent()) {
      return existing(linked.get(), mapped);
    }
    Optional<User> sameName = users.user(mapped.username());
    if (sameName.isPresent()) {
      if (!linkExisting) {
        return new Refused("account_exists", "an account named " + sameName.get().username() + " already exists; an "
            + "admin can allow linking with reader.oidc.linkExistingAccounts");
      }
      if (sameName.get().disabled()) {
        return disabled(sameName.get());
      }
      if (!users.linkIdentity(sameName.get().id(), issuer, subject, clock.instant())) {
        return new Refused("account_exists", "the account " + sameName.get().username() + " could not be linked");
      }
      return existing(sameName.get(), mapped);
    }
    String role = mapped.role().orElse("reader");
    UserAccess access = mapped.accessFrom(UserAccess.EVERYTHING);
    long id = users.createUserWithIdentity(mapped.username(), PasswordHasher.NO_PASSWORD, role, access, issuer,
        subject, clock.instant());
    return new SignedIn(new User(id, mapped.username(), PasswordHasher.NO_PASSWORD, role, false), true, false,
        Optional.of(access));
  }

  private Outcome existing(User user, ClaimMapping.Mapped mapped) throws StoreException {
    if (user.disabled()) {
      return disabled(user);
    }
    User now = user;
    if (mapped.role().isPresent() && !mapped.role().get().equals(user.role())) {
      users.setRole(user.id(), mapped.role().get());
      now = new User(user.id(), user.username(), user.passwordHash(), mapped.role().get(), false);
    }
    Optional<UserAccess> changed = Optional.empty();
    if (mapped.setsAccess()) {
      UserAccess current = users.access(user.username()).orElse(UserAccess.EVERYTHING);
      UserAccess wanted = mapped.accessFrom(current);
      if (!wanted.equals(current)) {
        users.setAccess(user.username(), wanted);
        changed = Optional.of(wanted);
      }
    }
    return new SignedIn(now, false, now != user, changed);
  }

  private static Refused disabled(User user) {
    return new Refused("account_disabled", "the account " + user.username() + " is disabled here; an admin of this "
        + "server can enable it");
  }
}
