package io.mangacircus.reader;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ChapterPublished;
import io.mangacircus.support.DecodingHandler;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.accounts.AccountRoutes;
import io.mangacircus.reader.accounts.AdminPageGuard;
import io.mangacircus.reader.accounts.GeneratedPassword;
import io.mangacircus.reader.accounts.UserAdminRoutes;
import io.mangacircus.reader.catalog.CatalogRoutes;
import io.mangacircus.reader.catalog.CatalogStore;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.SeriesRoutes;
import io.mangacircus.reader.progress.ProgressRoutes;
import io.mangacircus.reader.accounts.PasswordHasher;
import io.mangacircus.reader.accounts.ReaderDatabase;
import io.mangacircus.reader.accounts.Sessions;
import io.mangacircus.reader.admin.ConsoleBridge;
import io.mangacircus.reader.admin.ScraperAdminRoutes;
import io.mangacircus.reader.admin.ServiceStatusRoutes;
import io.mangacircus.reader.admin.ShutdownRoutes;
import io.mangacircus.reader.library.InventoryCache;
import io.mangacircus.reader.library.LibraryAdminRoutes;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.LibraryScanner;
import io.mangacircus.reader.library.SeriesEntry;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.http.ApiRequestRules;
import io.mangacircus.reader.http.HttpMount;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.StaticHandler;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The reader service: answers its liveness ping and serves the browser-facing routes through its mount. */
public final class ReaderVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ReaderVerticle.class);

  /** How long the first {@code GET /api/series} of a reader without a kept inventory waits for the first scan. */
  static final java.time.Duration FIRST_SCAN_WAIT = java.time.Duration.ofSeconds(10);

  private final ReaderConfig config;
  private final HttpMount mount;
  private final Path dataDir;
  private final MeterRegistry registry;
  private final InstantSource clock = InstantSource.system();
  private ReaderDatabase database;
  private CatalogStore catalog;
  private LibraryInventory inventory;
  private Optional<LibraryInventory.Snapshot> keptInventory = Optional.empty();
  private InventoryCache inventoryCache;
  private MessageConsumer<Object> publishedConsumer;
  private final String instance = UUID.randomUUID().toString();
  private long startedAt;
  private Router router;
  private ServiceStatusRoutes statusRoutes;
  private MessageConsumer<Object> pingConsumer;

  /**
   * @param dataDir the data folder; the reader owns {@code reader.db}, {@code catalog.json}, covers and
   *     {@code library-inventory.json} in it
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

  @Override
  public Future<?> start() {
    startedAt = System.currentTimeMillis();
    return vertx.executeBlocking(this::openDatabase).compose(v -> serve());
  }

  private Void openDatabase() throws java.sql.SQLException {
    catalog = CatalogStore.open(dataDir);
    database = ReaderDatabase.open(dataDir.resolve("reader.db"));
    inventoryCache = new InventoryCache(dataDir);
    keptInventory = inventoryCache.load();
    if (database.countAdmins() == 0) {
      boolean generated = config.initialAdminPassword().isEmpty();
      String secret = generated ? GeneratedPassword.create() : config.initialAdminPassword();
      String name = database.user("admin").isPresent() ? "admin-" + Sessions.newToken().substring(0, 6) : "admin";
      database.createUser(name, PasswordHasher.hash(secret.toCharArray()), "admin", clock.instant());
      if (generated) {
        // The one place the password is ever written: framed, so that the operator cannot miss it.
        LOG.warn("[ACCOUNTS] no admin account existed: created '{}' with a generated password, shown below only this "
            + "once", name);
        // One log event a line: the log escapes line breaks inside an event, so a multi-line message would arrive as
        // one long line and the frame would be lost.
        GeneratedPassword.notice("first start: created the admin account", name, secret).lines()
            .forEach(line -> LOG.warn("{}", line));
      } else {
        LOG.info("[ACCOUNTS] no admin account existed: created '{}' with MANGACIRCUS_ADMIN_PASSWORD", name);
      }
    }
    return null;
  }

  private Future<?> serve() {
    router = Router.router(vertx);
    LibraryFiles files = new LibraryFiles(dataDir.resolve("library"));
    LibraryScanner scanner = new LibraryScanner(files);
    Counter scans = registry == null ? null : Counter.builder("mc.library.scans")
        .description("Full scans of the library folder by the reader").register(registry);
    // No refresh by age: publication events keep the list current; a missed one, the operator or a restart rescans.
    inventory = new LibraryInventory(() -> {
      if (scans != null) {
        scans.increment();
      }
      return scanner.scan();
    }, command -> vertx.executeBlocking(() -> {
      command.run();
      return null;
    }, false), clock, null, java.time.Duration.ofMinutes(1))
        .keepWith(inventoryCache::save);
    keptInventory.ifPresent(inventory::seed);
    // The first scan starts now, not with the first request: the list is current by the time someone asks.
    inventory.summary();
    publishedConsumer = vertx.eventBus().consumer(Addresses.LIBRARY_PUBLISHED,
        DecodingHandler.of(ChapterPublished::fromJson, (message, event) -> addPublished(files, event)));
    CatalogRoutes catalogRoutes = new CatalogRoutes(vertx, catalog, files, inventory::invalidate);
    AccessGuard guard = new AccessGuard(vertx, database, config.adminToken(), clock);
    // Whatever fails anywhere on this router answers in the one error shape; under /api cross-site changes and bodies
    // that are not JSON are refused before any body is read or session looked up.
    ApiReplies.answerFailuresAsJson(router);
    router.route("/api/*").handler(new ApiRequestRules(CatalogRoutes::isCoverUpload, ScraperAdminRoutes.MAX_BODY_BYTES,
        CatalogRoutes.MAX_COVER_BYTES));
    catalogRoutes.mountCoverBody(router);
    // The body is read before the guard's asynchronous session look-up, so no request ends unread.
    router.route("/api/*").handler(BodyHandler.create().setBodyLimit(ScraperAdminRoutes.MAX_BODY_BYTES));
    router.route("/api/*").handler(guard);
    SeriesRoutes seriesRoutes = new SeriesRoutes(vertx, files, database, catalog, clock);
    seriesRoutes.mountPages(router);
    new AccountRoutes(vertx, database, guard, java.time.Duration.ofHours(config.sessionHours()), clock).mount(router);
    router.get("/api/system/info").handler(this::handleInfo);
    router.get("/api/series").handler(this::handleSeries);
    seriesRoutes.mount(router);
    new ProgressRoutes(vertx, files, database, clock).mount(router);
    catalogRoutes.mount(router);
    new UserAdminRoutes(vertx, database, guard, clock).mount(router);
    new ScraperAdminRoutes(vertx, config.scraperRequestTimeoutMs()).mount(router);
    new ShutdownRoutes(vertx, config.scraperRequestTimeoutMs()).mount(router);
    new LibraryAdminRoutes(inventory).mount(router);
    statusRoutes = new ServiceStatusRoutes(vertx, inventory, clock, instance, startedAt);
    statusRoutes.mount(router);
    router.route("/api/*").handler(this::handleUnknownApi);
    guard.learnAdminRoutes(router);
    new ConsoleBridge(vertx, guard, config.scraperRequestTimeoutMs()).mount(router);
    router.route("/admin/*").handler(new AdminPageGuard(guard));
    // Pages and scripts are revalidated on every load (a 304 when unchanged), so an upgrade is seen at once and an
    // admin page is never shown from a cache to whoever uses the browser next.
    router.route("/*").handler(ctx -> {
      String policy = ctx.normalizedPath().startsWith("/admin/") ? "no-store" : "no-cache";
      ctx.addHeadersEndHandler(v -> ctx.response().headers().set("Cache-Control", policy));
      ctx.next();
    });
    // Versioned paths of pinned WebJars (sockjs-client for the console's bridge): the same URL never changes content.
    router.route("/webjars/*").handler(StaticHandler.create("META-INF/resources/webjars").setMaxAgeSeconds(86_400));
    router.route("/*").handler(StaticHandler.create("webroot"));
    pingConsumer = vertx.eventBus().consumer(Addresses.READER_PING,
        DecodingHandler.of(PingRequest::fromJson, this::handlePing));
    return pingConsumer.completion().onSuccess(v -> {
      mount.attach(router);
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
    if (statusRoutes != null) {
      statusRoutes.close();
    }
    Future<Void> unregistered = pingConsumer == null ? Future.succeededFuture() : pingConsumer.unregister();
    return unregistered.eventually(() -> vertx.executeBlocking(() -> {
      if (database != null) {
        database.close();
      }
      return null;
    }));
  }

  private void handlePing(Message<Object> message, PingRequest request) {
    message.reply(new PingReply("reader", instance, startedAt).toJson());
  }

  /**
   * {@code GET /api/series?q=&sort=title|updated}: the library list, answered at once from the inventory; only before
   * this process has any inventory (no kept one, first scan still running) it waits for that scan, at most
   * {@link #FIRST_SCAN_WAIT}.
   */
  private void handleSeries(RoutingContext ctx) {
    java.util.concurrent.CompletableFuture<LibraryInventory.Summary> first = inventory.firstAnswer();
    if (first.isDone()) {
      answerSeries(ctx, inventory.summary());
      return;
    }
    Future.fromCompletionStage(first, vertx.getOrCreateContext())
        .timeout(FIRST_SCAN_WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
        .onComplete(ar -> {
          if (!ctx.response().ended() && !ctx.response().closed()) {
            answerSeries(ctx, inventory.summary());
          }
        });
  }

  private static void answerSeries(RoutingContext ctx, LibraryInventory.Summary summary) {
    String query = ctx.request().getParam("q", "").trim().toLowerCase(java.util.Locale.ROOT);
    java.util.stream.Stream<SeriesEntry> series = summary.series().stream()
        .filter(s -> query.isEmpty() || s.title().toLowerCase(java.util.Locale.ROOT).contains(query));
    if ("updated".equals(ctx.request().getParam("sort"))) {
      series = series.sorted(java.util.Comparator.comparing(SeriesEntry::updatedAt).reversed());
    }
    io.vertx.core.json.JsonArray list = new io.vertx.core.json.JsonArray();
    series.forEach(s -> list.add(new JsonObject().put("id", s.id()).put("title", s.title()).put("source", s.source())
        .put("titleId", s.titleId()).put("chapters", s.chapters()).put("updatedAt", s.updatedAt().toString())));
    ctx.json(new JsonObject().put("libraryStatus", summary.status().wire())
        .put("scannedAt", summary.scannedAt() == null ? null : summary.scannedAt().toString())
        .put("error", summary.error()).put("series", list));
  }

  private void handleInfo(RoutingContext ctx) {
    ctx.json(new JsonObject().put("service", "reader").put("instance", instance).put("startedAt", startedAt));
  }

  private void handleUnknownApi(RoutingContext ctx) {
    ctx.response().setStatusCode(404);
    ctx.json(new JsonObject().put("error", "not_found").put("message", "no API route " + ctx.request().path()));
  }
}
