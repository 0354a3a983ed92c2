package io.mangacircus.scraper.source;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Hands out send times for one site's requests so that every {@link Rule} that applies to a request holds: at most
 * {@code permits} requests start within any {@code window}, and a request starts at least {@code spacing} after the
 * previous one started and after the last one ended. A caller reserves a slot, waits (on a timer, never a sleeping
 * thread) until it comes, sends, and reports {@link #finished} when the answer is in; reservations are made in order,
 * so slots never overlap whichever thread or context asks. Also remembers "send nothing before" instants a site
 * announces (429 or an exhausted budget). Decides only: it neither waits nor sends.
 *
 * <p>Unlike a token bucket, it never lets a burst through after a quiet spell: with 5 permits a second and 200 ms
 * spacing, six requests never start within one second. Counting the spacing from the end of the previous request too
 * makes that hold where the site measures it, on arrival: a request that was slow to leave cannot arrive closer to the
 * next one than the spacing.
 */
public final class RequestLimiter {

  /**
   * One limit.
   *
   * @param name for messages, e.g. {@code all requests}
   * @param permits requests allowed to start within any {@code window}, at least 1
   * @param window the sliding window
   * @param spacing the least time between the starts of two requests this rule covers, and between the end of one
   *     and the start of the next (may be zero)
   */
  public record Rule(String name, int permits, Duration window, Duration spacing) {
    public Rule {
      if (permits < 1 || window.isNegative() || spacing.isNegative()) {
        throw new IllegalArgumentException("rule " + name + ": permits must be at least 1 and durations positive");
      }
    }
  }

  private final InstantSource clock;
  private final Map<Rule, Deque<Instant>> starts = new HashMap<>();
  private final Map<Rule, Instant> lastFinished = new HashMap<>();
  private Instant holdUntil = Instant.MIN;
  private String holdReason;
  private final Map<Rule, Instant> ruleHolds = new HashMap<>();
  private final Map<Rule, String> ruleHoldReasons = new HashMap<>();
  private LearnedRate learned;
  private Instant lastStart;

  public RequestLimiter(InstantSource clock) {
    this.clock = clock;
  }

  /**
   * Spaces every request of this limiter by a rate learned from the site's refusals (created on first use with
   * {@code configuredRps}, the same one for every later caller).
   */
  public synchronized LearnedRate learnedRate(double configuredRps) {
    if (learned == null) {
      learned = new LearnedRate(configuredRps);
    }
    return learned;
  }

  /**
   * Reserves the earliest start that every rule in {@code rules} (and any hold) allows, and returns how long the
   * caller must wait for it (zero when it may send at once).
   */
  public synchronized Duration reserve(List<Rule> rules) {
    Instant now = clock.instant();
    Instant at = earliest(now, rules);
    for (Rule rule : rules) {
      Deque<Instant> log = starts.computeIfAbsent(rule, r -> new ArrayDeque<>());
      log.addLast(at);
      while (log.size() > rule.permits()) {
        log.removeFirst();
      }
    }
    lastStart = at;
    return Duration.between(now, at);
  }

  /**
   * A request reserved under {@code rules} is being sent now: its start is counted from now when that is later than
   * its slot (a timer fires late, never early), so the windows hold where the site counts, on arrival.
   */
  public synchronized void started(List<Rule> rules) {
    Instant now = clock.instant();
    for (Rule rule : rules) {
      Deque<Instant> log = starts.get(rule);
      if (log != null && !log.isEmpty() && now.isAfter(log.peekLast())) {
        log.removeLast();
        log.addLast(now);
      }
    }
    if (lastStart != null && now.isAfter(lastStart)) {
      lastStart = now;
    }
  }

  /** A request reserved under {@code rules} has its answer (or failed): the next one keeps its spacing from now. */
  public synchronized void finished(List<Rule> rules) {
    Instant now = clock.instant();
    for (Rule rule : rules) {
      lastFinished.merge(rule, now, RequestLimiter::later);
    }
  }

  /** The start {@link #reserve} would give now, without reserving it. */
  public synchronized Duration wouldWait(List<Rule> rules) {
    Instant now = clock.instant();
    return Duration.between(now, earliest(now, rules));
  }

  /** Nothing starts before {@code until} (a later hold wins; an earlier one changes nothing). */
  public synchronized void holdUntil(Instant until) {
    holdUntil(until, null);
  }

  /** As {@link #holdUntil(Instant)}, with why (for the lane's status). */
  public synchronized void holdUntil(Instant until, String reason) {
    if (until.isAfter(holdUntil)) {
      holdUntil = until;
      holdReason = reason;
    }
  }

  /**
   * Nothing under {@code rule} starts before {@code until} (e.g. a site's budget for one kind of request is spent);
   * requests the rule does not cover go on.
   */
  public synchronized void holdUntil(Rule rule, Instant until, String reason) {
    Instant current = ruleHolds.get(rule);
    if (current == null || until.isAfter(current)) {
      ruleHolds.put(rule, until);
      ruleHoldReasons.put(rule, reason);
    }
  }

  /**
   * The hold that keeps a request under {@code rules} longest, if one is still ahead: the one on every request or a
   * rule's own.
   */
  public synchronized Optional<Map.Entry<Instant, String>> hold(List<Rule> rules) {
    Instant now = clock.instant();
    Instant until = holdUntil;
    String reason = holdReason;
    for (Rule rule : rules) {
      Instant ruleHold = ruleHolds.get(rule);
      if (ruleHold != null && ruleHold.isAfter(until)) {
        until = ruleHold;
        reason = ruleHoldReasons.get(rule);
      }
    }
    return until.isAfter(now) ? Optional.of(Map.entry(until, reason == null ? "" : reason)) : Optional.empty();
  }

  /** Why the current hold was set, or null. */
  public synchronized String holdReason() {
    return holdReason;
  }

  /** The instant before which nothing starts, if it is still ahead. */
  public synchronized Optional<Instant> hold() {
    return holdUntil.isAfter(clock.instant()) ? Optional.of(holdUntil) : Optional.empty();
  }

  private Instant earliest(Instant now, List<Rule> rules) {
    Instant at = now.isAfter(holdUntil) ? now : holdUntil;
    for (Rule rule : rules) {
      Instant ruleHold = ruleHolds.get(rule);
      if (ruleHold != null) {
        at = later(at, ruleHold);
      }
    }
    if (learned != null && lastStart != null && learned.current(now) < learned.configured()) {
      at = later(at, lastStart.plus(learned.gap(now)));
    }
    for (Rule rule : rules) {
      Instant finished = lastFinished.get(rule);
      if (finished != null) {
        at = later(at, finished.plus(rule.spacing()));
      }
      Deque<Instant> log = starts.get(rule);
      if (log == null || log.isEmpty()) {
        continue;
      }
      at = later(at, log.peekLast().plus(rule.spacing()));
      if (log.size() >= rule.permits()) {
        // The start `permits` requests back must have left the window.
        at = later(at, log.peekFirst().plus(rule.window()));
      }
    }
    return at;
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
