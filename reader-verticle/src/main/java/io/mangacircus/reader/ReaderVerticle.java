package io.mangacircus.reader;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ChapterPublished;
import io.mangacircus.support.DecodingHandler;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.accounts.AccountsGate;
import io.mangacircus.reader.accounts.AccountRoutes;
import io.mangacircus.reader.accounts.AdminPageGuard;
import io.mangacircus.reader.accounts.AppPasswordRoutes;
import io.mangacircus.reader.accounts.NewAdminPassword;
import io.mangacircus.reader.accounts.OwnPasswordRoutes;
import io.mangacircus.reader.accounts.UserAdminRoutes;
import io.mangacircus.reader.catalog.CatalogRoutes;
import io.mangacircus.reader.catalog.KeptCatalog;
import io.mangacircus.reader.finder.CoverCache;
import io.mangacircus.reader.finder.TitleFinderRoutes;
import io.mangacircus.reader.library.CbzDownload;
import io.mangacircus.reader.library.ChapterArchives;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.SeriesRoutes;
import io.mangacircus.reader.library.SourceLinks;
import io.mangacircus.reader.komga.KomgaProgressRoutes;
import io.mangacircus.reader.komga.KomgaRoutes;
import io.mangacircus.reader.kosync.KosyncAccounts;
import io.mangacircus.reader.kosync.KosyncDocuments;
import io.mangacircus.reader.kosync.KosyncRoutes;
import io.mangacircus.reader.opds.OpdsRoutes;
import io.mangacircus.reader.pages.PageRoutes;
import io.mangacircus.reader.progress.ProgressRecorder;
import io.mangacircus.reader.progress.ProgressRoutes;
import io.mangacircus.reader.progress.ReadingEvents;
import io.mangacircus.reader.progress.ReadingSettingsRoutes;
import io.mangacircus.reader.admin.ConsoleBridge;
import io.mangacircus.reader.alerts.ChapterAlerts;
import io.mangacircus.reader.admin.NotificationRoutes;
import io.mangacircus.reader.admin.ScraperAdminRoutes;
import io.mangacircus.reader.admin.ServiceStatusRoutes;
import io.mangacircus.reader.admin.ShutdownRoutes;
import io.mangacircus.reader.library.InventoryCache;
import io.mangacircus.reader.access.VisibleSeries;
import io.mangacircus.reader.accounts.SeriesRouteGuard;
import io.mangacircus.reader.komga.KomgaBookRoutes;
import io.mangacircus.reader.komga.KomgaIds;
import io.mangacircus.reader.library.CollectionUpkeep;
import io.mangacircus.reader.library.LibraryAdminRoutes;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.LibraryScanner;
import io.mangacircus.reader.library.OpenPageFiles;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.http.ApiRequestRules;
import io.mangacircus.reader.http.SecretAnswers;
import io.mangacircus.reader.http.HttpMount;
import io.mangacircus.reader.http.TrustedProxies;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.SharedProgressCache;
import io.mangacircus.reader.store.StoreException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The reader service: answers its liveness ping and serves the browser-facing routes through its mount. */
public final class ReaderVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ReaderVerticle.class);

  /** Page files kept open between CBZ sends at most (docs/operations.md), and how long an unused one stays open. */
  static final int PAGE_FILES_KEPT = 256;
  static final java.time.Duration PAGE_FILES_IDLE = java.time.Duration.ofSeconds(30);

  private final ReaderConfig config;
  private final HttpMount mount;
  private final Path dataDir;
  private final MeterRegistry registry;
  private final InstantSource clock = InstantSource.system();
  private OpenPageFiles pageFiles;
  private ReaderStores stores;
  /** Every reading goes through it, so that the trackers hear of finished chapters whoever recorded them. */
  private ReadingEvents progress;
  private SharedProgressCache sharedProgress;
  private io.mangacircus.reader.trackers.TrackerFeature trackers;
  private io.mangacircus.reader.accounts.oidc.SingleSignOn sso;
  private KeptCatalog catalog;
  private LibraryInventory inventory;
  private Optional<LibraryInventory.Snapshot> keptInventory = Optional.empty();
  private InventoryCache inventoryCache;
  private CollectionUpkeep collections;
  private java.util.Map<String, io.mangacircus.reader.access.UserAccess> accessesAtStart = java.util.Map.of();
  private io.mangacircus.reader.access.SeriesMerges merges = io.mangacircus.reader.access.SeriesMerges.none();
  private LibraryFiles files;
  private MessageConsumer<Object> publishedConsumer;
  private final String instance = UUID.randomUUID().toString();
  private long startedAt;
  private Router router;
  private ServiceStatusRoutes statusRoutes;
  private MessageConsumer<Object> pingConsumer;
  private MessageConsumer<Object> alertsConsumer;
  private io.mangacircus.reader.accounts.PeerReaders peers;
  private Future<Void> accountsReady = Future.succeededFuture();
  private java.util.function.Function<ReaderStores, KosyncAccounts> kosyncAccounts;
  private java.util.function.Consumer<Optional<NewAdminPassword>> accountsAnnounced = ReaderVerticle::logPassword;

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
  public ReaderVerticle kosyncAccounts(java.util.function.Function<ReaderStores, KosyncAccounts> accounts) {
    this.kosyncAccounts = accounts;
    return this;
  }

  /**
   * Who is told once the first start's accounts are ready, with the admin password the reader generated if it made
   * one: the launcher prints it in its "Ready" block. Unless set (a reader run without the launcher), a generated one
   * is logged once, framed, one log event a line.
   */
  public ReaderVerticle accountsAnnouncedTo(java.util.function.Consumer<Optional<NewAdminPassword>> announced) {
    this.accountsAnnounced = announced;
    return this;
  }

  private static void logPassword(Optional<NewAdminPassword> made) {
    made.ifPresent(p -> io.mangacircus.reader.accounts.GeneratedPassword.notice(
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
    inventory = new LibraryInventory((java.util.function.Consumer<io.mangacircus.reader.library.SeriesEntry> found) -> {
      if (scans != null) {
        scans.increment();
      }
      return collections.libraries().join(scanner.scan(found), found);
    }, command -> vertx.executeBlocking(() -> {
      command.run();
      return null;
    }, false), clock, null, java.time.Duration.ofMinutes(1))
        .keepWith(inventoryCache::save);
    keptInventory.ifPresent(inventory::seed);
    collections.start(vertx, inventory);
    if (keptInventory.isEmpty()) {
      // Nothing to show until the first scan: it starts now, while the database opens, not with the first request.
      inventory.summary();
    }
  }

  private Void openDatabase() throws StoreException {
    sso = io.mangacircus.reader.accounts.oidc.SingleSignOn.create(vertx, config.oidc(), System.getenv());
    stores = ReaderStores.open(config.databaseConfig(), dataDir, vertx, System.getenv());
    catalog = KeptCatalog.load(stores.catalog());
    accessesAtStart = stores.users().accesses();
    merges = new io.mangacircus.reader.access.SeriesMerges(stores.merges().merges());
    sharedProgress = config.databaseConfig().sqlite() ? null : new SharedProgressCache(stores.progress(), clock);
    progress = new ReadingEvents(sharedProgress == null ? stores.progress() : sharedProgress);
    trackers = io.mangacircus.reader.trackers.TrackerFeature.create(vertx, config.trackers(), dataDir, stores,
        progress, files, registry, clock);
    return null;
  }

  private Optional<NewAdminPassword> ensureAdmin() throws StoreException {
    return io.mangacircus.reader.accounts.FirstAdmin.ensure(stores.users(), config.initialAdminPassword(), clock);
  }

  private Future<?> serve() {
    router = Router.router(vertx);
    publishedConsumer = vertx.eventBus().consumer(Addresses.LIBRARY_PUBLISHED,
        DecodingHandler.of(ChapterPublished::fromJson, (message, event) -> addPublished(files, event)));
    CatalogRoutes catalogRoutes = new CatalogRoutes(vertx, catalog, files, inventory::invalidate);
    TrustedProxies proxies = config.trustedProxies();
    AccessGuard guard = new AccessGuard(vertx, stores.sessions(), stores.appPasswords(), config.adminToken(),
        proxies, clock);
    statusRoutes = new ServiceStatusRoutes(vertx, inventory, clock, instance, startedAt);
    VisibleSeries visible = new VisibleSeries(inventory, catalog, accessesAtStart, merges);
    peers = io.mangacircus.reader.accounts.PeerReaders.join(vertx, instance, guard, stores, visible, merges);
    Optional.ofNullable(sharedProgress).ifPresent(peers::follow);
    peers.follow(catalog, inventory::invalidate);
    SeriesRouteGuard seriesGuard = new SeriesRouteGuard(visible, java.util.Map.of("series", id -> id,
        "book", book -> KomgaIds.chapter(book).map(KomgaIds.ChapterRef::seriesId).orElse(null)));
    // Cross-cutting, for every feature and in this order (docs/architecture.md §7): whatever fails anywhere answers in
    // the one error shape; under /api cross-site changes and bodies that are not JSON are refused before any body is
    // read, the body is read before the guard's asynchronous session look-up, and the guard checks the session or
    // admin token against what the route about to answer declares (learned below) before any feature routes it.
    ApiReplies.answerFailuresAsJson(router);
    ApiRequestRules requestRules = new ApiRequestRules(CatalogRoutes::isCoverUpload, ScraperAdminRoutes.MAX_BODY_BYTES,
        CatalogRoutes.MAX_COVER_BYTES);
    // One route per prefix with the handlers in turn: a request matches its prefix once, not once per handler (every
    // page image went through four /api/* matches).
    AccountsGate accountsGate = new AccountsGate(accountsReady);
    router.route("/api/*").handler(new SecretAnswers()).handler(requestRules).handler(requestRules.bodies())
        .handler(accountsGate).handler(guard).handler(seriesGuard);
    router.route("/opds/*").handler(accountsGate).handler(guard).handler(seriesGuard);
    router.route(KomgaRoutes.MOUNT + "/*").method(io.vertx.core.http.HttpMethod.PUT)
        .method(io.vertx.core.http.HttpMethod.PATCH)
        .handler(io.vertx.ext.web.handler.BodyHandler.create().setBodyLimit(KomgaProgressRoutes.MAX_BODY_BYTES));
    router.route(KomgaRoutes.MOUNT + "/*").handler(accountsGate).handler(guard).handler(seriesGuard);
    // KOReader sync authenticates each request by its own headers (KosyncRoutes), never by a session.
    router.route(KosyncRoutes.MOUNT + "/*").handler(accountsGate);
    // One feature a line, each its own router with paths relative to where it is mounted; features sharing a mount
    // point have no path in common, so the order of these lines does not matter for what answers (series first only
    // because page images are most of the requests; their route is on this router itself, no sub-router to enter).
    pageFiles = new OpenPageFiles(PAGE_FILES_KEPT, PAGE_FILES_IDLE, clock);
    ChapterArchives archives = new ChapterArchives(pageFiles);
    KosyncDocuments kosyncDocuments = new KosyncDocuments(files, archives, stores.kosync(), progress, clock);
    CbzDownload cbz = new CbzDownload(vertx, files, archives,
        download -> kosyncDocuments.recordServedInBackground(vertx, download));
    PageRoutes pages = new PageRoutes(vertx, files);
    pages.route(router);
    router.route(SeriesRoutes.MOUNT + "*").subRouter(new SeriesRoutes(vertx, inventory, files, progress, catalog,
        clock, cbz, pages::handleCover, new SourceLinks(vertx, config.scraperRequestTimeoutMs(), clock))
        .withProviderMetadata(new io.mangacircus.reader.library.providers.ProviderMetadataStore(dataDir)).router());
    router.route("/api/progress*").subRouter(new ProgressRoutes(vertx, files, progress, clock).router());
    ChapterAlerts alerts = new ChapterAlerts(vertx, stores.alerts(), files, clock,
        (user, series) -> visible.sees(visible.of(user, "reader"), series));
    router.route("/api/me/alerts*").subRouter(alerts.router());
    alertsConsumer = alerts.answerSubscribers();
    router.route("/api/catalog*").subRouter(catalogRoutes.router());
    var sessionStart = new io.mangacircus.reader.accounts.SessionStart(stores.sessions(),
        java.time.Duration.ofHours(config.sessionHours()), clock);
    router.route("/api/*").subRouter(new AccountRoutes(vertx, stores.users(), stores.sessions(), guard, sessionStart,
        sso.mount(vertx, router, stores.users(), sessionStart, proxies, guard, peers::accessChanged, clock)).router());
    router.route("/api/me/app-passwords*").subRouter(new AppPasswordRoutes(vertx, guard.appPasswords()).router());
    router.route("/api/me/password*").subRouter(new OwnPasswordRoutes(vertx, stores.users(), guard).router());
    new ReadingSettingsRoutes(vertx, stores.readingSettings(), files, clock).mount(router);
    AccessGuard.publicRoute(router.get("/api/system/info")).handler(this::handleInfo);
    router.route("/api/system/*").subRouter(new ShutdownRoutes(vertx, config.scraperRequestTimeoutMs()).router());
    router.route("/api/admin/users*").subRouter(new UserAdminRoutes(vertx, stores.users(), guard, clock,
        () -> java.util.Set.copyOf(collections.libraryNames()), peers::accessChanged).router());
    router.route("/api/admin/catalog*").subRouter(catalogRoutes.adminRouter());
    router.route("/api/admin/series*").subRouter(new io.mangacircus.reader.catalog.SeriesMergeRoutes(vertx, inventory,
        merges, stores.merges(), clock, peers::mergesChanged).router());
    router.route("/api/admin/*").subRouter(new LibraryAdminRoutes(vertx, inventory, collections).router());
    router.route("/api/admin/metadata*").subRouter(io.mangacircus.reader.library.providers.MetadataProviderRoutes
        .create(vertx, config.metadataProviders(), dataDir, inventory, clock).router());
    router.route("/api/admin/notifications*").subRouter(new NotificationRoutes(vertx).router());
    router.route("/api/admin/*").subRouter(statusRoutes.router());
    router.route("/api/admin/*").subRouter(new ScraperAdminRoutes(vertx, config.scraperRequestTimeoutMs()).router());
    router.route("/api/admin/*").subRouter(new TitleFinderRoutes(vertx, config.scraperRequestTimeoutMs(), inventory,
        files.root(), new CoverCache(dataDir.resolve("search-covers"), CoverCache.DEFAULT_MAX_FILES, clock)).router());
    router.route(OpdsRoutes.MOUNT + "*").subRouter(new OpdsRoutes(vertx, inventory, files, progress, catalog,
        cbz, new ProgressRecorder(files, progress, clock), proxies, pages::handleCover).router());
    KomgaBookRoutes books = new KomgaBookRoutes(vertx, files, clock, progress, cbz);
    books.routePages(router);
    router.route(KomgaRoutes.MOUNT + "*").subRouter(new KomgaRoutes(vertx, inventory, files, catalog, clock,
        pages::handleCover, progress, collections::libraryNames).router());
    router.route(KomgaRoutes.MOUNT + "*").subRouter(books.router());
    router.route(KomgaRoutes.MOUNT + "*").subRouter(new KomgaProgressRoutes(vertx, files, progress,
        new ProgressRecorder(files, progress, clock), clock).router());
    router.route(KosyncRoutes.MOUNT + "*").subRouter(new KosyncRoutes(vertx, kosyncAccounts == null
        ? KosyncAccounts.appPasswords(guard.appPasswords()) : kosyncAccounts.apply(stores),
        kosyncDocuments, stores.kosync(), progress, new ProgressRecorder(files, progress, clock),
        guard.loginThrottle(), guard::clientAddress, clock)
        .seeing((user, series) -> visible.sees(visible.of(user, "reader"), series)).router());
    trackers.mount(router);
    // After every feature: an /api, /opds or /komga request that none of them answered.
    router.route("/api/*").handler(this::handleUnknownApi);
    router.route("/opds/*").handler(this::handleUnknownApi);
    router.route(KomgaRoutes.MOUNT + "/*").handler(this::handleUnknownApi);
    guard.learnRoutes(router);
    seriesGuard.learn(router);
    router.route(ConsoleBridge.PATH).subRouter(new ConsoleBridge(vertx, guard, config.scraperRequestTimeoutMs())
        .router());
    router.route("/*").handler(new AdminPageGuard(guard));
    io.mangacircus.reader.http.StaticPages.mount(router);
    pingConsumer = vertx.eventBus().consumer(Addresses.READER_PING,
        DecodingHandler.of(PingRequest::fromJson, this::handlePing));
    return pingConsumer.completion().compose(v -> peers.ready()).onSuccess(v -> {
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
    if (alertsConsumer != null) {
      alertsConsumer.unregister();
    }
    if (peers != null) {
      peers.leave();
    }
    if (statusRoutes != null) {
      statusRoutes.close();
    }
    if (pageFiles != null) {
      pageFiles.closeAll();
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

  private void handleInfo(RoutingContext ctx) {
    ctx.json(new JsonObject().put("service", "reader").put("instance", instance).put("startedAt", startedAt)
        .put("version", io.mangacircus.reader.http.AppVersion.current()));
  }

  private void handleUnknownApi(RoutingContext ctx) {
    ctx.response().setStatusCode(404);
    ctx.json(new JsonObject().put("error", "not_found").put("message", "no API route " + ctx.request().path()));
  }
}
