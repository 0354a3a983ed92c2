package io.mangacircus.launcher.edge;

import io.mangacircus.launcher.config.MangaCircusConfig;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.impl.ConnectionBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The launcher's HTTP listeners on one port and what every connection goes through before a request is routed: at most
 * {@code http.maxConnections} open at once, the header and idle deadlines ({@link ConnectionPhase}), strict framing
 * ({@link StrictRequestDecoder}: 400 and the connection closed) and the security headers on every answer, the HTTP
 * layer's own errors included ({@link AnswerWatch}).
 */
public final class HttpEdge {

  private static final Logger LOG = LoggerFactory.getLogger(HttpEdge.class);

  /** Names of the handlers in Vert.x's HTTP/1.x pipeline that the edge replaces or joins. */
  private static final String DECODER = "httpDecoder";
  private static final String VERTX_HANDLER = "handler";

  private final MangaCircusConfig.Http http;
  private final ConnectionCap cap;

  public HttpEdge(MangaCircusConfig.Http http) {
    this.http = http;
    this.cap = new ConnectionCap(http.maxConnections());
  }

  /**
   * Listens on {@code port} with {@code options}: one server on the caller's event loop, then {@code eventLoops - 1}
   * more on their own, sharing the listening socket (Vert.x hands new connections to them in turn), each routing with
   * {@code route}.
   */
  public Future<HttpServer> listen(Vertx vertx, HttpServerOptions options, int eventLoops,
      Handler<HttpServerRequest> route) {
    return server(vertx, options, route).listen().compose(s -> {
      int extra = eventLoops - 1;
      if (extra < 1) {
        return Future.succeededFuture(s);
      }
      HttpServerOptions same = new HttpServerOptions(options).setPort(s.actualPort());
      return vertx.deployVerticle(() -> new SharedHttpServer(this, same, route),
          new DeploymentOptions().setInstances(extra)).map(id -> s);
    });
  }

  private HttpServer server(Vertx vertx, HttpServerOptions options, Handler<HttpServerRequest> route) {
    return vertx.createHttpServer(options).requestHandler(route)
        .connectionHandler(connection -> admit(connection, options))
        .invalidRequestHandler(HttpEdge::invalid);
  }

  private void admit(HttpConnection connection, HttpServerOptions options) {
    if (!(connection instanceof ConnectionBase base)) {
      return;
    }
    Channel channel = base.channel();
    if (!cap.tryOpen()) {
      LOG.warn("[HTTP] refused a connection from {}: {} connections are open (http.maxConnections)",
          channel.remoteAddress(), http.maxConnections());
      channel.close();
      return;
    }
    channel.closeFuture().addListener(f -> cap.closed());
    ChannelPipeline pipeline = channel.pipeline();
    if (pipeline.get(DECODER) == null || pipeline.get(VERTX_HANDLER) == null) {
      return;
    }
    ConnectionWatch watch = new ConnectionWatch(channel, http.headerTimeoutSeconds() * 1000L,
        http.idleTimeoutSeconds() * 1000L);
    pipeline.replace(DECODER, DECODER, new StrictRequestDecoder(options, watch));
    pipeline.addBefore(VERTX_HANDLER, "mcAnswerWatch", new AnswerWatch(watch));
  }

  /**
   * A request the decoder could not read or refused: framing refused by {@link StrictRequestDecoder} is 400 in the
   * error shape, the rest as Vert.x answers them (400, 414, 431); the connection is closed after the answer.
   */
  private static void invalid(HttpServerRequest request) {
    if (request.decoderResult().cause() instanceof StrictRequestDecoder.RefusedFraming refused) {
      request.response().setStatusCode(400).putHeader(HttpHeaders.CONNECTION, "close")
          .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(new JsonObject().put("error", "bad_request").put("message", refused.getMessage()).encode());
      return;
    }
    HttpServerRequest.DEFAULT_INVALID_REQUEST_HANDLER.handle(request);
  }

  /** An extra listener on the same port, on the event loop of its own deployment; same edge and routing. */
  private static final class SharedHttpServer extends VerticleBase {
    private final HttpEdge edge;
    private final HttpServerOptions options;
    private final Handler<HttpServerRequest> route;

    SharedHttpServer(HttpEdge edge, HttpServerOptions options, Handler<HttpServerRequest> route) {
      this.edge = edge;
      this.options = options;
      this.route = route;
    }

    @Override
    public Future<?> start() {
      return edge.server(vertx, options, route).listen();
    }
  }
}
