package io.mangacircus.reader.trackers;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Sign-ins under way with an OAuth tracker: each gets a random {@code state} (and PKCE verifier) bound to the user and
 * tracker that started it, which the tracker's callback must bring back within ten minutes, once. A callback with any
 * other state is forged or stale and signs no one in. Kept in memory: a restart only asks the user to click again.
 */
public final class OAuthSignIns {

  /** How long a started sign-in may take. */
  public static final Duration LIFETIME = Duration.ofMinutes(10);

  /** Sign-ins kept at most; the oldest is dropped beyond it (a user clicking "sign in" in a loop). */
  static final int MAX_PENDING = 1000;

  /** A started sign-in as the callback needs it. */
  public record Pending(long userId, String tracker, String verifier, Instant startedAt) {
    @Override
    public String toString() {
      return "Pending[user=" + userId + ", tracker=" + tracker + ", startedAt=" + startedAt + "]";
    }
  }

  /** What a new sign-in sends the tracker. */
  public record Started(String state, String verifier) {
    @Override
    public String toString() {
      return "Started[****]";
    }
  }

  private final InstantSource clock;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, Pending> pending = new LinkedHashMap<>();

  public OAuthSignIns(InstantSource clock) {
    this.clock = clock;
  }

  /** Starts a sign-in of a user on a tracker. */
  public synchronized Started start(long userId, String tracker) {
    dropExpired();
    while (pending.size() >= MAX_PENDING) {
      Iterator<String> oldest = pending.keySet().iterator();
      oldest.next();
      oldest.remove();
    }
    String state = token(32);
    // 64 random bytes in base64url: 86 characters, within PKCE's 43 to 128 (RFC 7636 §4.1)
    String verifier = token(64);
    pending.put(state, new Pending(userId, tracker, verifier, clock.instant()));
    return new Started(state, verifier);
  }

  /**
   * Ends the sign-in a callback names: its user and verifier when the state was issued for this tracker less than
   * {@link #LIFETIME} ago and not used before; empty otherwise. A state is used up by this call whatever the answer.
   */
  public synchronized Optional<Pending> finish(String state, String tracker) {
    if (state == null || state.isEmpty()) {
      return Optional.empty();
    }
    Pending found = pending.remove(state);
    if (found == null || !found.tracker().equals(tracker) || expired(found)) {
      return Optional.empty();
    }
    return Optional.of(found);
  }

  private void dropExpired() {
    pending.values().removeIf(this::expired);
  }

  private boolean expired(Pending sign) {
    return !clock.instant().isBefore(sign.startedAt().plus(LIFETIME));
  }

  private String token(int bytes) {
    byte[] value = new byte[bytes];
    random.nextBytes(value);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
  }
}
