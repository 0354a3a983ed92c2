package io.mangacircus.reader.accounts;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Sessions of reading apps on the Komga API: an app password that admits a request there also gets a cookie that
 * admits the same app password's later requests, as Komga's own {@code KOMGA-SESSION} does. Mihon needs it: its Komga
 * tracker sends no credentials of its own (mihon {@code data/track/komga/KomgaApi.kt} calls with the app's shared
 * cookie jar, no authenticator), so it is let in by the cookie the Komga source's Basic login left in that jar. Kept
 * in memory only, as Komga keeps its sessions (a restart ends them: the source signs in again on its next request),
 * at most {@link #MAX} (the least recently used go first), each ended after {@link #IDLE} without use, and all of them
 * by {@link #forgetAll} (an app password revoked, an account changed). Only the hash of a cookie's token is kept.
 */
public final class AppSessions {

  /** The cookie (path {@code /}, HttpOnly, SameSite=Strict) that carries a reading app's session. */
  public static final String COOKIE = "mc_app_session";

  /** How long an unused app session lasts. */
  public static final Duration IDLE = Duration.ofDays(7);

  /** The most app sessions kept at once. */
  static final int MAX = 10_000;

  private static final SecureRandom RANDOM = new SecureRandom();

  private record Kept(AppPasswords.Access access, Instant until) {
  }

  private final Map<String, Kept> kept = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Kept> eldest) {
      return size() > MAX;
    }
  };

  /** Opens a session for an admitted app password; the token returned goes into {@link #COOKIE}. */
  public synchronized String open(AppPasswords.Access access, Instant now) {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    kept.put(Sessions.hash(token), new Kept(access, now.plus(IDLE)));
    return token;
  }

  /** The app password a session's token admits, while the session lasts (each use extends it). */
  public synchronized Optional<AppPasswords.Access> find(String token, Instant now) {
    if (token == null || token.isEmpty() || token.length() > 100) {
      return Optional.empty();
    }
    String key = Sessions.hash(token);
    Kept found = kept.get(key);
    if (found == null || !now.isBefore(found.until())) {
      kept.remove(key);
      return Optional.empty();
    }
    kept.put(key, new Kept(found.access(), now.plus(IDLE)));
    return Optional.of(found.access());
  }

  /** Ends every app session. */
  public synchronized void forgetAll() {
    kept.clear();
  }

  /** How many app sessions are kept. */
  synchronized int size() {
    return kept.size();
  }
}
