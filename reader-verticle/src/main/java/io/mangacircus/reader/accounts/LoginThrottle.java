package io.mangacircus.reader.accounts;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Slows down guessing (passwords, app passwords, bearer tokens), counting each attempt when it begins so that
 * attempts sent at once are counted before any is checked. Two keys: one client address with one user name is locked
 * out after {@code maxFailures} failures within the window; one client address over all user names gets a delay that
 * doubles with each attempt past {@link #ADDRESS_FREE_ATTEMPTS}. Failures from one address never lock a user out for
 * other addresses, so nobody can keep another reader (or {@code admin}) out. A success forgets that address's failures
 * for that user. With several readers, each tells the others the steps it counts ({@link #tell}) and applies theirs
 * ({@link #apply}), so that the counts are those of all the readers together.
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

  /**
   * One step of a counted attempt, as this throttle tells it to the other readers and applies theirs.
   *
   * @param at when the attempt was counted; a later step of the same attempt names the same instant
   */
  public record Step(String client, String user, Instant at, Kind kind) {
  }

  /** What a {@link Step} did: counted the attempt as a failure, or took it back as a success or as unchecked. */
  public enum Kind { BEGUN, SUCCEEDED, ABANDONED }

  private final int maxFailures;
  private final Duration window;
  private final InstantSource clock;
  private final Map<String, Deque<Instant>> attempts = new HashMap<>();
  private volatile Consumer<Step> told = step -> { };

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
   * Tells {@code listener} each step this throttle counts itself, after counting it; never the steps it
   * {@link #apply applies}. The listener must not block (it runs on the caller's thread).
   */
  public void tell(Consumer<Step> listener) {
    this.told = listener;
  }

  /**
   * Begins an attempt: when admitted it is counted at once, as a failure until {@link #succeeded} or
   * {@link #abandoned} says otherwise; when refused nothing is counted.
   */
  public Attempt begin(String client, String user) {
    Attempt attempt = count(client, user);
    if (attempt.admitted()) {
      told.accept(new Step(client, user, attempt.at(), Kind.BEGUN));
    }
    return attempt;
  }

  private synchronized Attempt count(String client, String user) {
    Instant now = clock.instant();
    Duration wait = waitFor(client, user);
    if (wait.isZero()) {
      sweepIfLarge(now);
      add(pairKey(client, user), now);
      add(addressKey(client), now);
    }
    return new Attempt(client, user, now, wait);
  }

  /** The attempt failed: it stays counted (it was counted when it began). */
  public void failed(Attempt attempt) {
    // Counted by begin already; kept as a call so that every attempt visibly ends one way.
  }

  /** The attempt succeeded: it is not counted, and that address's failures for that user are forgotten. */
  public void succeeded(Attempt attempt) {
    Step step = new Step(attempt.client(), attempt.user(), attempt.at(), Kind.SUCCEEDED);
    apply(step);
    told.accept(step);
  }

  /** The attempt could not be checked (a database error, no room to hash): it is not counted. */
  public void abandoned(Attempt attempt) {
    Step step = new Step(attempt.client(), attempt.user(), attempt.at(), Kind.ABANDONED);
    apply(step);
    told.accept(step);
  }

  /** Records a failure that was checked without {@link #begin} (instant checks that cannot race). */
  public void failed(String client, String user) {
    Step step = new Step(client, user, clock.instant(), Kind.BEGUN);
    apply(step);
    told.accept(step);
  }

  /**
   * Applies a step another reader counted, exactly as if it had been counted here (its instant by that reader's
   * clock); it is not told again.
   */
  public synchronized void apply(Step step) {
    String pair = pairKey(step.client(), step.user());
    String address = addressKey(step.client());
    switch (step.kind()) {
      case BEGUN -> {
        sweepIfLarge(clock.instant());
        add(pair, step.at());
        add(address, step.at());
      }
      case SUCCEEDED -> {
        attempts.remove(pair);
        release(address, step.at());
      }
      case ABANDONED -> {
        release(pair, step.at());
        release(address, step.at());
      }
    }
  }

  /** Counts an attempt at {@code at}, keeping the key's instants in order (another reader's may arrive late). */
  private void add(String key, Instant at) {
    Deque<Instant> recent = attempts.computeIfAbsent(key, k -> new ArrayDeque<>());
    if (recent.isEmpty() || !recent.peekLast().isAfter(at)) {
      recent.addLast(at);
      return;
    }
    List<Instant> sorted = new ArrayList<>(recent);
    sorted.add(at);
    sorted.sort(null);
    recent.clear();
    recent.addAll(sorted);
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
