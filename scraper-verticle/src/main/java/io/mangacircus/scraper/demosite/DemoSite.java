package io.mangacircus.scraper.demosite;

import io.mangacircus.scraper.demosite.DemoFaults.Fault;
import io.mangacircus.scraper.demosite.DemoFaults.Kind;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small local manga website serving the {@link DemoCatalog}, misbehaving as {@link DemoFaults} says, and counting
 * every request it sees; for tests and for trying MangaCircus without internet. GET only, plain HTTP/1.1.
 */
public final class DemoSite {

  private static final String HTML = "text/html; charset=utf-8";
  private static final Pattern PAGE_FILE = Pattern.compile("(\\d{3})\\.(jpg|png)");

  private final Vertx vertx;
  private final String host;
  private final DemoCatalog catalog;
  private final DemoFaults faults;
  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
  private final LongAdder imageRequests = new LongAdder();
  private volatile HttpServer server;

  private DemoSite(Vertx vertx, String host, DemoCatalog catalog, DemoFaults faults) {
    this.vertx = vertx;
    this.host = host;
    this.catalog = catalog;
    this.faults = faults;
  }

  /** Starts the site on {@code host:port}; port 0 picks a free port, see {@link #port()}. */
  public static Future<DemoSite> start(Vertx vertx, String host, int port, DemoCatalog catalog, DemoFaults faults) {
    DemoSite site = new DemoSite(vertx, host, catalog, faults);
    // No h2c upgrade: a reset or a hang must affect one request, not every stream of a shared connection.
    return vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(false))
        .requestHandler(site.router())
        .listen(port, host)
        .map(server -> {
          site.server = server;
          return site;
        });
  }

  public int port() {
    return server.actualPort();
  }

  /** Where the site answers, e.g. {@code http://127.0.0.1:41234}, without a trailing slash. */
  public String baseUrl() {
    return "http://" + host + ":" + port();
  }

  /** Stops listening and closes every open connection, hung ones included. */
  public Future<Void> close() {
    return server.close();
  }

  /** Requests seen for exactly this path (no query), whatever they were answered, faulted ones included. */
  public long requests(String path) {
    LongAdder count = counts.get(path);
    return count == null ? 0 : count.sum();
  }

  /** A sorted snapshot of {@link #requests(String)} for every path seen. */
  public Map<String, Long> requestCounts() {
    Map<String, Long> snapshot = new TreeMap<>();
    counts.forEach((path, count) -> snapshot.put(path, count.sum()));
    return snapshot;
  }

  /** Requests seen under {@code /img/}, all answers included. */
  public long imageRequests() {
    return imageRequests.sum();
  }

  private Router router() {
    Router router = Router.router(vertx);
    router.route().handler(this::handleArrival);
    router.get("/").handler(this::handleIndex);
    router.get("/search").handler(this::handleSearch);
    router.get("/series/:series").handler(this::handleSeries);
    router.get("/series/:series/chapter/:chapter").handler(this::handleChapter);
    router.get("/img/:series/:chapter/:file").handler(this::handleImage);
    router.errorHandler(404, ctx -> sendStatus(ctx, 404));
    router.errorHandler(405, ctx -> sendStatus(ctx, 405));
    return router;
  }

  private void handleArrival(RoutingContext ctx) {
    String path = ctx.request().path();
    counts.computeIfAbsent(path, p -> new LongAdder()).increment();
    if (path.startsWith("/img/")) {
      imageRequests.increment();
    }
    if (faults.hangs(path)) {
      return; // no answer: the connection stays open until the client gives up or the site closes
    }
    Optional<Fault> fault = faults.takeRequestFault(path);
    if (fault.isEmpty()) {
      ctx.next();
    } else if (fault.get().kind() == Kind.RESET) {
      ctx.request().connection().close();
    } else {
      sendStatus(ctx, fault.get().status());
    }
  }

  private void handleIndex(RoutingContext ctx) {
    sendHtml(ctx, DemoHtml.index(catalog.series()));
  }

  private void handleSearch(RoutingContext ctx) {
    String query = ctx.queryParams().get("q") == null ? "" : ctx.queryParams().get("q").trim()
        .toLowerCase(java.util.Locale.ROOT);
    sendHtml(ctx, DemoHtml.search(query, catalog.series().stream()
        .filter(s -> !query.isEmpty() && s.title().toLowerCase(java.util.Locale.ROOT).contains(query)).toList()));
  }

  private void handleSeries(RoutingContext ctx) {
    catalog.series(ctx.pathParam("series")).ifPresentOrElse(
        series -> sendHtml(ctx, DemoHtml.series(series)),
        () -> sendStatus(ctx, 404));
  }

  private void handleChapter(RoutingContext ctx) {
    String seriesId = ctx.pathParam("series");
    String chapterId = ctx.pathParam("chapter");
    catalog.chapter(seriesId, chapterId).ifPresentOrElse(
        chapter -> sendHtml(ctx, DemoHtml.chapter(catalog.series(seriesId).orElseThrow(), chapter,
            catalog.pageCount(seriesId, chapterId, faults.pageListChanged(seriesId, chapterId)))),
        () -> sendStatus(ctx, 404));
  }

  private void handleImage(RoutingContext ctx) {
    String seriesId = ctx.pathParam("series");
    String chapterId = ctx.pathParam("chapter");
    Matcher file = PAGE_FILE.matcher(ctx.pathParam("file"));
    Optional<DemoSeries> series = catalog.series(seriesId);
    if (!file.matches() || series.isEmpty() || catalog.chapter(seriesId, chapterId).isEmpty()
        || !file.group(2).equals(series.get().imageFormat())) {
      sendStatus(ctx, 404);
      return;
    }
    int page = Integer.parseInt(file.group(1));
    if (page < 1 || page > catalog.pageCount(seriesId, chapterId, faults.pageListChanged(seriesId, chapterId))) {
      sendStatus(ctx, 404);
      return;
    }
    Optional<Fault> fault = faults.takeImageFault(ctx.request().path());
    Duration delay = faults.pageDelay();
    vertx.executeBlocking(() -> catalog.pageImage(seriesId, chapterId, page), false)
        .onSuccess(bytes -> after(delay, () -> sendImage(ctx, series.get(), bytes, fault)))
        .onFailure(ctx::fail);
  }

  private void after(Duration delay, Runnable action) {
    if (delay.isZero()) {
      action.run();
    } else {
      vertx.setTimer(Math.max(1, delay.toMillis()), id -> action.run());
    }
  }

  private void sendImage(RoutingContext ctx, DemoSeries series, byte[] bytes, Optional<Fault> fault) {
    if (ctx.response().closed()) {
      return;
    }
    Kind kind = fault.map(Fault::kind).orElse(null);
    if (kind == Kind.HTML_INSTEAD_OF_IMAGE) {
      sendHtml(ctx, DemoHtml.imageError());
      return;
    }
    byte[] body = kind == Kind.TRUNCATE ? Arrays.copyOf(bytes, bytes.length / 2)
        : kind == Kind.DAMAGE ? damaged(bytes) : bytes;
    ctx.response().putHeader("Content-Type", series.contentType()).end(Buffer.buffer(body));
  }

  /** The image with its compressed data damaged as {@link DemoFaults#damageNext} says. */
  private static byte[] damaged(byte[] image) {
    byte[] copy = image.clone();
    java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(copy);
    if ((copy[0] & 0xFF) == 0xFF && (copy[1] & 0xFF) == 0xD8) {
      int p = 2;
      while ((copy[p + 1] & 0xFF) != 0xDA) {
        p += 2 + (buffer.getShort(p + 2) & 0xFFFF);
      }
      int scan = p + 2 + (buffer.getShort(p + 2) & 0xFFFF);
      int middle = scan + (copy.length - scan) / 2;
      copy[middle] = (byte) 0xFF;
      copy[middle + 1] = (byte) 0xD3;
      return copy;
    }
    int p = 8;
    while (buffer.getInt(p + 4) != 0x49444154) { // IDAT
      p += 12 + buffer.getInt(p);
    }
    int length = buffer.getInt(p);
    for (int i = length / 3; i < length / 2; i++) {
      copy[p + 8 + i] ^= 0x5A;
    }
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(copy, p + 4, 4 + length);
    buffer.putInt(p + 8 + length, (int) crc.getValue());
    return copy;
  }

  private static void sendHtml(RoutingContext ctx, String html) {
    ctx.response().putHeader("Content-Type", HTML).end(html);
  }

  private static void sendStatus(RoutingContext ctx, int status) {
    HttpServerResponse response = ctx.response().setStatusCode(status).putHeader("Content-Type", HTML);
    if (status == 429) {
      response.putHeader("Retry-After", "1");
    }
    response.end(DemoHtml.status(status, response.getStatusMessage()));
  }
}
