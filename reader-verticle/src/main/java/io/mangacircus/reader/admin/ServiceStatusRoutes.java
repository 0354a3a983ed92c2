package io.mangacircus.reader.admin;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.contracts.ServiceStartRequest;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.LibraryScan;
import io.mangacircus.reader.store.Session;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code GET /api/admin/status}: the service-health view — the reader itself, whether the scraper answers its ping,
 * every launcher's supervision state as last published, and the library's scan status with what it skipped. It never
 * waits on a library scan, and a scraper that does not answer within {@link #PING_TIMEOUT} is reported unreachable.
 * {@code POST /api/admin/services/:service/start} asks the launcher whose service is blocked to retry it.
 */
public final class ServiceStatusRoutes {

  /** How long the scraper's ping may take before it is reported unreachable. */
  public static final Duration PING_TIMEOUT = Duration.ofMillis(1500);

  /** At most this many skipped library entries are listed (all are counted). */
  static final int SHOWN_SKIPS = 50;

  /** How long a retry start may take: the launcher answers once the new deploy attempt has been decided. */
  public static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private static final java.util.Set<String> SERVICES = java.util.Set.of("reader", "scraper");

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
  private final RetryStartTarget startTarget = new RetryStartTarget(SILENT_AFTER);
  private MessageConsumer<Object> statusConsumer;

  public ServiceStatusRoutes(Vertx vertx, LibraryInventory inventory, InstantSource clock, String readerInstance,
      long readerStartedAt) {
    this.vertx = vertx;
    this.inventory = inventory;
    this.clock = clock;
    this.readerInstance = readerInstance;
    this.readerStartedAt = readerStartedAt;
  }

  /** The routes, mounted at {@code /api/admin}, admin-only; starts listening to launcher status. */
  public Router router() {
    statusConsumer = vertx.eventBus().consumer(Addresses.LAUNCHER_STATUS, message -> {
      if (message.body() instanceof JsonObject status && status.getString("node") != null) {
        launchers.put(status.getString("node"), new Heard(status.copy(), clock.instant()));
      }
    });
    Router router = Router.router(vertx);
    AccessGuard.adminOnly(router.get("/status")).handler(this::handleStatus);
    AccessGuard.adminOnly(router.post("/services/:service/start")).handler(this::handleStart);
    return router;
  }

  /**
   * Forwards a retry start to the launcher {@code ?node=} names, else to the one whose service is blocked (several:
   * 409 {@code ambiguous}, the caller names one; none: to any launcher hosting it, whose refusal comes back as 409).
   */
  private void handleStart(RoutingContext ctx) {
    String service = ctx.pathParam("service");
    if (!SERVICES.contains(service)) {
      ApiReplies.error(ctx, 404, "not_found", "there is no service '" + service + "' (reader or scraper)");
      return;
    }
    String node = ctx.queryParams().get("node");
    if (node != null && node.isBlank()) {
      ApiReplies.error(ctx, 400, "bad_request", "the query parameter 'node' is empty: name a launcher as listed by "
          + "GET /api/admin/status (<mode>@<host>:<pid>), or leave it out");
      return;
    }
    List<RetryStartTarget.Launcher> heard = launchers.entrySet().stream().map(e -> new RetryStartTarget.Launcher(
        e.getKey(), e.getValue().at(), statusOfService(e.getValue().status()))).toList();
    RetryStartTarget.Choice choice = startTarget.choose(service, node, heard, clock.instant());
    if (choice instanceof RetryStartTarget.UnknownNode unknown) {
      ApiReplies.error(ctx, 404, "not_found", unknown.message());
    } else if (choice instanceof RetryStartTarget.Ambiguous ambiguous) {
      ctx.response().setStatusCode(409);
      ctx.json(new JsonObject().put("error", "ambiguous").put("message", "the " + service + " is blocked on "
          + ambiguous.nodes().size() + " launchers (" + String.join(", ", ambiguous.nodes()) + "): name one with "
          + "?node=").put("nodes", new JsonArray(ambiguous.nodes())));
    } else if (choice instanceof RetryStartTarget.ToNode to) {
      forwardStart(ctx, service, to.node());
    } else {
      forwardStart(ctx, service, null);
    }
  }

  /** Each service's status by name in a launcher's published status; entries without both are left out. */
  private static Map<String, String> statusOfService(JsonObject status) {
    Map<String, String> byService = new HashMap<>();
    for (Object entry : status.getJsonArray("services", new JsonArray())) {
      if (entry instanceof JsonObject state && state.getValue("service") instanceof String name
          && state.getValue("status") instanceof String wire) {
        byService.put(name, wire);
      }
    }
    return byService;
  }

  /** Sends the retry start to that launcher's own address, or with a null node to the service's shared one. */
  private void forwardStart(RoutingContext ctx, String service, String node) {
    Session session = ctx.get(AccessGuard.SESSION);
    String from = session == null ? "admin token" : "admin " + session.username();
    String address = node == null ? Addresses.serviceStartOf(service) : Addresses.serviceStartOf(node, service);
    vertx.eventBus().<JsonObject>request(address, new ServiceStartRequest(service, from).toJson(),
            new DeliveryOptions().setSendTimeout(START_TIMEOUT.toMillis()))
        .onSuccess(reply -> ctx.json(reply.body().getJsonObject("service")))
        .onFailure(t -> {
          if (!(t instanceof ReplyException reply)) {
            ApiReplies.error(ctx, 500, "internal_error", t.getMessage());
          } else if (reply.failureType() == ReplyFailure.NO_HANDLERS) {
            ApiReplies.error(ctx, 503, "launcher_unreachable", node == null ? "no running launcher hosts the "
                + service + " (not started, or not joined to the cluster yet)" : "the launcher '" + node
                + "' does not answer for the " + service + " (its process stopped, or it has not joined yet)");
          } else if (reply.failureType() == ReplyFailure.TIMEOUT) {
            ApiReplies.error(ctx, 503, "launcher_unreachable", "the " + service + "'s launcher did not answer within "
                + START_TIMEOUT.toSeconds() + " s");
          } else if (ErrorCode.ofCode(reply.failureCode()).orElse(null) == ErrorCode.ILLEGAL_TRANSITION) {
            ApiReplies.error(ctx, 409, "not_blocked", reply.getMessage());
          } else {
            ApiReplies.error(ctx, 500, "internal_error", reply.getMessage());
          }
        });
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
        .put("services", e.getValue().status().getJsonArray("services", new JsonArray()))
        .put("memory", e.getValue().status().getValue("memory") instanceof String memory ? memory : null)));
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
