package io.mangacircus.reader.kosync;

import io.mangacircus.reader.accounts.AppPasswords;
import io.mangacircus.reader.store.StoreException;
import java.util.Optional;

/**
 * Who a KOReader sync request is: its {@code x-auth-user} and {@code x-auth-key} (KOReader sends the MD5 hex of the
 * password typed into it, plugins/kosync.koplugin/main.lua {@code md5(password)}) checked against the user's app
 * passwords, never the account password. Blocking: called off the event loop.
 */
@FunctionalInterface
public interface KosyncAccounts {

  /** No one: every request is refused. */
  KosyncAccounts NOBODY = (username, md5Key) -> Optional.empty();

  /** The users' app passwords, by the sync key each keeps (the MD5 of its secret); its scope says whether it may push. */
  static KosyncAccounts appPasswords(AppPasswords passwords) {
    return (username, md5Key) -> passwords.checkSyncKey(username, md5Key)
        .map(access -> new Account(access.userId(), access.username(), access.mayMoveProgress()));
  }

  /**
   * The account an app password of {@code username} admits with its MD5 hex {@code md5Key}; empty when none does (no
   * such user, a disabled user, a wrong key, the account password's MD5).
   */
  Optional<Account> check(String username, String md5Key) throws StoreException;

  /**
   * An admitted account.
   *
   * @param mayMoveProgress whether the app password's scope lets it move reading positions ({@code read+progress});
   *     one that may only read may pull but not push
   */
  record Account(long userId, String username, boolean mayMoveProgress) {
  }
}
