package io.mangacircus.reader.admin;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.LibraryScan;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code GET /api/admin/status}: the service-health view — the reader itself, whether the scraper answers its ping,
 * every launcher's supervision state as last published, and the library's scan status with what it skipped. It never
 * waits on a library scan, and a scraper that does not answer within {@link #PING_TIMEOUT} is reported unreachable.
 */
public final class ServiceStatusRoutes {

  /** How long the scraper's ping may take before it is reported unreachable. */
  public static final Duration PING_TIMEOUT = Duration.ofMillis(1500);

  /** At most this many skipped library entries are listed (all are counted). */
  static final int SHOWN_SKIPS = 50;

  /** A launcher not heard from for this long (two missed 5 s publications) is shown as silent. */
  static final Duration SILENT_AFTER = Duration.ofSeconds(12);

  private record Heard(JsonObject status, Instant at) {
  }

  private final Vertx vertx;
  private final LibraryInventory inventory;
  private final InstantSource clock;
  private final String readerInstance;
  private final long readerStartedAt;
  private final Map<String, Heard> launchers = new ConcurrentHashMap<>();
  private MessageConsumer<Object> statusConsumer;

  public ServiceStatusRoutes(Vertx vertx, LibraryInventory inventory, InstantSource clock, String readerInstance,
      long readerStartedAt) {
    this.vertx = vertx;
    this.inventory = inventory;
    this.clock = clock;
    this.readerInstance = readerInstance;
    this.readerStartedAt = readerStartedAt;
  }

  /** Mounts the route and starts listening to launcher status; the access guard already covers {@code /api/*}. */
  public void mount(Router router) {
    statusConsumer = vertx.eventBus().consumer(Addresses.LAUNCHER_STATUS, message -> {
      if (message.body() instanceof JsonObject status && status.getString("node") != null) {
        launchers.put(status.getString("node"), new Heard(status.copy(), clock.instant()));
      }
    });
    router.get("/api/admin/status").handler(this::handleStatus);
  }

  /** Stops listening. */
  public Future<Void> close() {
    return statusConsumer == null ? Future.succeededFuture() : statusConsumer.unregister();
  }

  private void handleStatus(RoutingContext ctx) {
    Instant now = clock.instant();
    JsonObject reader = new JsonObject().put("status", "up").put("instance", readerInstance)
        .put("startedAt", readerStartedAt);
    JsonArray supervisors = new JsonArray();
    launchers.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> supervisors.add(new JsonObject()
        .put("node", e.getKey()).put("heardAt", e.getValue().at().toString())
        .put("silent", e.getValue().at().plus(SILENT_AFTER).isBefore(now))
        .put("services", e.getValue().status().getJsonArray("services", new JsonArray()))));
    LibraryInventory.Summary summary = inventory.summary();
    JsonObject library = new JsonObject().put("status", summary.status().wire())
        .put("scannedAt", summary.scannedAt() == null ? null : summary.scannedAt().toString())
        .put("series", summary.series().size()).put("error", summary.error())
        .put("skipped", new JsonObject().put("count", summary.skipped().size()).put("reasons", new JsonArray(
            summary.skipped().stream().limit(SHOWN_SKIPS).map(LibraryScan.Skipped::toString).toList())));
    vertx.eventBus().<JsonObject>request(Addresses.SCRAPER_PING, new PingRequest("console").toJson(),
        new DeliveryOptions().setSendTimeout(PING_TIMEOUT.toMillis())).onComplete(ar -> {
          JsonObject scraper;
          if (ar.succeeded()) {
            JsonObject pong = ar.result().body();
            scraper = new JsonObject().put("status", "reachable").put("instance", pong.getString("instance"))
                .put("startedAt", pong.getValue("startedAt"));
          } else {
            String why = ar.cause() instanceof ReplyException reply ? reply.failureType().name() : "ERROR";
            scraper = new JsonObject().put("status", "unreachable").put("reason", why)
                .put("message", ar.cause().getMessage());
          }
          ctx.json(new JsonObject().put("reader", reader).put("scraper", scraper).put("supervisors", supervisors)
              .put("library", library).put("checkedAt", now.toString()));
        });
  }
}
