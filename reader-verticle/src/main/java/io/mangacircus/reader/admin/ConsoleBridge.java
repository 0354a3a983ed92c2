package io.mangacircus.reader.admin;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.OperatorOperation;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.accounts.Sessions;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.http.SameOrigin;
import io.vertx.core.Vertx;
import io.vertx.core.http.Cookie;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.bridge.BridgeEventType;
import io.vertx.ext.bridge.PermittedOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.sockjs.BridgeEvent;
import io.vertx.ext.web.handler.sockjs.SockJSBridgeOptions;
import io.vertx.ext.web.handler.sockjs.SockJSHandler;
import io.vertx.ext.web.handler.sockjs.SockJSHandlerOptions;
import io.vertx.ext.web.handler.sockjs.Transport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The admin console's SockJS event-bus bridge at {@code /eventbus/*}: admin sessions only, browser sends only to the
 * scraper's operator addresses, and only progress, status and incident events go out; over WebSocket or XHR only (no
 * JSONP, htmlfile, EventSource or iframe). It keeps no state of its own.
 */
public final class ConsoleBridge {

  /** Where the bridge is mounted. */
  public static final String PATH = "/eventbus/*";

  /**
   * Addresses the browser may send requests to: exactly the scraper's operator operations ({@link OperatorOperation}),
   * the same table the HTTP admin routes come from. Everything else is refused.
   */
  public static final List<String> INBOUND = java.util.Arrays.stream(OperatorOperation.values())
      .map(OperatorOperation::address).toList();

  /** Published events the browser may receive, by the name the console's scripts subscribe with. */
  public static final Map<String, String> EVENTS = events();

  /** Published events the browser may receive. Everything else is refused. */
  public static final List<String> OUTBOUND = List.copyOf(EVENTS.values());

  private static Map<String, String> events() {
    Map<String, String> events = new LinkedHashMap<>();
    events.put("JOB_PROGRESS", Addresses.SCRAPER_JOB_PROGRESS);
    events.put("CIRCUIT_STATE", Addresses.SCRAPER_CIRCUIT_STATE);
    events.put("INCIDENT_RECORDED", Addresses.SCRAPER_INCIDENT_RECORDED);
    events.put("LAUNCHER_STATUS", Addresses.LAUNCHER_STATUS);
    events.put("LIBRARY_PUBLISHED", Addresses.LIBRARY_PUBLISHED);
    return java.util.Collections.unmodifiableMap(events);
  }

  /**
   * The addresses the console's scripts use, so that they name none themselves: {@code requests} maps each
   * {@link OperatorOperation}'s name ({@code JOBS_LIST}) to its address, {@code events} each of {@link #EVENTS}.
   * Exactly what the bridge permits, in and out.
   */
  public static JsonObject addressTable() {
    JsonObject requests = new JsonObject();
    for (OperatorOperation operation : OperatorOperation.values()) {
      requests.put(operation.name(), operation.address());
    }
    JsonObject events = new JsonObject();
    EVENTS.forEach(events::put);
    return new JsonObject().put("requests", requests).put("events", events);
  }

  /** The SockJS transports that are off: all but WebSocket and XHR (streaming and polling). */
  static final List<Transport> DISABLED_TRANSPORTS = List.of(Transport.JSON_P, Transport.HTML_FILE,
      Transport.EVENT_SOURCE);

  /** Where the admitted session token is kept on the routing context (SockJS hides cookies from its sockets). */
  private static final String TOKEN = "mc.bridge.token";

  private final Vertx vertx;
  private final AccessGuard guard;
  private final long replyTimeoutMs;

  /**
   * @param replyTimeoutMs how long a browser's request waits for the scraper's reply, ms
   */
  public ConsoleBridge(Vertx vertx, AccessGuard guard, long replyTimeoutMs) {
    this.vertx = vertx;
    this.guard = guard;
    this.replyTimeoutMs = replyTimeoutMs;
  }

