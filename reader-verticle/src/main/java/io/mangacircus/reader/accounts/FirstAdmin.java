package io.mangacircus.reader.accounts;

import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.UserStore;
import java.time.InstantSource;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates the admin account on a first start (or when none is left), with the configured or a generated password. */
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
    users.createUser(name, PasswordHasher.hash(secret.toCharArray()), "admin", clock.instant());
    if (!generated) {
      LOG.info("[ACCOUNTS] no admin account existed: created '{}' with MANGACIRCUS_ADMIN_PASSWORD", name);
      return Optional.empty();
    }
    LOG.warn("[ACCOUNTS] created '{}' with a generated password, shown once on the console (never in the log)", name);
    return Optional.of(new NewAdminPassword(name, secret));
  }
}
