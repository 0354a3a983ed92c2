package io.mangacircus.reader.accounts;

import io.mangacircus.contracts.AccountsChanged;
import io.mangacircus.contracts.CatalogChanged;
import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.LoginAttempted;
import io.mangacircus.contracts.ReadingChanged;
import io.mangacircus.contracts.SeriesMergesChanged;
import io.mangacircus.contracts.SessionEnded;
import io.mangacircus.reader.access.SeriesMerges;
import io.mangacircus.reader.access.UserAccess;
import io.mangacircus.reader.access.VisibleSeries;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.support.DecodingHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps what this reader remembers in step with the other readers that share its database over the clustered event
 * bus: tells them each logout, credentials change, access change, series merge, catalog change and counted login step
 * made here, and applies theirs to its own session look-ups, app passwords, accounts' access, series merges, catalog and
 * login throttle. A lone (unclustered) reader tells nobody. What is shared is the database; this carries only what
 * each reader keeps in memory from it.
 */
public final class PeerReaders {

  private static final Logger LOG = LoggerFactory.getLogger(PeerReaders.class);

  private final Vertx vertx;
  private final String instance;
  private final AccessGuard guard;
  private final ReaderStores stores;
  private final VisibleSeries visible;
  private final SeriesMerges merges;
  private final boolean telling;
  private final List<MessageConsumer<Object>> consumers = new ArrayList<>();

  private PeerReaders(Vertx vertx, String instance, AccessGuard guard, ReaderStores stores, VisibleSeries visible,
      SeriesMerges merges, boolean telling) {
    this.vertx = vertx;
    this.instance = instance;
    this.guard = guard;
    this.stores = stores;
    this.visible = visible;
    this.merges = merges;
    this.telling = telling;
  }

  /**
   * Joins the other readers: applies what they publish from now on, and publishes this reader's changes when the event
   * bus is clustered.
   *
   * @param instance this reader's instance id: its own publications come back to it and are skipped by it
   */
  public static PeerReaders join(Vertx vertx, String instance, AccessGuard guard, ReaderStores stores,
      VisibleSeries visible, SeriesMerges merges) {
    return on(vertx, instance, guard, stores, visible, merges, vertx.isClustered());
  }

  /** As {@link #join}, telling the other readers whether or not the bus is clustered (several readers in one JVM). */
  static PeerReaders on(Vertx vertx, String instance, AccessGuard guard, ReaderStores stores, VisibleSeries visible,
      SeriesMerges merges, boolean telling) {
    PeerReaders peers = new PeerReaders(vertx, instance, guard, stores, visible, merges, telling);
    peers.listen(Addresses.READER_SESSION_ENDED, SessionEnded::fromJson, SessionEnded::from, peers::sessionEnded);
    peers.listen(Addresses.READER_ACCOUNTS_CHANGED, AccountsChanged::fromJson, AccountsChanged::from,
        peers::accountsChanged);
    peers.listen(Addresses.READER_LOGIN_ATTEMPTED, LoginAttempted::fromJson, LoginAttempted::from,
        peers::loginAttempted);
    peers.listen(Addresses.READER_MERGES_CHANGED, SeriesMergesChanged::fromJson, SeriesMergesChanged::from,
        peers::mergesChanged);
    guard.tell(new AccessGuard.Told() {
      @Override
      public void sessionEnded(String tokenHash) {
        peers.publish(Addresses.READER_SESSION_ENDED, new SessionEnded(instance, tokenHash).toJson());
      }

      @Override
      public void credentialsChanged() {
        peers.publish(Addresses.READER_ACCOUNTS_CHANGED,
            new AccountsChanged(instance, AccountsChanged.Change.CREDENTIALS).toJson());
      }
    });
    guard.loginThrottle().tell(step -> peers.publish(Addresses.READER_LOGIN_ATTEMPTED, new LoginAttempted(instance,
        step.client(), step.user(), step.at(), LoginAttempted.Step.valueOf(step.kind().name())).toJson()));
    return peers;
  }

  /** Resolves once every address is listened to (on a cluster: known to the other members). */
  public Future<Void> ready() {
    return Future.all(consumers.stream().map(MessageConsumer::completion).toList()).mapEmpty();
  }

