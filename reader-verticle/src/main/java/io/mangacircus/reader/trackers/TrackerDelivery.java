package io.mangacircus.reader.trackers;

import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.TrackerAccount;
import io.mangacircus.reader.store.TrackerLink;
import io.mangacircus.reader.store.TrackerStore;
import io.mangacircus.reader.store.TrackerUpdate;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the tracker outbox: each due update reads the user's list entry, lets {@link TrackerSyncRules} decide, and
 * pushes, offers a pull or waits; failures wait as {@link TrackerBackoff} says within each tracker's
 * {@link TrackerPace}. Each run claims what it delivers, so several readers over one database send an update once.
 * An update leaves the outbox only once the tracker is in step (or refused it for good), so a
 * crash or an outage delays it, never loses it. One run at a time; store work on worker threads. Never logs a token.
 */
public final class TrackerDelivery {

  private static final Logger LOG = LoggerFactory.getLogger(TrackerDelivery.class);

  /** Updates looked at per run; more wait for the next run. */
  public static final int BATCH = 50;

  /**
   * How long a run holds the updates it claimed (every outcome releases them sooner): other readers over the same
   * database leave them alone meanwhile, and those of a reader stopped mid-run are due again after it.
   */
  public static final Duration CLAIM = Duration.ofMinutes(10);

  /** How soon after {@link #nudge()} a run starts, so that a burst of requests makes one run. */
  public static final long NUDGE_DELAY_MS = 200;

  private final Vertx vertx;
  private final TrackerStore store;
  private final TrackerTokenVault vault;
  private final Map<String, TrackerClient> clients;
  private final TrackerPace pace;
  private final TrackerSyncRules rules;
  private final InstantSource clock;
  private final ReadingSource readings;
  private final SignInNotices notices;
  private final TrackerDeliveryMetrics metrics;

  private Future<Integer> running;
  private boolean runAgain;
  private boolean nudged;
  private long timer = -1;

  /** @param registry where the outcome counters and pending gauges go; null for none */
  public TrackerDelivery(Vertx vertx, TrackerStore store, TrackerTokenVault vault, Map<String, TrackerClient> clients,
      TrackerPace pace, TrackerSyncRules rules, InstantSource clock, ReadingSource readings, SignInNotices notices,
      MeterRegistry registry) {
    this.vertx = Objects.requireNonNull(vertx, "vertx");
    this.store = Objects.requireNonNull(store, "store");
    this.vault = Objects.requireNonNull(vault, "vault");
    this.clients = Map.copyOf(clients);
    this.pace = Objects.requireNonNull(pace, "pace");
    this.rules = Objects.requireNonNull(rules, "rules");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.readings = Objects.requireNonNull(readings, "readings");
    this.notices = Objects.requireNonNull(notices, "notices");
    this.metrics = new TrackerDeliveryMetrics(registry, this.clients.keySet());
  }

  /** Runs {@link #deliverDue()} every {@code periodMs} until {@link #stop()}. */
  public synchronized void start(long periodMs) {
    stop();
    timer = vertx.setPeriodic(periodMs, id -> deliverDue());
  }

