package io.mangacircus.reader.accounts;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Slows down password guessing: more than {@code maxFailures} failed logins for one client address, or for one
 * user name, within the window lock that key out until the window has passed. Successful logins clear the user's count.
 */
public final class LoginThrottle {

  private final int maxFailures;
  private final Duration window;
  private final InstantSource clock;
  private final Map<String, Deque<Instant>> failures = new HashMap<>();

  public LoginThrottle(int maxFailures, Duration window, InstantSource clock) {
    this.maxFailures = maxFailures;
    this.window = window;
    this.clock = clock;
  }

  /** How long the client or user must wait before trying again; zero when they may try now. */
  public synchronized Duration waitFor(String client, String username) {
    return max(waitFor("client:" + client), waitFor("user:" + username));
  }

  /** Records a failed login. */
  public synchronized void failed(String client, String username) {
    Instant now = clock.instant();
    failures.computeIfAbsent("client:" + client, k -> new ArrayDeque<>()).addLast(now);
    failures.computeIfAbsent("user:" + username, k -> new ArrayDeque<>()).addLast(now);
  }

  /** Records a successful login: the user's failures are forgotten (the address keeps its record). */
  public synchronized void succeeded(String username) {
    failures.remove("user:" + username);
  }

  private Duration waitFor(String key) {
    Deque<Instant> recent = failures.get(key);
    if (recent == null) {
      return Duration.ZERO;
    }
    Instant horizon = clock.instant().minus(window);
    while (!recent.isEmpty() && !recent.peekFirst().isAfter(horizon)) {
      recent.removeFirst();
    }
    if (recent.isEmpty()) {
      failures.remove(key);
      return Duration.ZERO;
    }
    if (recent.size() < maxFailures) {
      return Duration.ZERO;
    }
    return Duration.between(horizon, recent.peekFirst());
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
