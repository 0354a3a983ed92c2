package io.mangacircus.reader.store;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Accounts and their password hashes. User names are unique regardless of case. Blocking: call it from a worker
 * thread or {@code executeBlocking}, never from an event loop.
 */
public interface UserStore {

  /** Creates an account; returns its id. */
  long createUser(String username, String passwordHash, String role, Instant now) throws StoreException;

  /** The account with this name (case-insensitive). */
  Optional<User> user(String username) throws StoreException;

  /** Accounts with the admin role that are not disabled. */
  long countAdmins() throws StoreException;

  /** Every account, by name (case-insensitive order). */
  List<Account> accounts() throws StoreException;

  /**
   * Resets a user's password: replaces its hash and ends the user's sessions and app passwords (recording when and how
   * many app passwords ended, for the user's profile page), in one step; false when there is no such user.
   */
  boolean setPassword(String username, String passwordHash, Instant now) throws StoreException;

  /**
   * Disables or enables a user and ends the user's sessions, in one step. False when there is no such user.
   */
  boolean setDisabled(String username, boolean disabled) throws StoreException;
}
