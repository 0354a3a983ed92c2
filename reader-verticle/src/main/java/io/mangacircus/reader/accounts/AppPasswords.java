package io.mangacircus.reader.accounts;

import io.mangacircus.reader.store.AppPassword;
import io.mangacircus.reader.store.AppPasswordCandidate;
import io.mangacircus.reader.store.AppPasswordStore;
import io.mangacircus.reader.store.AppPasswordsEnded;
import io.mangacircus.reader.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * App passwords: named secrets a user makes for reading apps (OPDS clients), which send them with HTTP Basic. A new one
 * is shown once and stored only as a {@link PasswordHasher} hash, found again by its first {@link #LOOKUP_LENGTH}
 * characters (not secret on their own); a checked one is trusted from memory for {@link #REMEMBER} so that a page
 * stream does not cost a key derivation a page, and {@link #forgetAll} ends that at once (revocation, account changes).
 * Blocking: call {@link #create}, {@link #check} and {@link #revoke} off the event loop.
 */
public final class AppPasswords {

  /** Letters and digits without look-alikes, as in generated account passwords. */
  private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";

  /** Characters of a new app password: 4 to find it, 20 (about 115 bits) that only its hash knows. */
  public static final int LENGTH = 24;

  /** The non-secret start by which a stored app password is found. */
  public static final int LOOKUP_LENGTH = 4;

  /** How long a checked app password is trusted without deriving its hash again. */
  public static final Duration REMEMBER = Duration.ofMinutes(1);

  /** Longest name of an app password. */
  public static final int MAX_NAME = 60;

  private static final SecureRandom RANDOM = new SecureRandom();

  /** Who an accepted app password speaks for. */
  public record Access(long appPasswordId, long userId, String username) {
  }

  /** A new app password: its secret is in this value only, never stored or logged. */
  public record Created(long id, String name, String secret, Instant createdAt) {
    @Override
    public String toString() {
      return "Created[id=" + id + ", name=" + name + ", secret=<shown once>]";
    }
  }

  private record Remembered(Access access, Instant until) {
  }

  private final AppPasswordStore store;
  private final InstantSource clock;
  private final ConcurrentHashMap<String, Remembered> remembered = new ConcurrentHashMap<>();
  private final AtomicLong generation = new AtomicLong();

  public AppPasswords(AppPasswordStore store, InstantSource clock) {
    this.store = store;
    this.clock = clock;
  }

  /** Makes a new app password for a user; empty when the user already has one by that name. */
  public Optional<Created> create(long userId, String name) throws StoreException {
    String secret = newSecret();
    Instant now = clock.instant();
    return store.createAppPassword(userId, name, secret.substring(0, LOOKUP_LENGTH),
        PasswordHasher.hash(secret.toCharArray()), now).map(id -> new Created(id, name, secret, now));
  }

  /** A user's app passwords, without secrets. */
  public List<AppPassword> list(long userId) throws StoreException {
    return store.appPasswords(userId);
  }

  /**
   * The app passwords a password reset ended, while the user has made none since (the profile page says why their
   * apps stopped reading).
   */
  public Optional<AppPasswordsEnded> endedByReset(long userId, List<AppPassword> current) throws StoreException {
    return store.appPasswordsEnded(userId)
        .filter(ended -> current.stream().noneMatch(p -> !p.createdAt().isBefore(ended.at())));
  }

  /** Revokes one; it is refused from the next request on. False when the user has none by that id. */
  public boolean revoke(long userId, long id) throws StoreException {
    boolean removed = store.deleteAppPassword(userId, id);
    forgetAll();
    return removed;
  }

  /**
   * Whom {@code secret} admits as {@code username}; empty for anything else, the account's own password included (it
   * is never an app password). Records the time of use when the hash is checked.
   */
  public Optional<Access> check(String username, String secret) throws StoreException {
    if (username.isEmpty() || secret.length() != LENGTH) {
      return Optional.empty();
    }
    String key = Sessions.hash(username.toLowerCase(Locale.ROOT) + "\u0000" + secret);
    Instant now = clock.instant();
    Remembered known = remembered.get(key);
    if (known != null && now.isBefore(known.until())) {
      return Optional.of(known.access());
    }
    long asked = generation.get();
    for (AppPasswordCandidate candidate
        : store.appPasswordCandidates(username, secret.substring(0, LOOKUP_LENGTH))) {
      if (PasswordHasher.verify(secret.toCharArray(), candidate.passwordHash())) {
        Access access = new Access(candidate.id(), candidate.userId(), candidate.username());
        store.appPasswordUsed(candidate.id(), now);
        // A check that overlapped a revocation may be stale: use it once, do not remember it.
        if (generation.get() == asked) {
          if (remembered.size() > 10_000) {
            remembered.clear();
          }
          remembered.put(key, new Remembered(access, now.plus(REMEMBER)));
        }
        return Optional.of(access);
      }
    }
    return Optional.empty();
  }

  /** Counts the {@link #forgetAll} calls: a check remembered at an older count is not trusted. */
  public long generation() {
    return generation.get();
  }

  /** Nothing checked before is trusted from memory any more. */
  public void forgetAll() {
    generation.incrementAndGet();
    remembered.clear();
  }

  /** Whether {@code name} can name an app password: 1 to {@link #MAX_NAME} characters, no control characters. */
  public static boolean validName(String name) {
    return name != null && !name.isBlank() && name.length() <= MAX_NAME
        && name.chars().noneMatch(Character::isISOControl)
        && name.getBytes(StandardCharsets.UTF_8).length <= 4 * MAX_NAME;
  }

  private static String newSecret() {
    StringBuilder secret = new StringBuilder(LENGTH);
    for (int i = 0; i < LENGTH; i++) {
      secret.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
    }
    return secret.toString();
  }
}
