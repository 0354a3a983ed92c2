package io.mangacircus.reader.admin;

import io.mangacircus.contracts.AddTitleRequest;
import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.JobRequest;
import io.mangacircus.contracts.LanePacingRequest;
import io.mangacircus.contracts.LaneRequest;
import io.mangacircus.contracts.ScraperRequests;
import io.mangacircus.reader.http.ApiReplies;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /api/admin/jobs} and {@code /api/admin/lanes}: the operator's scraper controls over HTTP, forwarded to the
 * scraper's event-bus requests. The reader keeps no queue state of its own.
 */
public final class ScraperAdminRoutes {

  /** Largest request body accepted on {@code /api} routes, bytes. */
  public static final long MAX_BODY_BYTES = 64 * 1024;

  private final Vertx vertx;
  private final long timeoutMs;

  public ScraperAdminRoutes(Vertx vertx, long timeoutMs) {
    this.vertx = vertx;
    this.timeoutMs = timeoutMs;
  }

  /** Mounts the routes on {@code router}; the reader's access guard already covers {@code /api/*}. */
  public void mount(Router router) {
    router.get("/api/admin/jobs").handler(ctx -> forward(ctx, Addresses.SCRAPER_JOBS_LIST, ScraperRequests.list(), 200));
    router.post("/api/admin/jobs").handler(this::handleAdd);
    for (String action : new String[] {"confirm", "pause", "resume", "retry"}) {
      router.post("/api/admin/jobs/:id/" + action).handler(ctx -> forward(ctx, "mc.scraper.jobs." + action,
          new JobRequest(ctx.pathParam("id")).toJson(), 200));
    }
    router.get("/api/admin/incidents").handler(ctx -> forward(ctx, Addresses.SCRAPER_INCIDENTS_LIST,
        ScraperRequests.list(), 200));
    router.get("/api/admin/lanes").handler(ctx -> forward(ctx, Addresses.SCRAPER_LANES_LIST, ScraperRequests.list(), 200));
    router.post("/api/admin/lanes/:source/pause").handler(ctx -> forward(ctx, Addresses.SCRAPER_LANES_PAUSE,
        new LaneRequest(ctx.pathParam("source")).toJson(), 200));
    router.post("/api/admin/lanes/:source/resume").handler(ctx -> forward(ctx, Addresses.SCRAPER_LANES_RESUME,
        new LaneRequest(ctx.pathParam("source")).toJson(), 200));
    router.put("/api/admin/lanes/:source/pacing").handler(this::handlePacing);
    router.get("/api/admin/discovery").handler(ctx -> forward(ctx, Addresses.SCRAPER_DISCOVERY_GET,
        ScraperRequests.list(), 200));
    router.put("/api/admin/discovery").handler(ctx -> {
      JsonObject body = jsonBody(ctx);
      if (body != null) {
        forward(ctx, Addresses.SCRAPER_DISCOVERY_SET, new JsonObject().put("v", 1)
            .put("enabled", body.getValue("enabled")).put("time", body.getValue("time")), 200);
      }
    });
    router.post("/api/admin/discovery/run").handler(ctx -> forward(ctx, Addresses.SCRAPER_DISCOVERY_RUN,
        ScraperRequests.list(), 200));
  }

  private void handleAdd(RoutingContext ctx) {
    JsonObject body = jsonBody(ctx);
    if (body == null) {
      return;
    }
    Object auto = body.getValue("autoConfirm");
    JsonObject request = new JsonObject().put("v", AddTitleRequest.VERSION).put("source", body.getValue("source"))
        .put("title", body.getValue("title")).put("autoConfirm", auto);
    forward(ctx, Addresses.SCRAPER_JOBS_ADD, request, 201);
  }

  private void handlePacing(RoutingContext ctx) {
    JsonObject body = jsonBody(ctx);
    if (body == null) {
      return;
    }
    JsonObject request = new JsonObject().put("v", LanePacingRequest.VERSION).put("source", ctx.pathParam("source"))
        .put("pageDelayMs", body.getValue("pageDelayMs")).put("chapterDelayMs", body.getValue("chapterDelayMs"));
    forward(ctx, Addresses.SCRAPER_LANES_PACING, request, 200);
  }

  private static JsonObject jsonBody(RoutingContext ctx) {
    try {
      JsonObject body = ctx.body().asJsonObject();
      if (body == null) {
        ApiReplies.error(ctx, 400, "bad_request", "the request body must be a JSON object");
        return null;
      }
      return ApiReplies.refuseControlCharacters(ctx, body) ? null : body;
    } catch (DecodeException | ClassCastException e) {
      ApiReplies.error(ctx, 400, "bad_request", "the request body is not a JSON object");
      return null;
    }
  }

  private void forward(RoutingContext ctx, String address, JsonObject request, int successStatus) {
    vertx.eventBus().<JsonObject>request(address, request, new DeliveryOptions().setSendTimeout(timeoutMs))
        .onSuccess(reply -> {
          JsonObject body = reply.body().copy();
          body.remove("v");
          int status = successStatus == 201 && !body.getBoolean("created", true) ? 200 : successStatus;
          ctx.response().setStatusCode(status);
          ctx.json(body);
        })
        .onFailure(t -> {
          if (!(t instanceof ReplyException reply)) {
            ApiReplies.error(ctx, 500, "internal_error", t.toString());
            return;
          }
          switch (reply.failureType()) {
            case NO_HANDLERS -> ApiReplies.error(ctx, 503, "scraper_unreachable", "the scraper is unreachable (not running, "
                + "parked or not yet joined); see /health/ready");
            case TIMEOUT -> ApiReplies.error(ctx, 503, "scraper_unreachable", "the scraper did not answer within "
                + timeoutMs + " ms");
            default -> {
              ErrorCode code = ErrorCode.ofCode(reply.failureCode()).orElse(ErrorCode.INTERNAL_ERROR);
              int status = switch (code) {
                case MALFORMED_MESSAGE, UNSUPPORTED_VERSION, UNKNOWN_SOURCE -> 400;
                case NOT_FOUND -> 404;
                case ILLEGAL_TRANSITION -> 409;
                case NOT_READY -> 503;
                default -> 500;
              };
              ApiReplies.error(ctx, status, code.name().toLowerCase(java.util.Locale.ROOT), reply.getMessage());
            }
          }
        });
  }

}
