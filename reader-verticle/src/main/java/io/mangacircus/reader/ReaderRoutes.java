package io.mangacircus.reader;

import io.mangacircus.reader.access.SeriesMerges;
import io.mangacircus.reader.access.UserAccess;
import io.mangacircus.reader.access.VisibleSeries;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.accounts.AccountRoutes;
import io.mangacircus.reader.accounts.AccountsGate;
import io.mangacircus.reader.accounts.AdminPageGuard;
import io.mangacircus.reader.accounts.AppPasswordRoutes;
import io.mangacircus.reader.accounts.OwnPasswordRoutes;
import io.mangacircus.reader.accounts.PeerReaders;
import io.mangacircus.reader.accounts.SeriesRouteGuard;
import io.mangacircus.reader.accounts.SessionStart;
import io.mangacircus.reader.accounts.UserAdminRoutes;
import io.mangacircus.reader.accounts.oidc.SingleSignOn;
import io.mangacircus.reader.admin.ConsoleBridge;
import io.mangacircus.reader.admin.NotificationRoutes;
import io.mangacircus.reader.admin.ScraperAdminRoutes;
import io.mangacircus.reader.admin.ServiceStatusRoutes;
import io.mangacircus.reader.admin.ShutdownRoutes;
import io.mangacircus.reader.alerts.ChapterAlerts;
import io.mangacircus.reader.catalog.CatalogRoutes;
import io.mangacircus.reader.catalog.KeptCatalog;
import io.mangacircus.reader.catalog.SeriesMergeRoutes;
import io.mangacircus.reader.finder.CoverCache;
import io.mangacircus.reader.finder.TitleFinderRoutes;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.http.ApiRequestRules;
import io.mangacircus.reader.http.AppVersion;
import io.mangacircus.reader.http.SecretAnswers;
import io.mangacircus.reader.http.StaticPages;
import io.mangacircus.reader.http.TrustedProxies;
import io.mangacircus.reader.komga.KomgaBookRoutes;
import io.mangacircus.reader.komga.KomgaIds;
import io.mangacircus.reader.komga.KomgaProgressRoutes;
import io.mangacircus.reader.komga.KomgaRoutes;
import io.mangacircus.reader.kosync.KosyncAccounts;
import io.mangacircus.reader.kosync.KosyncDocuments;
import io.mangacircus.reader.kosync.KosyncRoutes;
import io.mangacircus.reader.library.CbzDownload;
import io.mangacircus.reader.library.ChapterArchives;
import io.mangacircus.reader.library.CollectionUpkeep;
import io.mangacircus.reader.library.LibraryAdminRoutes;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.OpenPageFiles;
import io.mangacircus.reader.library.SeriesRoutes;
import io.mangacircus.reader.library.SourceLinks;
import io.mangacircus.reader.library.providers.MetadataProviderRoutes;
import io.mangacircus.reader.library.providers.ProviderMetadataStore;
import io.mangacircus.reader.opds.OpdsRoutes;
import io.mangacircus.reader.pages.PageRoutes;
import io.mangacircus.reader.progress.ProgressRecorder;
import io.mangacircus.reader.progress.ProgressRoutes;
import io.mangacircus.reader.progress.ReadingEvents;
import io.mangacircus.reader.progress.ReadingSettingsRoutes;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.SharedProgressCache;
import io.mangacircus.reader.trackers.TrackerFeature;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The reader's router: every feature mounted in the order docs/architecture.md §7 sets (the cross-cutting handlers
 * first, one line a feature, then the answer to an unknown API path and the static pages), and what those features
 * hold open, closed again when the reader stops.
 */
final class ReaderRoutes {

  /** Page files kept open between CBZ sends at most (docs/operations.md), and how long an unused one stays open. */
  static final int PAGE_FILES_KEPT = 256;
  static final Duration PAGE_FILES_IDLE = Duration.ofSeconds(30);

  /**
   * What the features are built from: the reader's settings, its opened stores and the state it keeps in memory.
   *
   * @param instance this reader's id (its ping, the status page, the cluster's peer messages)
   * @param sharedProgress the progress cache of a reader on a shared database; null on SQLite
   * @param accountsReady completes once the first start's admin account exists
   * @param kosyncAccounts who may sync over KOReader's protocol; null: the users' app passwords
   */
  record Parts(Vertx vertx, ReaderConfig config, Path dataDir, InstantSource clock, String instance, long startedAt,
      ReaderStores stores, ReadingEvents progress, SharedProgressCache sharedProgress, KeptCatalog catalog,
      LibraryInventory inventory, LibraryFiles files, CollectionUpkeep collections,
      Map<String, UserAccess> accessesAtStart, SeriesMerges merges, TrackerFeature trackers, SingleSignOn sso,
      Future<Void> accountsReady, Function<ReaderStores, KosyncAccounts> kosyncAccounts) {
  }

  private final Vertx vertx;
  private final ReaderConfig config;
  private final Path dataDir;
  private final InstantSource clock;
  private final String instance;
  private final long startedAt;
  private final ReaderStores stores;
  private final ReadingEvents progress;
  private final SharedProgressCache sharedProgress;
  private final KeptCatalog catalog;
  private final LibraryInventory inventory;
  private final LibraryFiles files;
  private final CollectionUpkeep collections;
  private final Map<String, UserAccess> accessesAtStart;
  private final SeriesMerges merges;
  private final TrackerFeature trackers;
  private final SingleSignOn sso;
  private final Future<Void> accountsReady;
  private final Function<ReaderStores, KosyncAccounts> kosyncAccounts;
  private ServiceStatusRoutes statusRoutes;
  private PeerReaders peers;
  private OpenPageFiles pageFiles;
  private MessageConsumer<Object> alertsConsumer;

