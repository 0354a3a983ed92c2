package io.mangacircus.reader.accounts;

import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.UserStore;
import java.time.InstantSource;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the admin account on a first start (or when none is left), with the configured or a generated password;
 * when several readers start together on one empty database, one of them makes it and the others find it made.
 */
public final class FirstAdmin {

  private static final Logger LOG = LoggerFactory.getLogger("io.mangacircus.reader.ReaderVerticle");

  private FirstAdmin() {
  }

  /**
   * Makes sure an admin exists. Blocking (a password hash: about a second of CPU).
   *
   * @param configured the configured first password ({@code MANGACIRCUS_ADMIN_PASSWORD}); empty: generate one
   * @return the account made with a generated password, for the one notice that shows it (never the log); empty when
   *     an admin existed or the configured password was used
   */
  public static Optional<NewAdminPassword> ensure(UserStore users, String configured, InstantSource clock)
      throws StoreException {
    if (users.countAdmins() != 0) {
      return Optional.empty();
    }
    boolean generated = configured.isEmpty();
    String secret = generated ? GeneratedPassword.create() : configured;
    String name = users.user("admin").isPresent() ? "admin-" + Sessions.newToken().substring(0, 6) : "admin";
    String hash = PasswordHasher.hash(secret.toCharArray());
    try {
      users.createUser(name, hash, "admin", clock.instant());
    } catch (StoreException e) {
      // Another reader on the same database made the admin while this one hashed (the name is unique): that one
      // shows its password, and this one's was never stored.
      if (users.countAdmins() != 0) {
        LOG.info("[ACCOUNTS] another reader created the first admin account at the same time; this one made none");
        return Optional.empty();
      }
      throw e;
    }
    if (!generated) {
      LOG.info("[ACCOUNTS] no admin account existed: created '{}' with MANGACIRCUS_ADMIN_PASSWORD", name);
      return Optional.empty();
    }
    LOG.warn("[ACCOUNTS] created '{}' with a generated password, shown once on the console (never in the log)", name);
    return Optional.of(new NewAdminPassword(name, secret));
  }
}
