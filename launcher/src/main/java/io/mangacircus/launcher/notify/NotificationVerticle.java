package io.mangacircus.launcher.notify;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ChapterPublished;
import io.mangacircus.contracts.DiscoveryFinished;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.JobProgress;
import io.mangacircus.contracts.LauncherStatus;
import io.mangacircus.contracts.MemoryYieldChanged;
import io.mangacircus.support.supervision.Backoff;
import io.mangacircus.launcher.config.NotificationsConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the operator's notifications and the heartbeat (docs/notifications.md). Deployed by the launcher of the
 * process that hosts the reader, only when a destination or a heartbeat URL is configured, on its own event loop: a
 * slow or dead destination waits here and nowhere else. Events come from the (clustered) event bus; every delivery
 * waits in {@code data/notifications/outbox.json} until its destination answered 2xx ({@link Deliveries}). It wires
 * the event consumers, the Settings page's requests ({@link SettingsRequests}), the check of readers' alert targets
 * ({@link ReaderTargetGuard}), the heartbeat and the pump.
 */
public final class NotificationVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(NotificationVerticle.class);

  /** How often due deliveries are looked for, ms. */
  static final long PUMP_MS = 500;

  /** A discovery pass is told at the latest this long after it began, even if some of its jobs never end. */
  static final Duration DISCOVERY_LIMIT = Duration.ofHours(12);

  /** The config file's section; what applies merges the Settings page's saved values in ({@link SettingsRequests}). */
  private final NotificationsConfig fileConfig;
  private final Path folder;
  private final InstantSource clock;
  private final NotificationMeters meters;
  private final Supplier<Future<Boolean>> ready;
  private final List<MessageConsumer<Object>> consumers = new ArrayList<>();
  private final List<Long> timers = new ArrayList<>();
  private RequestSender sender;
  private Heartbeat heartbeat;
  private Dispatcher dispatcher;
  private Deliveries deliveries;
  private ReaderAlerts readerAlerts;
  private EventMessages messages;
  private DiscoveryTally discovery;

  /**
   * @param folder {@code data/notifications}
   * @param registry where the counters go, or null
   * @param ready whether {@code /health/ready} of this process would answer 200 now
   */
  public NotificationVerticle(NotificationsConfig config, Path folder, InstantSource clock, MeterRegistry registry,
      Supplier<Future<Boolean>> ready) {
    this.fileConfig = config;
    this.folder = folder;
    this.clock = clock;
    this.meters = new NotificationMeters(registry);
    this.ready = ready;
  }

  @Override
  public Future<?> start() {
    OutboxFile file = new OutboxFile(folder);
    SettingsRequests settings = new SettingsRequests(vertx, fileConfig, folder);
    messages = new EventMessages(fileConfig.publicUrl(), clock);
    discovery = new DiscoveryTally(DISCOVERY_LIMIT, clock);
    NotificationsConfig.Retry retry = fileConfig.retry();
    Outbox outbox = new Outbox(fileConfig.outboxMax());
    return vertx.executeBlocking(() -> {
      settings.load();
      return file.load();
    }).onSuccess(waiting -> {
      NotificationsConfig config = settings.current();
      dispatcher = new Dispatcher(destinations(config), rates(config), outbox,
          new Deduplicator(Duration.ofMinutes(config.dedupMinutes()), clock),
          new Backoff(Duration.ofSeconds(retry.initialSeconds()), retry.multiplier(),
              Duration.ofSeconds(retry.maxSeconds())), retry.maxAttempts(), clock);
      int before = waiting.size();
      waiting.forEach(d -> {
        List<Delivery> dropped = outbox.add(d);
        if (!dropped.isEmpty()) {
          LOG.warn("[NOTIFY] outbox holds more than notifications.outboxMax ({}): dropped {} oldest", config.outboxMax(),
              dropped.size());
        }
      });
      meters.bind(outbox);
      ReaderTargetGuard guard = new ReaderTargetGuard(config.readerAlertAllowedHosts(),
          ReaderTargetGuard.HostResolver.system());
      sender = new RequestSender(vertx, config.requestTimeoutSeconds(), guard);
      deliveries = new Deliveries(vertx, dispatcher, sender, file, meters, config);
      readerAlerts = new ReaderAlerts(vertx, messages, clock, deliveries, this::pump);
      heartbeat = new Heartbeat(vertx, sender, ready, meters);
      if (fileConfig.sendsEvents()) {
        subscribe();
      } else {
        LOG.info("[NOTIFY] notifications.enabled is false: this process sends no operator notification, heartbeat "
            + "or new-chapter alert (another process does); it checks its readers' alert targets and sends their "
            + "notices");
      }
      consumers.addAll(settings.answer(dispatcher, messages, sender, this::apply));
      consumers.add(vertx.eventBus().localConsumer(Addresses.LAUNCHER_NOTIFICATIONS_CHECK_TARGET,
          message -> checkTarget(guard, message)));
      consumers.add(vertx.eventBus().localConsumer(Addresses.LAUNCHER_NOTIFICATIONS_READER_NOTICE,
          readerAlerts::notice));
      timers.add(vertx.setPeriodic(PUMP_MS, id -> pump()));
      restartHeartbeat(config);
      if (!config.active() && before == 0) {
        // Quiet: a process without notifications says nothing about them (the Settings page may add some later).
        LOG.debug("[NOTIFY] nothing configured: no messages, no heartbeat");
        return;
      }
      LOG.info("[NOTIFY] notifications to {} destination(s) {}; heartbeat {}; {} waiting in {}",
          config.destinations().size(), config.destinations().stream().map(NotificationsConfig.Destination::name)
              .toList(),
          fileConfig.sendsEvents() && config.heartbeat().enabled() ? "every " + config.heartbeat().intervalSeconds() + " s" : "off", before,
          file.path());
    }).onFailure(t -> LOG.error("[NOTIFY] notifications are off: {}", t.getMessage()));
  }

  /** A saved change from the Settings page: its destinations and heartbeat apply at once. */
  private void apply(NotificationsConfig config) {
    dispatcher.replaceDestinations(destinations(config), rates(config));
    restartHeartbeat(config);
  }

  private void restartHeartbeat(NotificationsConfig config) {
    if (fileConfig.sendsEvents()) {
      heartbeat.restart(config.heartbeat());
    }
  }

  /** Answers whether a reader may save an alert target (checked again at every send). */
  private void checkTarget(ReaderTargetGuard guard, Message<Object> message) {
    if (!(message.body() instanceof JsonObject body) || !(body.getValue("url") instanceof String url)) {
      message.fail(ErrorCode.MALFORMED_MESSAGE.code(), "send {v:1, url}");
      return;
    }
    vertx.executeBlocking(() -> guard.check(url), false).onComplete(ar -> {
      if (ar.failed()) {
        LOG.error("[NOTIFY] cannot check a reader's alert target", ar.cause());
        message.fail(ErrorCode.INTERNAL_ERROR.code(), "the target could not be checked: "
            + ar.cause().getClass().getSimpleName());
      } else if (ar.result() instanceof ReaderTargetGuard.Refused refused) {
        message.fail(ErrorCode.MALFORMED_MESSAGE.code(), refused.reason());
      } else {
        message.reply(new JsonObject().put("v", 1));
      }
    });
  }

  private static List<Destination> destinations(NotificationsConfig config) {
    return config.destinations().stream().map(Destination::of).toList();
  }

  private static Map<String, Integer> rates(NotificationsConfig config) {
    return config.destinations().stream()
        .collect(Collectors.toMap(NotificationsConfig.Destination::name, NotificationsConfig.Destination::maxPerHour));
  }

  private <T> void on(String address, Function<Object, T> decode, Consumer<T> handler) {
    consumers.add(vertx.eventBus().consumer(address, message -> {
      T event;
      try {
        event = decode.apply(message.body());
      } catch (RuntimeException e) {
        LOG.debug("[NOTIFY] ignored a malformed event on {}: {}", address, e.getMessage());
        return;
      }
      handler.accept(event);
    }));
  }

  private void subscribe() {
    on(Addresses.SCRAPER_INCIDENT_RECORDED, body -> (JsonObject) body, e -> accept(messages.incident(e)));
    on(Addresses.SCRAPER_CIRCUIT_STATE, body -> (JsonObject) body, e -> messages.circuit(e).ifPresent(this::accept));
    on(Addresses.SCRAPER_JOB_PROGRESS, JobProgress::fromJson, p -> {
      messages.progress(p).ifPresent(this::accept);
      discovery.jobState(p.jobId(), p.state()).ifPresent(this::newChapters);
    });
    on(Addresses.LAUNCHER_STATUS, LauncherStatus::fromJson, s -> messages.status(s).forEach(this::accept));
    on(Addresses.LAUNCHER_MEMORY_YIELD, MemoryYieldChanged::fromJson, m -> accept(messages.memoryYield(m)));
    on(Addresses.SCRAPER_DISCOVERY_FINISHED, DiscoveryFinished::fromJson,
        d -> discovery.started(d).ifPresent(this::newChapters));
    on(Addresses.LIBRARY_PUBLISHED, ChapterPublished::fromJson, c -> discovery.published(c.manifest().source(),
        c.manifest().titleId(), c.seriesId(), c.manifest().series(), c.manifest().chapterId(),
        c.manifest().publishedAt()));
  }

  private void newChapters(List<DiscoveryTally.NewChapters> perSeries) {
    accept(DiscoveryTally.message(perSeries, messages.libraryLink(), clock.instant()));
    readerAlerts.send(perSeries);
  }

  private void accept(Notification notification) {
    deliveries.accept(notification);
    pump();
  }

  /** Tells a discovery pass that ran out of time, then sends what is due. */
  private void pump() {
    discovery.expire().ifPresent(this::newChapters);
    deliveries.sendDue();
  }

  @Override
  public Future<?> stop() {
    timers.forEach(vertx::cancelTimer);
    if (heartbeat != null) {
      heartbeat.stop();
    }
    consumers.forEach(MessageConsumer::unregister);
    if (sender != null) {
      sender.close();
    }
    // In-flight deliveries stay in the outbox file and go out after the next start.
    return deliveries == null ? Future.succeededFuture() : deliveries.written();
  }
}
