package io.mangacircus.reader.accounts;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Slows down guessing (passwords, app passwords, bearer tokens), counting each attempt when it begins so that
 * attempts sent at once are counted before any is checked. Two keys: one client address with one user name is locked
 * out after {@code maxFailures} failures within the window; one client address over all user names gets a delay that
 * doubles with each attempt past {@link #ADDRESS_FREE_ATTEMPTS}. Failures from one address never lock a user out for
 * other addresses, so nobody can keep another reader (or {@code admin}) out. A success forgets that address's failures
 * for that user.
 */
public final class LoginThrottle {

  /** Failures one address may have within the window, over all user names, before its delay starts. */
  public static final int ADDRESS_FREE_ATTEMPTS = 10;

  /** The first delay of an address past its free attempts; each further attempt doubles it. */
  public static final Duration ADDRESS_FIRST_DELAY = Duration.ofSeconds(1);

  /** The longest delay of an address. */
  public static final Duration ADDRESS_MAX_DELAY = Duration.ofMinutes(5);

  /** Keys kept before expired ones are swept (an address's record lives one window at most). */
  private static final int SWEEP_ABOVE = 10_000;

  /** One attempt begun: admitted when {@code retryAfter} is zero (and then counted), else refused for that long. */
  public record Attempt(String client, String user, Instant at, Duration retryAfter) {

    /** Whether the attempt may be checked now. */
    public boolean admitted() {
      return retryAfter.isZero();
    }
  }

  private final int maxFailures;
  private final Duration window;
  private final InstantSource clock;
  private final Map<String, Deque<Instant>> attempts = new HashMap<>();

  public LoginThrottle(int maxFailures, Duration window, InstantSource clock) {
    this.maxFailures = maxFailures;
    this.window = window;
    this.clock = clock;
  }

  /** How long {@code client} must wait before trying {@code user} again; zero when it may try now. */
  public synchronized Duration waitFor(String client, String user) {
    Instant now = clock.instant();
    return max(pairWait(pairKey(client, user), now), addressWait(addressKey(client), now));
  }

  /**
   * Begins an attempt: when admitted it is counted at once, as a failure until {@link #succeeded} or
   * {@link #abandoned} says otherwise; when refused nothing is counted.
   */
  public synchronized Attempt begin(String client, String user) {
    Instant now = clock.instant();
    Duration wait = waitFor(client, user);
    if (wait.isZero()) {
      sweepIfLarge(now);
      attempts.computeIfAbsent(pairKey(client, user), k -> new ArrayDeque<>()).addLast(now);
      attempts.computeIfAbsent(addressKey(client), k -> new ArrayDeque<>()).addLast(now);
    }
    return new Attempt(client, user, now, wait);
  }

  /** The attempt failed: it stays counted (it was counted when it began). */
  public void failed(Attempt attempt) {
    // Counted by begin already; kept as a call so that every attempt visibly ends one way.
  }

  /** The attempt succeeded: it is not counted, and that address's failures for that user are forgotten. */
  public synchronized void succeeded(Attempt attempt) {
    attempts.remove(pairKey(attempt.client(), attempt.user()));
    release(addressKey(attempt.client()), attempt.at());
  }

  /** The attempt could not be checked (a database error, no room to hash): it is not counted. */
  public synchronized void abandoned(Attempt attempt) {
    release(pairKey(attempt.client(), attempt.user()), attempt.at());
    release(addressKey(attempt.client()), attempt.at());
  }

  /** Records a failure that was checked without {@link #begin} (instant checks that cannot race). */
  public synchronized void failed(String client, String user) {
    Instant now = clock.instant();
    sweepIfLarge(now);
    attempts.computeIfAbsent(pairKey(client, user), k -> new ArrayDeque<>()).addLast(now);
    attempts.computeIfAbsent(addressKey(client), k -> new ArrayDeque<>()).addLast(now);
  }

  private Duration pairWait(String key, Instant now) {
    Deque<Instant> recent = recent(key, now);
    if (recent == null || recent.size() < maxFailures) {
      return Duration.ZERO;
    }
    return positive(Duration.between(now, recent.peekFirst().plus(window)));
  }

  private Duration addressWait(String key, Instant now) {
    Deque<Instant> recent = recent(key, now);
    if (recent == null || recent.size() < ADDRESS_FREE_ATTEMPTS) {
      return Duration.ZERO;
    }
    int past = recent.size() - ADDRESS_FREE_ATTEMPTS;
    Duration delay = past >= 20 ? ADDRESS_MAX_DELAY : min(ADDRESS_FIRST_DELAY.multipliedBy(1L << past),
        ADDRESS_MAX_DELAY);
    return positive(Duration.between(now, recent.peekLast().plus(delay)));
  }

  /** The key's attempts within the window, the older ones dropped; null when none are left. */
  private Deque<Instant> recent(String key, Instant now) {
    Deque<Instant> recent = attempts.get(key);
    if (recent == null) {
      return null;
    }
    Instant horizon = now.minus(window);
    while (!recent.isEmpty() && !recent.peekFirst().isAfter(horizon)) {
      recent.removeFirst();
    }
    if (recent.isEmpty()) {
      attempts.remove(key);
      return null;
    }
    return recent;
  }

  private void release(String key, Instant at) {
    Deque<Instant> recent = attempts.get(key);
    if (recent != null) {
      recent.removeLastOccurrence(at);
      if (recent.isEmpty()) {
        attempts.remove(key);
      }
    }
  }

  private void sweepIfLarge(Instant now) {
    if (attempts.size() > SWEEP_ABOVE) {
      Instant horizon = now.minus(window);
      attempts.values().removeIf(recent -> recent.isEmpty() || !recent.peekLast().isAfter(horizon));
    }
  }

  private static String pairKey(String client, String user) {
    return "pair:" + client + "\u0000" + user;
  }

  private static String addressKey(String client) {
    return "address:" + client;
  }

  private static Duration positive(Duration d) {
    return d.isNegative() ? Duration.ZERO : d;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
