package io.mangacircus.reader;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.DecodingHandler;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.reader.admin.AdminTokenGuard;
import io.mangacircus.reader.admin.ScraperAdminRoutes;
import io.mangacircus.reader.http.HttpMount;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The reader service: answers its liveness ping and serves the browser-facing routes through its mount. */
public final class ReaderVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ReaderVerticle.class);

  private final ReaderConfig config;
  private final HttpMount mount;
  private final String instance = UUID.randomUUID().toString();
  private long startedAt;
  private Router router;
  private MessageConsumer<Object> pingConsumer;

  public ReaderVerticle(ReaderConfig config, HttpMount mount) {
    this.config = config;
    this.mount = mount;
  }

  @Override
  public Future<?> start() {
    startedAt = System.currentTimeMillis();
    router = Router.router(vertx);
    router.get("/api/system/info").handler(this::handleInfo);
    new ScraperAdminRoutes(vertx, config.scraperRequestTimeoutMs())
        .mount(router, new AdminTokenGuard(config.adminToken()));
    router.route("/api/*").handler(this::handleUnknownApi);
    router.route("/*").handler(StaticHandler.create("webroot"));
    pingConsumer = vertx.eventBus().consumer(Addresses.READER_PING,
        DecodingHandler.of(PingRequest::fromJson, this::handlePing));
    return pingConsumer.completion().onSuccess(v -> {
      mount.attach(router);
      LOG.info("reader started (instance {}, {})", instance, config);
    });
  }

  @Override
  public Future<?> stop() {
    mount.detach(router);
    return pingConsumer.unregister();
  }

  private void handlePing(Message<Object> message, PingRequest request) {
    message.reply(new PingReply("reader", instance, startedAt).toJson());
  }

  private void handleInfo(RoutingContext ctx) {
    ctx.json(new JsonObject().put("service", "reader").put("instance", instance).put("startedAt", startedAt));
  }

  private void handleUnknownApi(RoutingContext ctx) {
    ctx.response().setStatusCode(404);
    ctx.json(new JsonObject().put("error", "not_found").put("message", "no API route " + ctx.request().path()));
  }
}