  ReaderRoutes(Parts parts) {
    this.vertx = parts.vertx();
    this.config = parts.config();
    this.dataDir = parts.dataDir();
    this.clock = parts.clock();
    this.instance = parts.instance();
    this.startedAt = parts.startedAt();
    this.stores = parts.stores();
    this.progress = parts.progress();
    this.sharedProgress = parts.sharedProgress();
    this.catalog = parts.catalog();
    this.inventory = parts.inventory();
    this.files = parts.files();
    this.collections = parts.collections();
    this.accessesAtStart = parts.accessesAtStart();
    this.merges = parts.merges();
    this.trackers = parts.trackers();
    this.sso = parts.sso();
    this.accountsReady = parts.accountsReady();
    this.kosyncAccounts = parts.kosyncAccounts();
  }

  /** The router with every feature mounted; the reader joins its peers meanwhile ({@link #ready()}). */
  Router build() {
    Router router = Router.router(vertx);
    CatalogRoutes catalogRoutes = new CatalogRoutes(vertx, catalog, files, inventory::invalidate);
    TrustedProxies proxies = config.trustedProxies();
    AccessGuard guard = new AccessGuard(vertx, stores.sessions(), stores.appPasswords(), config.adminToken(),
        proxies, clock);
    statusRoutes = new ServiceStatusRoutes(vertx, inventory, clock, instance, startedAt);
    VisibleSeries visible = new VisibleSeries(inventory, catalog, accessesAtStart, merges);
    peers = PeerReaders.join(vertx, instance, guard, stores, visible, merges);
    Optional.ofNullable(sharedProgress).ifPresent(peers::follow);
    peers.follow(catalog, inventory::invalidate);
    SeriesRouteGuard seriesGuard = new SeriesRouteGuard(visible, Map.of("series", id -> id,
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
    router.route(KomgaRoutes.MOUNT + "/*").method(HttpMethod.PUT)
        .method(HttpMethod.PATCH)
        .handler(BodyHandler.create().setBodyLimit(KomgaProgressRoutes.MAX_BODY_BYTES));
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
        .withProviderMetadata(new ProviderMetadataStore(dataDir)).router());
    router.route("/api/progress*").subRouter(new ProgressRoutes(vertx, files, progress, clock).router());
    ChapterAlerts alerts = new ChapterAlerts(vertx, stores.alerts(), files, clock,
        (user, series) -> visible.sees(visible.of(user, "reader"), series));
    router.route("/api/me/alerts*").subRouter(alerts.router());
    alertsConsumer = alerts.answerSubscribers();
    router.route("/api/catalog*").subRouter(catalogRoutes.router());
    var sessionStart = new SessionStart(stores.sessions(),
        Duration.ofHours(config.sessionHours()), clock);
    router.route("/api/*").subRouter(new AccountRoutes(vertx, stores.users(), stores.sessions(), guard, sessionStart,
        sso.mount(vertx, router, stores.users(), sessionStart, proxies, guard, peers::accessChanged, clock)).router());
    router.route("/api/me/app-passwords*").subRouter(new AppPasswordRoutes(vertx, guard.appPasswords()).router());
    router.route("/api/me/password*").subRouter(new OwnPasswordRoutes(vertx, stores.users(), guard).router());
    new ReadingSettingsRoutes(vertx, stores.readingSettings(), files, clock).mount(router);
    AccessGuard.publicRoute(router.get("/api/system/info")).handler(this::handleInfo);
    router.route("/api/system/*").subRouter(new ShutdownRoutes(vertx, config.scraperRequestTimeoutMs()).router());
    router.route("/api/admin/users*").subRouter(new UserAdminRoutes(vertx, stores.users(), guard, clock,
        () -> Set.copyOf(collections.libraryNames()), peers::accessChanged).router());
    router.route("/api/admin/catalog*").subRouter(catalogRoutes.adminRouter());
    router.route("/api/admin/series*").subRouter(new SeriesMergeRoutes(vertx, inventory,
        merges, stores.merges(), clock, peers::mergesChanged).router());
    router.route("/api/admin/*").subRouter(new LibraryAdminRoutes(vertx, inventory, collections).router());
    router.route("/api/admin/metadata*").subRouter(MetadataProviderRoutes
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
    StaticPages.mount(router);
    return router;
  }

  /** Completes once the reader has joined its peers on the cluster (at once without one). */
  Future<Void> ready() {
    return peers.ready();
  }

  /** Closes what the features hold: consumers, the peers' membership, open page files. */
  void close() {
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
  }

  private void handleInfo(RoutingContext ctx) {
    ctx.json(new JsonObject().put("service", "reader").put("instance", instance).put("startedAt", startedAt)
        .put("version", AppVersion.current()));
  }

  private void handleUnknownApi(RoutingContext ctx) {
    ctx.response().setStatusCode(404);
    ctx.json(new JsonObject().put("error", "not_found").put("message", "no API route " + ctx.request().path()));
  }
}
