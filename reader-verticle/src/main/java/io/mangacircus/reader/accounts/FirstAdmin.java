package io.mangacircus.reader.accounts;

import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.UserStore;
import java.time.InstantSource;
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
   * @param configured the configured first password ({@code MANGACIRCUS_ADMIN_PASSWORD}); empty: generate and log it
   *     once
   */
  public static void ensure(UserStore users, String configured, InstantSource clock) throws StoreException {
    if (users.countAdmins() != 0) {
      return;
    }
    boolean generated = configured.isEmpty();
    String secret = generated ? GeneratedPassword.create() : configured;
    String name = users.user("admin").isPresent() ? "admin-" + Sessions.newToken().substring(0, 6) : "admin";
    users.createUser(name, PasswordHasher.hash(secret.toCharArray()), "admin", clock.instant());
    if (generated) {
      // The one place the password is ever written: framed, so that the operator cannot miss it.
      LOG.warn("[ACCOUNTS] no admin account existed: created '{}' with a generated password, shown below only this "
          + "once", name);
      // One log event a line: the log escapes line breaks inside an event, so a multi-line message would arrive as one
      // long line and the frame would be lost.
      GeneratedPassword.notice("first start: created the admin account", name, secret).lines()
          .forEach(line -> LOG.warn("{}", line));
    } else {
      LOG.info("[ACCOUNTS] no admin account existed: created '{}' with MANGACIRCUS_ADMIN_PASSWORD", name);
    }
  }
}
