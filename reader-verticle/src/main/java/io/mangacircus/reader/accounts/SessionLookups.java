package io.mangacircus.reader.accounts;

import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.store.SessionStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Session tokens to live sessions: read from the database off the event loop and trusted from memory for
 * {@link AccessGuard#REMEMBER}, so that page images do not each cost a database read; {@link #forget} and
 * {@link #forgetAll} end that at once.
 */
final class SessionLookups {

  private final Vertx vertx;
  private final SessionStore sessions;
  private final InstantSource clock;
  private final ConcurrentHashMap<String, Remembered> remembered = new ConcurrentHashMap<>();
  private final AtomicLong generation = new AtomicLong();
  private final AtomicLong lookups = new AtomicLong();

  private record Remembered(Session session, Instant until) {
  }

  SessionLookups(Vertx vertx, SessionStore sessions, InstantSource clock) {
    this.vertx = vertx;
    this.sessions = sessions;
    this.clock = clock;
  }

  /** Bumped by every change that ends a session early (logout, an account disabled or its password changed). */
  long generation() {
    return generation.get();
  }

  /** The live session of a session token. */
  Future<Optional<Session>> lookup(String token) {
    lookups.incrementAndGet();
    String tokenHash = Sessions.hash(token);
    Instant now = clock.instant();
    Remembered known = remembered.get(tokenHash);
    if (known != null && now.isBefore(known.until()) && now.isBefore(known.session().expiresAt())) {
      return Future.succeededFuture(Optional.of(known.session()));
    }
    long asked = generation.get();
    return vertx.executeBlocking(() -> sessions.session(tokenHash, now), false).onSuccess(found -> {
      // A read that overlapped a logout or an account change may be stale: use it once, do not remember it.
      if (found.isPresent() && generation.get() == asked) {
        if (remembered.size() > 10_000) {
          remembered.clear();
        }
        remembered.put(tokenHash, new Remembered(found.get(), now.plus(AccessGuard.REMEMBER)));
      } else {
        remembered.remove(tokenHash);
      }
    });
  }

  /** Until when a session looked up now is trusted from memory: no longer than the look-up's own span. */
  Instant trustedUntil(String token) {
    Remembered known = remembered.get(Sessions.hash(token));
    return known == null ? clock.instant() : known.until();
  }

  /** How many session tokens were looked up (not admitted from what their connection remembered). */
  long lookups() {
    return lookups.get();
  }

  /** A session ended (logout): it is no longer trusted from memory. */
  void forget(String tokenHash) {
    generation.incrementAndGet();
    remembered.remove(tokenHash);
  }

  /** Accounts changed (password, disabled): every session is read from the database again. */
  void forgetAll() {
    generation.incrementAndGet();
    remembered.clear();
  }
}