  /** The admission check and the bridge, mounted at {@link #PATH}. */
  public Router router() {
    SockJSBridgeOptions options = new SockJSBridgeOptions().setReplyTimeout(replyTimeoutMs);
    INBOUND.forEach(address -> options.addInboundPermitted(new PermittedOptions().setAddress(address)));
    OUTBOUND.forEach(address -> options.addOutboundPermitted(new PermittedOptions().setAddress(address)));
    // SockJS's POST transports (xhr_send: the fallbacks of browsers without WebSocket) need the body read first,
    // which also leaves no request unread over the asynchronous session look-up. A WebSocket upgrade must not be
    // read: it is paused over the look-up instead.
    BodyHandler bodies = BodyHandler.create().setBodyLimit(ScraperAdminRoutes.MAX_BODY_BYTES);
    Router router = Router.router(vertx);
    // SockJS serves its iframe page whatever transports are on; it loads the SockJS library from a CDN and exists only
    // for the iframe transports, which are off.
    router.getWithRegex("/iframe(-[^/]*)?\\.html").handler(ctx -> ApiReplies.error(ctx, 404, "not_found",
        "the event bus has no iframe transport"));
    router.route().handler(ctx -> {
      if (isUpgrade(ctx)) {
        ctx.next();
      } else {
        bodies.handle(ctx);
      }
    });
    router.route().handler(this::admit);
    // No JSESSIONID cookie: the reader needs no sticky sessions, and the console has its own session cookie.
    // Only WebSocket and the XHR streaming and polling fallbacks: JSONP would answer a script of this site's origin
    // that calls any function a page names (a way around script-src 'self'), and htmlfile and EventSource are unused.
    SockJSHandlerOptions sockJs = new SockJSHandlerOptions().setInsertJSESSIONID(false);
    DISABLED_TRANSPORTS.forEach(transport -> sockJs.addDisabledTransport(transport.name()));
    router.route("/*").subRouter(SockJSHandler.create(vertx, sockJs).bridge(options, this::handleEvent));
    return router;
  }

  /**
   * Before any SockJS transport: a cross-site page is refused by its {@code Origin} (the cookie is SameSite=Strict
   * too); then no session is 401 and a reader account 403.
   */
  private void admit(RoutingContext ctx) {
    if (SameOrigin.crossSite(ctx.request())) {
      ApiReplies.error(ctx, 403, "forbidden", "the event bus answers only pages of this site");
      return;
    }
    Cookie cookie = ctx.request().getCookie(Sessions.COOKIE);
    if (cookie == null || cookie.getValue().isEmpty()) {
      ApiReplies.error(ctx, 401, "unauthorized", "log in first (POST /api/login)");
      return;
    }
    boolean upgrade = isUpgrade(ctx);
    if (upgrade) {
      ctx.request().pause();
    }
    guard.lookup(cookie.getValue()).onComplete(ar -> {
      if (upgrade) {
        ctx.request().resume();
      }
      if (ar.failed()) {
        ApiReplies.error(ctx, 500, "internal_error", "sessions cannot be read: " + ar.cause().getMessage());
      } else if (ar.result().isEmpty()) {
        ApiReplies.error(ctx, 401, "unauthorized", "the session has ended; log in again");
      } else if (!"admin".equals(ar.result().get().role())) {
        ApiReplies.error(ctx, 403, "forbidden", "the event bus is for admin accounts");
      } else {
        ctx.put(TOKEN, cookie.getValue());
        ctx.next();
      }
    });
  }

  /**
   * Every frame of an open socket is checked again against its session, so a logout or a demoted account ends its
   * bridge within {@code AccessGuard.REMEMBER}. Browsers may send requests, never publish.
   */
  private void handleEvent(BridgeEvent event) {
    BridgeEventType type = event.type();
    if (type == BridgeEventType.SOCKET_CLOSED || type == BridgeEventType.SOCKET_IDLE
        || type == BridgeEventType.SOCKET_PING || type == BridgeEventType.UNREGISTER) {
      event.complete(true);
      return;
    }
    if (type == BridgeEventType.PUBLISH) {
      event.complete(false);
      return;
    }
    RoutingContext admitted = event.socket().routingContext();
    String token = admitted == null ? null : admitted.get(TOKEN);
    if (token == null) {
      event.complete(false);
      return;
    }
    guard.lookup(token).onComplete(ar -> event.complete(ar.succeeded() && ar.result().isPresent()
        && "admin".equals(ar.result().get().role())));
  }

  private static boolean isUpgrade(RoutingContext ctx) {
    return "websocket".equalsIgnoreCase(ctx.request().getHeader("Upgrade"));
  }
}
