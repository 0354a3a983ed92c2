package io.mangacircus.reader;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ChapterPublished;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.reader.access.SeriesMerges;
import io.mangacircus.reader.access.UserAccess;
import io.mangacircus.reader.accounts.AccountsGate;
import io.mangacircus.reader.accounts.FirstAdmin;
import io.mangacircus.reader.accounts.GeneratedPassword;
import io.mangacircus.reader.accounts.NewAdminPassword;
import io.mangacircus.reader.accounts.oidc.SingleSignOn;
import io.mangacircus.reader.catalog.KeptCatalog;
import io.mangacircus.reader.http.HttpMount;
import io.mangacircus.reader.kosync.KosyncAccounts;
import io.mangacircus.reader.library.CollectionUpkeep;
import io.mangacircus.reader.library.InventoryCache;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.LibraryScanner;
import io.mangacircus.reader.library.SeriesEntry;
import io.mangacircus.reader.progress.ReadingEvents;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.SharedProgressCache;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.trackers.TrackerFeature;
import io.mangacircus.support.DecodingHandler;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.ext.web.Router;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The reader service: answers its liveness ping and serves the browser-facing routes through its mount. */
public final class ReaderVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ReaderVerticle.class);

  private final ReaderConfig config;
  private final HttpMount mount;
  private final Path dataDir;
  private final MeterRegistry registry;
  private final InstantSource clock = InstantSource.system();
  private ReaderStores stores;
  /** Every reading goes through it, so that the trackers hear of finished chapters whoever recorded them. */
  private ReadingEvents progress;
  private SharedProgressCache sharedProgress;
  private TrackerFeature trackers;
  private SingleSignOn sso;
  private KeptCatalog catalog;
  private LibraryInventory inventory;
  private Optional<LibraryInventory.Snapshot> keptInventory = Optional.empty();
  private InventoryCache inventoryCache;
  private CollectionUpkeep collections;
  private Map<String, UserAccess> accessesAtStart = Map.of();
  private SeriesMerges merges = SeriesMerges.none();
  private LibraryFiles files;
  private MessageConsumer<Object> publishedConsumer;
  private final String instance = UUID.randomUUID().toString();
  private long startedAt;
  private Router router;
  private ReaderRoutes routes;
  private MessageConsumer<Object> pingConsumer;
  private Future<Void> accountsReady = Future.succeededFuture();
  private Function<ReaderStores, KosyncAccounts> kosyncAccounts;
  private Consumer<Optional<NewAdminPassword>> accountsAnnounced = ReaderVerticle::logPassword;

  /**
   * @param dataDir the data folder; the reader owns {@code reader.db} and {@code library-inventory.json} in it
   */
  public ReaderVerticle(ReaderConfig config, HttpMount mount, Path dataDir) {
    this(config, mount, dataDir, null);
  }

  /** @param registry where the reader's metrics go ({@code mc_library_scans_total}); null: not counted */
  public ReaderVerticle(ReaderConfig config, HttpMount mount, Path dataDir, MeterRegistry registry) {
    this.config = config;
    this.mount = mount;
    this.dataDir = dataDir;
    this.registry = registry;
  }

  /**
   * Who may sync over KOReader's protocol ({@code /kosync}), from the opened stores; unless set, the users' app
   * passwords by their sync keys ({@link KosyncAccounts#appPasswords}).
   */
  public ReaderVerticle kosyncAccounts(Function<ReaderStores, KosyncAccounts> accounts) {
    this.kosyncAccounts = accounts;
    return this;
  }

  /**
   * Who is told once the first start's accounts are ready, with the admin password the reader generated if it made
   * one: the launcher prints it in its "Ready" block. Unless set (a reader run without the launcher), a generated one
   * is logged once, framed, one log event a line.
   */
  public ReaderVerticle accountsAnnouncedTo(Consumer<Optional<NewAdminPassword>> announced) {
    this.accountsAnnounced = announced;
    return this;
  }

  private static void logPassword(Optional<NewAdminPassword> made) {
    made.ifPresent(p -> GeneratedPassword.notice(
        "first start: created the admin account", p.username(), p.password()).lines()
        .forEach(line -> LOG.warn("{}", line)));
  }

  @Override
  public Future<?> start() {
    startedAt = System.currentTimeMillis();
    // Without a kept inventory the library scan starts first (the longest part of a cold start) and runs while the
    // database opens.
    return vertx.executeBlocking(() -> {
      inventoryCache = new InventoryCache(dataDir);
      keptInventory = inventoryCache.load();
      collections = CollectionUpkeep.load(config.libraries(), dataDir, clock);
      return null;
    }).compose(v -> {
      startInventory();
      return vertx.executeBlocking(this::openDatabase);
    }).compose(v -> {
      // The first start's admin account (a password hash: ≈ 1 s of CPU) is made while the reader already serves;
      // what may check a password or change accounts waits for it (AccountsGate).
      Future<Optional<NewAdminPassword>> admin = vertx.executeBlocking(this::ensureAdmin);
      admin.onComplete(made -> accountsAnnounced.accept(made.succeeded() ? made.result() : Optional.empty()));
      accountsReady = admin.<Void>mapEmpty()
          .onFailure(e -> LOG.error("[ACCOUNTS] could not create the first admin account: {}; account and API "
              + "requests answer 503 until the reader is restarted", e.toString()));
      return serve();
    }).onSuccess(v -> {
      // With a kept list to serve, the scan that checks it waits until the reader answers (on two cores it slowed
      // the start by ≈ 0.5 s); a request before this starts it too.
      inventory.summary();
    });
  }

  /** The inventory, seeded with the kept one if any, and its first scan started. */
  private void startInventory() {
    files = new LibraryFiles(dataDir.resolve("library")).withCollections(collections.libraries());
    LibraryScanner scanner = new LibraryScanner(files);
    Counter scans = registry == null ? null : Counter.builder("mc.library.scans")
        .description("Full scans of the library folder by the reader").register(registry);
    // No refresh by age: publication events keep the list current; a missed one, the operator or a restart rescans.
    inventory = new LibraryInventory((Consumer<SeriesEntry> found) -> {
      if (scans != null) {
        scans.increment();
      }
      return collections.libraries().join(scanner.scan(found), found);
    }, command -> vertx.executeBlocking(() -> {
      command.run();
      return null;
    }, false), clock, null, Duration.ofMinutes(1))
        .keepWith(inventoryCache::save);
    keptInventory.ifPresent(inventory::seed);
    collections.start(vertx, inventory);
    if (keptInventory.isEmpty()) {
      // Nothing to show until the first scan: it starts now, while the database opens, not with the first request.
      inventory.summary();
    }
  }

  private Void openDatabase() throws StoreException {
    sso = SingleSignOn.create(vertx, config.oidc(), System.getenv());
    stores = ReaderStores.open(config.databaseConfig(), dataDir, vertx, System.getenv());
    catalog = KeptCatalog.load(stores.catalog());
    accessesAtStart = stores.users().accesses();
    merges = new SeriesMerges(stores.merges().merges());
    sharedProgress = config.databaseConfig().sqlite() ? null : new SharedProgressCache(stores.progress(), clock);
    progress = new ReadingEvents(sharedProgress == null ? stores.progress() : sharedProgress);
    trackers = TrackerFeature.create(vertx, config.trackers(), dataDir, stores,
        progress, files, registry, clock);
    return null;
  }

  private Optional<NewAdminPassword> ensureAdmin() throws StoreException {
    return FirstAdmin.ensure(stores.users(), config.initialAdminPassword(), clock);
  }

  private Future<?> serve() {
    publishedConsumer = vertx.eventBus().consumer(Addresses.LIBRARY_PUBLISHED,
        DecodingHandler.of(ChapterPublished::fromJson, (message, event) -> addPublished(files, event)));
    routes = new ReaderRoutes(new ReaderRoutes.Parts(vertx, config, dataDir, clock, instance, startedAt, stores,
        progress, sharedProgress, catalog, inventory, files, collections, accessesAtStart, merges, trackers, sso,
        accountsReady, kosyncAccounts));
    router = routes.build();
    pingConsumer = vertx.eventBus().consumer(Addresses.READER_PING,
        DecodingHandler.of(PingRequest::fromJson, this::handlePing));
    return pingConsumer.completion().compose(v -> routes.ready()).onSuccess(v -> {
      mount.attach(router);
      trackers.start();
      sso.start();
      LOG.info("reader started (instance {}, {})", instance, config);
    });
  }

  /** One published chapter: judged by the library's rule (its folder only) and added to the list, no scan. */
  private void addPublished(LibraryFiles files, ChapterPublished event) {
    inventory.published(event.instance(), event.seq());
    vertx.executeBlocking(() -> files.admit(event.seriesId(), event.chapterFolder(), event.manifest()))
        .onSuccess(inventory::added)
        .onFailure(t -> LOG.warn("[LIBRARY] published chapter {} is not listed: {}", event.path(),
            t instanceof LibraryFiles.NotFoundException e ? e.reason() : t.getMessage()));
  }

  @Override
  public Future<?> stop() {
    if (router != null) {
      mount.detach(router);
    }
    if (publishedConsumer != null) {
      publishedConsumer.unregister();
    }
    if (routes != null) {
      routes.close();
    }
    if (trackers != null) {
      trackers.stop();
    }
    if (sso != null) {
      sso.stop();
    }
    if (collections != null) {
      collections.stop();
    }
    Future<Void> unregistered = pingConsumer == null ? Future.succeededFuture() : pingConsumer.unregister();
    // A first start's admin account is finished before the database closes under it.
    return unregistered.eventually(() -> accountsReady).eventually(() -> vertx.executeBlocking(() -> {
      if (stores != null) {
        stores.close();
      }
      return null;
    }));
  }

  private void handlePing(Message<Object> message, PingRequest request) {
    message.reply(new PingReply("reader", instance, startedAt).toJson());
  }
}
