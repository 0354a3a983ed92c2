package io.mangacircus.reader.trackers;

import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.TrackerAccount;
import io.mangacircus.reader.store.TrackerStore;
import java.time.InstantSource;
import java.util.Optional;

/**
 * Users' sign-ins on trackers as the routes use them: tokens sealed before they are stored and opened only to be sent
 * to their tracker; a new sign-in releases the updates that waited for it. Blocking.
 */
public final class TrackerAccounts {

  private final TrackerStore store;
  private final TrackerTokenVault vault;
  private final InstantSource clock;
  private final Runnable released;

  /** @param released told when a sign-in let waiting updates go (the delivery runs soon) */
  public TrackerAccounts(TrackerStore store, TrackerTokenVault vault, InstantSource clock, Runnable released) {
    this.store = store;
    this.vault = vault;
    this.clock = clock;
    this.released = released;
  }

  /** Keeps a user's new sign-in on a tracker (replacing an earlier one) and lets waiting updates go. */
  public TrackerAccount signedIn(long userId, String tracker, TrackerTokens tokens) throws StoreException {
    TrackerAccount account = new TrackerAccount(userId, tracker, vault.seal(userId, tracker, tokens.access()),
        tokens.refresh() == null ? null : vault.seal(userId, tracker, tokens.refresh()), tokens.expiresAt(),
        tokens.accountId(), tokens.accountName(), false, "", clock.instant());
    store.saveAccount(account);
    store.releaseWaiting(userId, tracker, clock.instant());
    released.run();
    return account;
  }

  /** The user's tokens on a tracker, opened; empty when not signed in or waiting for a new sign-in. */
  public Optional<TrackerTokens> tokens(long userId, String tracker) throws StoreException {
    Optional<TrackerAccount> account = store.account(userId, tracker);
    if (account.isEmpty() || account.get().needsSignIn()) {
      return Optional.empty();
    }
    return Optional.of(tokens(account.get()));
  }

  /**
   * The user's tokens on a tracker for a request made now: renewed first when they expire soon and the tracker can
   * renew them (the renewal sealed and kept). Empty when not signed in. Runs the blocking parts on a worker.
   */
  public io.vertx.core.Future<Optional<TrackerTokens>> current(io.vertx.core.Vertx vertx, long userId,
      TrackerClient client) {
    return vertx.executeBlocking(() -> tokens(userId, client.id())).compose(found -> {
      if (found.isEmpty() || !found.get().expiresSoon(clock.instant()) || found.get().refresh() == null) {
        return io.vertx.core.Future.succeededFuture(found);
      }
      return client.refresh(found.get()).compose(renewed -> vertx.executeBlocking(() -> {
        TrackerAccount account = store.account(userId, client.id()).orElseThrow();
        store.saveAccount(new TrackerAccount(userId, client.id(), vault.seal(userId, client.id(), renewed.access()),
            renewed.refresh() == null ? account.sealedRefresh() : vault.seal(userId, client.id(), renewed.refresh()),
            renewed.expiresAt(), account.accountId(), account.accountName(), false, "", clock.instant()));
        return Optional.of(renewed);
      }));
    });
  }

  /** A stored account's tokens, opened. */
  public TrackerTokens tokens(TrackerAccount account) {
    return new TrackerTokens(vault.open(account.userId(), account.tracker(), account.sealedAccess()),
        account.sealedRefresh() == null ? null
            : vault.open(account.userId(), account.tracker(), account.sealedRefresh()),
        account.expiresAt(), account.accountId(), account.accountName());
  }
}
