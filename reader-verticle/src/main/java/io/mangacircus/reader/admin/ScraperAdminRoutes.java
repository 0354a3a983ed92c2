package io.mangacircus.reader.admin;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.OperatorOperation;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The operator's scraper controls over HTTP ({@code /api/admin/jobs}, {@code lanes}, {@code incidents},
 * {@code discovery}): one route per {@link OperatorOperation}, forwarded to the scraper's event-bus request, and the
 * table of those operations' addresses the console's scripts send to over the bridge. The reader keeps no queue state
 * of its own.
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

  /** Where {@link #router} is mounted: every operation's path lies under it. */
  public static final String AREA = "/api/admin";

  /** Where the console's scripts read the bridge's addresses ({@link ConsoleBridge#addressTable()}). */
  public static final String CONSOLE_ADDRESSES = "/console/addresses";

  /**
   * One admin-only route per {@link OperatorOperation}, and the console's address table at
   * {@link #CONSOLE_ADDRESSES}, mounted at {@link #AREA}.
   */
  public Router router() {
    Router router = Router.router(vertx);
    JsonObject addresses = ConsoleBridge.addressTable();
    AccessGuard.adminOnly(router.get(CONSOLE_ADDRESSES)).handler(ctx -> ctx.json(addresses));
    for (OperatorOperation operation : OperatorOperation.values()) {
      if (!operation.path().startsWith(AREA + "/")) {
        throw new IllegalStateException(operation + " " + operation.path() + " is not under " + AREA);
      }
      AccessGuard.adminOnly(router.route(operation.method(), operation.path().substring(AREA.length())))
          .handler(ctx -> handle(ctx, operation));
    }
    return router;
  }

  /**
   * Builds the operation's request: {@code {v}}, the path parameters under their own names, the operation's body
   * fields from a JSON object body (400 when a body is needed and is not one) and its query parameters, checked here
   * (400 with the reason when they do not fit the request's contract, e.g. a page size above the cap).
   */
  private void handle(RoutingContext ctx, OperatorOperation operation) {
    JsonObject request = new JsonObject().put("v", operation.version());
    ctx.pathParams().forEach(request::put);
    if (!operation.bodyFields().isEmpty()) {
      JsonObject body = jsonBody(ctx);
      if (body == null) {
        return;
      }
      operation.bodyFields().forEach(field -> request.put(field, body.getValue(field)));
    }
    if (!operation.queryFields().isEmpty()) {
      operation.queryFields().forEach(field -> {
        String value = ctx.request().getParam(field);
        if (value != null) {
          request.put(field, value);
        }
      });
      try {
        operation.decoder().apply(request);
      } catch (InvalidMessageException e) {
        ApiReplies.error(ctx, 400, "bad_request", e.getMessage());
        return;
      }
    }
    forward(ctx, operation.address(), request, operation.successStatus());
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
        .onFailure(t -> ApiReplies.scraperFailure(ctx, t, timeoutMs));
  }

}
