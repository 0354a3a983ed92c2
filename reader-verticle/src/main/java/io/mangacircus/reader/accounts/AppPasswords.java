package io.mangacircus.reader.accounts;

import io.mangacircus.reader.store.AppPassword;
import io.mangacircus.reader.store.AppPasswordCandidate;
import io.mangacircus.reader.store.AppPasswordStore;
import io.mangacircus.reader.store.AppPasswordsEnded;
import io.mangacircus.reader.store.AppScope;
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
 * App passwords: named secrets a user makes for reading apps (OPDS clients, the Komga source, KOReader), which send
 * them with HTTP Basic, in {@code X-API-Key}, or as KOReader's MD5 of them; each has a {@link AppScope scope}. A new
 * one is shown once and stored only as a {@link PasswordHasher} hash, found again by its first {@link #LOOKUP_LENGTH}
 * characters (not secret on their own), and as the verifier of its KOReader sync key; a checked one is trusted from
 * memory for {@link #REMEMBER} so that a page stream does not cost a key derivation a page, and {@link #forgetAll} ends
 * that at once (revocation, account changes). Blocking: call {@link #create}, the checks and {@link #revoke} off the
 * event loop.
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

  /** Who an accepted app password speaks for, and what it may do. */
  public record Access(long appPasswordId, long userId, String username, AppScope scope) {

    /** Whether this app password may move its user's reading position (scope {@code read+progress}). */
    public boolean mayMoveProgress() {
      return scope.mayMoveProgress();
    }
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
  private final AppSessions sessions = new AppSessions();
  private volatile Runnable revoked = () -> { };

  public AppPasswords(AppPasswordStore store, InstantSource clock) {
    this.store = store;
    this.clock = clock;
  }

  /** Makes a new app password for a user; empty when the user already has one by that name. */
  public Optional<Created> create(long userId, String name, AppScope scope) throws StoreException {
    String secret = newSecret();
    Instant now = clock.instant();
    return store.createAppPassword(userId, name, secret.substring(0, LOOKUP_LENGTH),
        PasswordHasher.hash(secret.toCharArray()), scope, syncKeyVerifier(md5Hex(secret)), now)
        .map(id -> new Created(id, name, secret, now));
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
    revoked.run();
    return removed;
  }

  /** Runs {@code listener} after each {@link #revoke} (the other readers are told to forget theirs). */
  void onRevoked(Runnable listener) {
    this.revoked = listener;
  }

  /**
   * Whom {@code secret} admits as {@code username}; empty for anything else, the account's own password included (it
   * is never an app password). Records the time of use when the hash is checked.
   */
  public Optional<Access> check(String username, String secret) throws StoreException {
    if (username.isEmpty() || secret.length() != LENGTH) {
      return Optional.empty();
    }
    String key = basicKey(username, secret);
    Instant now = clock.instant();
    Remembered known = remembered.get(key);
    if (known != null && now.isBefore(known.until())) {
      return Optional.of(known.access());
    }
    long asked = generation.get();
    for (AppPasswordCandidate candidate
        : store.appPasswordCandidates(username, secret.substring(0, LOOKUP_LENGTH))) {
      if (PasswordHasher.verify(secret.toCharArray(), candidate.passwordHash())) {
        return Optional.of(used(candidate, key, asked, now));
      }
    }
    return Optional.empty();
  }

  /**
   * Whom {@code secret}, sent alone ({@code X-API-Key}, as Mihon's Komga source may), admits: the app password of any
   * user whose start is the secret's and whose hash matches; empty for anything else. Records the time of use.
   */
  public Optional<Access> checkApiKey(String secret) throws StoreException {
    if (secret.length() != LENGTH) {
      return Optional.empty();
    }
    String key = apiKeyKey(secret);
    Optional<Access> known = recall(key);
    if (known.isPresent()) {
      return known;
    }
    Instant now = clock.instant();
    long asked = generation.get();
    for (AppPasswordCandidate candidate : store.appPasswordCandidates(secret.substring(0, LOOKUP_LENGTH))) {
      if (PasswordHasher.verify(secret.toCharArray(), candidate.passwordHash())) {
        return Optional.of(used(candidate, key, asked, now));
      }
    }
    return Optional.empty();
  }

  /**
   * Whom KOReader's sync credentials admit: {@code username} (any case) and {@code md5Hex}, the MD5 (hex, any case) of
   * one of that user's app passwords made with a sync key; empty for anything else, the MD5 of the account password
   * included, and for a disabled user. Records the time of use; remembered and forgotten like {@link #check}.
   */
  public Optional<Access> checkSyncKey(String username, String md5Hex) throws StoreException {
    if (username == null || username.isEmpty() || username.length() > 100 || md5Hex == null
        || !md5Hex.matches("[0-9a-fA-F]{32}")) {
      return Optional.empty();
    }
    String md5 = md5Hex.toLowerCase(Locale.ROOT);
    String key = Sessions.hash("\u0000kosync\u0000" + username.toLowerCase(Locale.ROOT) + "\u0000" + md5);
    Optional<Access> known = recall(key);
    if (known.isPresent()) {
      return known;
    }
    Instant now = clock.instant();
    long asked = generation.get();
    List<AppPasswordCandidate> found = store.appPasswordsBySyncKey(username, syncKeyVerifier(md5));
    return found.isEmpty() ? Optional.empty() : Optional.of(used(found.get(0), key, asked, now));
  }

  /**
   * Whom {@code username} and {@code secret} admit, if a check made within {@link #REMEMBER} said so; empty when it
   * must be checked ({@link #check}). Cheap and not blocking: a SHA-256 and a map lookup.
   */
  public Optional<Access> recalled(String username, String secret) {
    return username.isEmpty() || secret.length() != LENGTH ? Optional.empty() : recall(basicKey(username, secret));
  }

  /** {@link #recalled(String, String)} for an app password sent alone ({@link #checkApiKey}). */
  public Optional<Access> recalledApiKey(String secret) {
    return secret.length() != LENGTH ? Optional.empty() : recall(apiKeyKey(secret));
  }

  private static String basicKey(String username, String secret) {
    return Sessions.hash(username.toLowerCase(Locale.ROOT) + "\u0000" + secret);
  }

  private static String apiKeyKey(String secret) {
    return Sessions.hash("\u0000api-key\u0000" + secret);
  }

  /** What a check remembered under {@code key}, while it is trusted. */
  private Optional<Access> recall(String key) {
    Remembered known = remembered.get(key);
    return known != null && clock.instant().isBefore(known.until()) ? Optional.of(known.access()) : Optional.empty();
  }

  /** An accepted app password: its use recorded, remembered under {@code key} unless a forgetAll overlapped. */
  private Access used(AppPasswordCandidate candidate, String key, long asked, Instant now) throws StoreException {
    Access access = new Access(candidate.id(), candidate.userId(), candidate.username(), candidate.scope());
    store.appPasswordUsed(candidate.id(), now);
    // A check that overlapped a revocation may be stale: use it once, do not remember it.
    if (generation.get() == asked) {
      if (remembered.size() > 10_000) {
        remembered.clear();
      }
      remembered.put(key, new Remembered(access, now.plus(REMEMBER)));
    }
    return access;
  }

  /**
   * What is stored of a KOReader sync key (the lowercase MD5 hex of the secret, which KOReader sends): its SHA-256.
   * A fast hash is a sound verifier here because the secret is random with about 115 bits of entropy, beyond any
   * guessing, unlike a chosen password (which is why account passwords get a slow key derivation instead).
   */
  static String syncKeyVerifier(String md5Hex) {
    return Sessions.hash(md5Hex);
  }

  /** The lowercase hex MD5 of a secret, as KOReader computes it from the password typed into it. */
  static String md5Hex(String secret) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
          .digest(secret.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is part of every JVM", e);
    }
  }

  /** Counts the {@link #forgetAll} calls: a check remembered at an older count is not trusted. */
  public long generation() {
    return generation.get();
  }

  /** Nothing checked before is trusted from memory any more, and every reading app's session ends. */
  public void forgetAll() {
    generation.incrementAndGet();
    remembered.clear();
    sessions.forgetAll();
  }

  /** The reading apps' sessions that these app passwords opened (ended by {@link #forgetAll}). */
  public AppSessions sessions() {
    return sessions;
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
