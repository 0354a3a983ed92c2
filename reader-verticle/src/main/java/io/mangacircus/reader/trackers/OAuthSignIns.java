package io.mangacircus.reader.trackers;

import io.mangacircus.reader.accounts.Sessions;
import io.mangacircus.reader.http.JsonCookie;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * Sign-ins under way with an OAuth tracker: each gets a random {@code state} and PKCE verifier bound to the user and
 * tracker that started it, carried in the browser's own cookie signed with the tracker key, which the tracker's callback
 * must bring back with that state within ten minutes. Nothing is held here, so any reader with the same key file may
 * finish a sign-in another began; a cookie altered, signed with another key, for another tracker or state, or too old
 * signs no one in.
 */
public final class OAuthSignIns {

  /** The pending sign-in's cookie (Path: that tracker's callback, HttpOnly, SameSite=Lax); never logged. */
  public static final String COOKIE = "mc_tracker_signin";

  /** How long a started sign-in may take. */
  public static final Duration LIFETIME = Duration.ofMinutes(10);

  /** How far ahead of this reader's clock another reader's start time may be (clocks of a cluster drift a little). */
  static final Duration CLOCK_SKEW = Duration.ofMinutes(1);

  /**
   * A started sign-in as the callback needs it.
   *
   * @param startedAt epoch seconds when the sign-in was started
   */
  public record Pending(long userId, String tracker, String state, String verifier, long startedAt) {
    public Pending {
      if (tracker == null || state == null || state.isEmpty() || verifier == null || verifier.isEmpty()) {
        throw new IllegalArgumentException("a pending sign-in names its tracker, state and verifier");
      }
    }

    @Override
    public String toString() {
      return "Pending[user=" + userId + ", tracker=" + tracker + ", startedAt=" + startedAt + "]";
    }
  }

  /** What a new sign-in sends the tracker, and the cookie that brings it back. */
  public record Started(String state, String verifier, String cookie) {
    @Override
    public String toString() {
      return "Started[****]";
    }
  }

  private final InstantSource clock;
  private final TrackerTokenVault vault;
  private final SecureRandom random = new SecureRandom();

  /** @param vault the tracker key's holder, which signs and checks the cookies */
  public OAuthSignIns(InstantSource clock, TrackerTokenVault vault) {
    this.clock = clock;
    this.vault = Objects.requireNonNull(vault, "vault");
  }

  /** Starts a sign-in of a user on a tracker. */
  public Started start(long userId, String tracker) {
    String state = token(32);
    // 64 random bytes in base64url: 86 characters, within PKCE's 43 to 128 (RFC 7636 §4.1)
    String verifier = token(64);
    String payload = JsonCookie.encode(new Pending(userId, tracker, state, verifier, clock.instant().getEpochSecond()));
    return new Started(state, verifier, payload + "." + vault.cookieSignature(payload));
  }

  /**
   * Ends the sign-in a callback brings back: its user and verifier when {@code cookie} is one this key signed, for
   * this tracker and this {@code state}, started less than {@link #LIFETIME} ago; empty otherwise. The caller clears
   * the cookie whatever the answer, so that a browser uses it once.
   */
  public Optional<Pending> finish(String cookie, String state, String tracker) {
    if (cookie == null || state == null || state.isEmpty()) {
      return Optional.empty();
    }
    int dot = cookie.lastIndexOf('.');
    if (dot < 0 || !vault.signedCookie(cookie.substring(0, dot), cookie.substring(dot + 1))) {
      return Optional.empty();
    }
    return JsonCookie.decode(cookie.substring(0, dot), Pending.class)
        .filter(found -> found.tracker().equals(tracker) && Sessions.same(found.state(), state) && !expired(found));
  }

  private boolean expired(Pending sign) {
    Instant now = clock.instant();
    Instant started = Instant.ofEpochSecond(sign.startedAt());
    return !now.isBefore(started.plus(LIFETIME)) || now.isBefore(started.minus(CLOCK_SKEW));
  }

  private String token(int bytes) {
    byte[] value = new byte[bytes];
    random.nextBytes(value);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
  }
}