  /** Stops the periodic runs; a run under way finishes, and what it leaves stays pending in the outbox. */
  public synchronized void stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
  }

  /** Runs {@link #deliverDue()} soon (one run for a burst of calls), as after an update was requested. */
  public synchronized void nudge() {
    if (!nudged) {
      nudged = true;
      vertx.setTimer(NUDGE_DELAY_MS, id -> {
        synchronized (this) {
          nudged = false;
        }
        deliverDue();
      });
    }
  }

  /**
   * Delivers what is due now. While a run is under way no second one starts: its future is returned and one more
   * run follows it, for updates requested meanwhile.
   *
   * @return how many updates left the outbox in step with their tracker (pushed, already in step, or pull offered)
   */
  public Future<Integer> deliverDue() {
    Promise<Integer> done = Promise.promise();
    synchronized (this) {
      if (running != null) {
        runAgain = true;
        return running;
      }
      running = done.future();
    }
    run().onComplete(result -> {
      boolean again;
      synchronized (this) {
        running = null;
        again = runAgain;
        runAgain = false;
      }
      if (result.failed()) {
        LOG.warn("[TRACKERS] tracker outbox run failed, its updates stay pending: {}", result.cause().toString());
      }
      done.handle(result);
      if (again) {
        nudge();
      }
    });
    return done.future();
  }

  private Future<Integer> run() {
    Instant until = clock.instant().plus(CLAIM);
    Future<List<TrackerUpdate>> due = vertx.executeBlocking(() -> store.claimDue(clock.instant(), until, BATCH));
    return due.compose(updates -> {
      Future<Integer> delivered = Future.succeededFuture(0);
      for (TrackerUpdate update : updates) {
        // A claim that lapsed while earlier updates took their time may be another reader's now: left to it.
        delivered = delivered.compose(count -> clock.instant().isBefore(until)
            ? deliverOne(update).map(inStep -> inStep ? count + 1 : count) : Future.succeededFuture(count));
      }
      return delivered;
    }).compose(count -> vertx.executeBlocking(store::pendingByTracker).map(pending -> {
      metrics.pending(pending);
      return count;
    }));
  }

  /** One update; true when it left the outbox in step. Never fails: what goes wrong is recorded on the update. */
  private Future<Boolean> deliverOne(TrackerUpdate update) {
    TrackerClient client = clients.get(update.tracker());
    return vertx.executeBlocking(() -> prepare(update, client)).compose(ready -> {
      if (ready == null) {
        return Future.succeededFuture(false);
      }
      return renewed(ready).compose(this::sync).recover(e -> vertx.executeBlocking(() -> failed(ready, e)));
    }).otherwise(e -> {
      LOG.warn("[TRACKERS] tracker update of user {} on {} for series {} could not be handled, it stays pending: {}",
          update.userId(), update.tracker(), update.series(), e.toString());
      return false;
    });
  }

  /** What one update goes out with. */
  private record Ready(TrackerUpdate update, TrackerClient client, TrackerAccount account, TrackerLink link,
      TrackerTokens tokens) {
  }

  /** The update ready to go out now, or null when it waits (postponed here) or is dropped (link gone). */
  private Ready prepare(TrackerUpdate update, TrackerClient client) throws StoreException {
    Instant now = clock.instant();
    if (client == null) {
      store.postpone(update.userId(), update.tracker(), update.series(), now.plus(TrackerBackoff.SIGN_IN_RECHECK),
          update.attempts(), update.tracker() + " is not configured on this server");
      return null;
    }
    TrackerLink link = store.link(update.userId(), update.tracker(), update.series()).orElse(null);
    if (link == null) {
      store.delivered(update.userId(), update.tracker(), update.series(), update.version());
      return null;
    }
    TrackerAccount account = store.account(update.userId(), update.tracker()).orElse(null);
    if (account == null || account.needsSignIn()) {
      waitForSignIn(update, client, now);
      return null;
    }
    TrackerTokens tokens;
    try {
      Secret access = vault.open(update.userId(), update.tracker(), account.sealedAccess());
      Secret refresh = account.sealedRefresh() == null ? null
          : vault.open(update.userId(), update.tracker(), account.sealedRefresh());
      tokens = new TrackerTokens(access, refresh, account.expiresAt(), account.accountId(), account.accountName());
    } catch (TrackerTokenVault.SealedTokenRefused e) {
      signInNeeded(account, e.getMessage(), now);
      waitForSignIn(update, client, now);
      return null;
    }
    if (!pace.tryReserve(update.tracker())) {
      store.postpone(update.userId(), update.tracker(), update.series(), pace.nextFree(update.tracker()),
          update.attempts(), update.lastError());
      return null;
    }
    return new Ready(update, client, account, link, tokens);
  }

  /** The tokens to send: renewed first when they are about to expire, the renewal sealed and saved. */
  private Future<Ready> renewed(Ready ready) {
    if (!ready.tokens().expiresSoon(clock.instant())) {
      return Future.succeededFuture(ready);
    }
    pace.spendExtra(ready.update().tracker());
    return ready.client().refresh(ready.tokens()).recover(e -> Future.failedFuture(
        e instanceof TrackerFailure f && f.kind() == TrackerFailure.Kind.REFUSED
            ? new TrackerFailure(f.tracker(), TrackerFailure.Kind.SIGN_IN_AGAIN, f.getMessage()) : e))
        .compose(fresh -> vertx.executeBlocking(() -> {
          TrackerAccount before = ready.account();
          long user = before.userId();
          String tracker = before.tracker();
          TrackerTokens kept = fresh.refresh() == null ? new TrackerTokens(fresh.access(), ready.tokens().refresh(),
              fresh.expiresAt(), fresh.accountId(), fresh.accountName()) : fresh;
          TrackerAccount after = new TrackerAccount(user, tracker, vault.seal(user, tracker, kept.access()),
              kept.refresh() == null ? null : vault.seal(user, tracker, kept.refresh()), kept.expiresAt(),
              kept.accountId().isEmpty() ? before.accountId() : kept.accountId(),
              kept.accountName().isEmpty() ? before.accountName() : kept.accountName(), false, "", clock.instant());
          store.saveAccount(after);
          return new Ready(ready.update(), ready.client(), after, ready.link(), kept);
        }));
  }

  /** Reads the list entry, records it, and does what the rules decide. */
  private Future<Boolean> sync(Ready ready) {
    TrackerUpdate update = ready.update();
    return ready.client().entry(ready.tokens(), ready.link().remoteId()).compose(remote -> {
      pace.answered(update.tracker());
      return vertx.executeBlocking(() -> {
        TrackerLink seen = TrackerLinks.seen(ready.link(), remote, clock.instant());
        store.saveLink(seen);
        SeriesReading reading = readings.reading(update.userId(), update.series());
        return rules.decide(reading, remote.entry(), seen.lastPushAt());
      }).compose(decision -> act(ready, remote, decision));
    });
  }

  private Future<Boolean> act(Ready ready, RemoteEntry remote, SyncDecision decision) {
    TrackerUpdate update = ready.update();
    if (decision instanceof SyncDecision.Push push) {
      return ready.client().save(ready.tokens(), remote, push.progress(), push.status())
          .compose(saved -> vertx.executeBlocking(() -> settle(update,
              link -> TrackerLinks.pushed(link, push, clock.instant()), "delivered")));
    }
    return vertx.executeBlocking(() -> {
      if (decision instanceof SyncDecision.Pull pull) {
        return settle(update, link -> TrackerLinks.offered(link, pull.trackerProgress()), "pull_offered");
      }
      if (decision instanceof SyncDecision.Wait wait) {
        // Within a minute of the last push: the latest reading goes out when the minute is over.
        store.postpone(update.userId(), update.tracker(), update.series(), wait.until(), update.attempts(),
            update.lastError());
        return false;
      }
      return settle(update, link -> TrackerLinks.offered(link, null), "in_step");
    });
  }

  /** Records the outcome on the link and removes the update (unless requested again meanwhile); true. */
  private boolean settle(TrackerUpdate update, UnaryOperator<TrackerLink> change, String outcome)
      throws StoreException {
    store.link(update.userId(), update.tracker(), update.series()).map(change).ifPresent(this::saveLink);
    store.delivered(update.userId(), update.tracker(), update.series(), update.version());
    metrics.count(update.tracker(), outcome);
    return true;
  }

  private void saveLink(TrackerLink link) {
    try {
      store.saveLink(link);
    } catch (StoreException e) {
      throw new IllegalStateException("cannot record the sync of user " + link.userId() + " on " + link.tracker()
          + " for series " + link.series() + ": " + e.getMessage(), e);
    }
  }

  /** Records a failed try and when to try again, by the kind of failure. */
  private boolean failed(Ready ready, Throwable e) throws StoreException {
    TrackerUpdate update = ready.update();
    String tracker = update.tracker();
    Instant now = clock.instant();
    int attempts = update.attempts() + 1;
    if (!(e instanceof TrackerFailure failure)) {
      // Our own fault (a bug or the disk), not the tracker's: this update waits, the tracker's others go on.
      String what = redact(e.getClass().getSimpleName() + ": " + e.getMessage(), ready.tokens());
      LOG.warn("[TRACKERS] tracker update of user {} on {} for series {} failed, tried again later: {}",
          update.userId(), tracker, update.series(), what);
      store.postpone(update.userId(), tracker, update.series(), now.plus(TrackerBackoff.unavailable(attempts)),
          attempts, "could not be sent; tried again later");
      metrics.count(tracker, "unavailable");
      return false;
    }
    String message = redact(failure.getMessage(), ready.tokens());
    LOG.info("[TRACKERS] tracker update of user {} on {} for series {}: {} ({})", update.userId(), tracker,
        update.series(), failure.kind(), message);
    switch (failure.kind()) {
      case RATE_LIMITED -> {
        Instant until = now.plus(TrackerBackoff.delay(failure, attempts).orElseThrow());
        pace.pauseUntil(tracker, until);
        store.postpone(update.userId(), tracker, update.series(), until, attempts, message);
        metrics.count(tracker, "rate_limited");
      }
      case UNAVAILABLE -> {
        Instant own = now.plus(TrackerBackoff.delay(failure, attempts).orElseThrow());
        Instant held = pace.down(tracker);
        store.postpone(update.userId(), tracker, update.series(), own.isAfter(held) ? own : held, attempts,
            message);
        metrics.count(tracker, "unavailable");
      }
      case SIGN_IN_AGAIN -> {
        store.account(update.userId(), tracker).ifPresent(account -> signInNeeded(account, message, now));
        waitForSignIn(update, ready.client(), now);
        metrics.count(tracker, "sign_in_again");
      }
      case REFUSED -> {
        store.link(update.userId(), tracker, update.series()).map(link -> TrackerLinks.failed(link, message))
            .ifPresent(this::saveLink);
        store.delivered(update.userId(), tracker, update.series(), update.version());
        metrics.count(tracker, "refused");
      }
    }
    return false;
  }

  /** Puts an update off until the user signs in again (a new sign-in releases it at once). */
  private void waitForSignIn(TrackerUpdate update, TrackerClient client, Instant now) throws StoreException {
    store.postpone(update.userId(), update.tracker(), update.series(), now.plus(TrackerBackoff.SIGN_IN_RECHECK),
        update.attempts(), "sign in to " + client.name() + " again");
  }

  /** Marks the account "needs sign-in again" and tells the user, once (an account already marked stays quiet). */
  private void signInNeeded(TrackerAccount account, String why, Instant now) {
    if (account.needsSignIn()) {
      return;
    }
    try {
      store.saveAccount(account.signInAgain(why, now));
    } catch (StoreException e) {
      throw new IllegalStateException("cannot mark user " + account.userId() + "'s " + account.tracker()
          + " sign-in as needing renewal: " + e.getMessage(), e);
    }
    LOG.info("[TRACKERS] user {}'s sign-in on {} needs renewing; their updates wait for it", account.userId(),
        account.tracker());
    notices.signInNeeded(account.userId(), account.tracker(), why);
  }

  /** A message with any of the tokens in it masked, should a tracker or a bug have echoed one. */
  private static String redact(String text, TrackerTokens tokens) {
    String safe = text == null ? "" : text;
    for (Secret secret : new Secret[] {tokens.access(), tokens.refresh()}) {
      if (secret != null) {
        safe = safe.replace(secret.reveal(), "****");
      }
    }
    return safe;
  }
}
