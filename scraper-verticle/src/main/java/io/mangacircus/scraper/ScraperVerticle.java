package io.mangacircus.scraper;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.DecodingHandler;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.contracts.PingRequest;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The scraper service: for now it answers its liveness ping; the download queue and lanes live here. */
public final class ScraperVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ScraperVerticle.class);

  private final ScraperConfig config;
  private final String instance = UUID.randomUUID().toString();
  private long startedAt;
  private MessageConsumer<Object> pingConsumer;

  public ScraperVerticle(ScraperConfig config) {
    this.config = config;
  }

  @Override
  public Future<?> start() {
    startedAt = System.currentTimeMillis();
    pingConsumer = vertx.eventBus().consumer(Addresses.SCRAPER_PING,
        DecodingHandler.of(PingRequest::fromJson, this::handlePing));
    if (config.statusLogIntervalSeconds() > 0) {
      vertx.setPeriodic(config.statusLogIntervalSeconds() * 1000, id -> LOG.info("scraper {} idle: no download queue yet", instance));
    }
    return pingConsumer.completion().onSuccess(v -> LOG.info("scraper started (instance {})", instance));
  }

  @Override
  public Future<?> stop() {
    return pingConsumer.unregister();
  }

  private void handlePing(Message<Object> message, PingRequest request) {
    message.reply(new PingReply("scraper", instance, startedAt).toJson());
  }
}