  /** An admin changed what {@code username} may see (or made the account): here at once, then on the other readers. */
  public void accessChanged(String username, UserAccess access) {
    visible.changed(username, access);
    publish(Addresses.READER_ACCOUNTS_CHANGED, new AccountsChanged(instance, AccountsChanged.Change.ACCESS).toJson());
  }

  /** An admin merged or unmerged series here (stored and applied): the other readers read the merges again. */
  public void mergesChanged() {
    publish(Addresses.READER_MERGES_CHANGED, new SeriesMergesChanged(instance).toJson());
  }

  /**
   * Keeps {@code cache} right across readers: this reader's writes of a user's reading are told to the others, and
   * theirs make this reader drop what it keeps of that user. Call before {@link #ready}.
   */
  public void follow(io.mangacircus.reader.store.SharedProgressCache cache) {
    listen(Addresses.READER_READING_CHANGED, ReadingChanged::fromJson, ReadingChanged::from,
        changed -> cache.forget(changed.userId()));
    cache.tell(user -> publish(Addresses.READER_READING_CHANGED, new ReadingChanged(instance, user).toJson()));
  }

  /**
   * Keeps {@code catalog} right across readers: this reader's catalog changes are told to the others, and theirs make
   * this reader read the catalog again, then run {@code applied} (the library lists show catalog metadata). Call before
   * {@link #ready}.
   */
  public void follow(io.mangacircus.reader.catalog.KeptCatalog catalog, Runnable applied) {
    listen(Addresses.READER_CATALOG_CHANGED, CatalogChanged::fromJson, CatalogChanged::from,
        changed -> vertx.executeBlocking(() -> {
          catalog.reload();
          return null;
        }, false).onSuccess(v -> applied.run())
            .onFailure(e -> LOG.error("[CATALOG] reader {} changed the catalog, which cannot be read here: {}; this "
                + "reader keeps the catalog it knew", changed.from(), e.toString())));
    catalog.tell(() -> publish(Addresses.READER_CATALOG_CHANGED, new CatalogChanged(instance).toJson()));
  }

  /** Stops applying and telling (the reader stops). */
  public Future<Void> leave() {
    guard.tell(AccessGuard.Told.NOBODY);
    guard.loginThrottle().tell(step -> { });
    return Future.all(consumers.stream().map(MessageConsumer::unregister).toList()).mapEmpty();
  }

  private <T> void listen(String address, Function<Object, T> decode, Function<T, String> from,
      java.util.function.Consumer<T> apply) {
    consumers.add(vertx.eventBus().consumer(address, DecodingHandler.of(decode, (Message<Object> message, T body) -> {
      if (!instance.equals(from.apply(body))) {
        apply.accept(body);
      }
    })));
  }

  private void publish(String address, Object body) {
    if (telling) {
      vertx.eventBus().publish(address, body);
    }
  }

  private void sessionEnded(SessionEnded ended) {
    guard.forgetHere(ended.tokenHash());
  }

  private void accountsChanged(AccountsChanged changed) {
    switch (changed.change()) {
      case CREDENTIALS -> guard.forgetAllHere();
      case ACCESS -> vertx.executeBlocking(stores.users()::accesses, false)
          .onSuccess(visible::replaceAll)
          .onFailure(e -> LOG.error("[ACCOUNTS] reader {} changed accounts' access, which cannot be read here: {}; "
              + "this reader keeps the access it knew", changed.from(), e.toString()));
    }
  }

  private void mergesChanged(SeriesMergesChanged changed) {
    vertx.executeBlocking(stores.merges()::merges, false)
        .onSuccess(merges::replaceAll)
        .onFailure(e -> LOG.error("[CATALOG] reader {} changed the series merges, which cannot be read here: {}; "
            + "this reader keeps the merges it knew", changed.from(), e.toString()));
  }

  private void loginAttempted(LoginAttempted attempt) {
    guard.loginThrottle().apply(new LoginThrottle.Step(attempt.client(), attempt.user(), attempt.at(),
        LoginThrottle.Kind.valueOf(attempt.step().name())));
  }
}
