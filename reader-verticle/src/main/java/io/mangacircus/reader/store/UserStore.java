package io.mangacircus.reader.store;

import io.mangacircus.reader.access.UserAccess;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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

  /** The user with this id, if any. */
  Optional<User> userById(long id) throws StoreException;

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
   * A user's change of their own password: replaces its hash and ends the user's other sessions, keeping
   * {@code keptSessionHash} (the session that asked) and the app passwords (revoked one by one on the profile page), in
   * one step; false when there is no such user.
   */
  boolean changeOwnPassword(long userId, String passwordHash, String keptSessionHash) throws StoreException;

  /**
   * Disables or enables a user and ends the user's sessions, in one step. False when there is no such user.
   */
  boolean setDisabled(String username, boolean disabled) throws StoreException;

  /** What the account may see (admins see everything whatever it says); empty when there is no such user. */
  Optional<UserAccess> access(String username) throws StoreException;

  /** What every account may see, by user name as stored. */
  Map<String, UserAccess> accesses() throws StoreException;

  /** Sets what the account may see; false when there is no such user. */
  boolean setAccess(String username, UserAccess access) throws StoreException;

  /**
   * The account that an identity at a sign-in provider ({@code issuer}, {@code subject}: the ID token's {@code iss} and
   * {@code sub}) signs in as, if it was linked.
   */
  Optional<User> userByIdentity(String issuer, String subject) throws StoreException;

  /**
   * Creates an account for a provider's identity and links the two, in one step; returns the account's id.
   *
   * @param passwordHash a hash no password matches, for an account that signs in only with its provider
   * @throws StoreException when the user name or the identity is taken (nothing is then written)
   */
  long createUserWithIdentity(String username, String passwordHash, String role, UserAccess access, String issuer,
      String subject, Instant now) throws StoreException;

  /** Links a provider's identity to an existing account; false when there is no such user or it is already linked. */
  boolean linkIdentity(long userId, String issuer, String subject, Instant now) throws StoreException;

  /** Sets an account's role ({@code admin} or {@code reader}); false when there is no such user. */
  boolean setRole(long userId, String role) throws StoreException;
}
