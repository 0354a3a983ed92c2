package io.mangacircus.launcher.notify;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ChapterPublished;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.DiscoveryFinished;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.JobProgress;
import io.mangacircus.contracts.LauncherStatus;
import io.mangacircus.contracts.MemoryYieldChanged;
import io.mangacircus.support.supervision.Backoff;
import io.mangacircus.launcher.config.NotificationsConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
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
 * waits in {@code data/notifications/outbox.json} until its destination answered 2xx.
 */
public final class NotificationVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(NotificationVerticle.class);

  /** How often due deliveries are looked for, ms. */
  static final long PUMP_MS = 500;

  /** A discovery pass is told at the latest this long after it began, even if some of its jobs never end. */
  static final Duration DISCOVERY_LIMIT = Duration.ofHours(12);

  /** The config file's section; {@link #config} is what applies, with the Settings page's saved values merged in. */
  /** How long the reader may take to name the subscribers of a pass's series. */
  static final Duration READER_TIMEOUT = Duration.ofSeconds(10);

  /** A reader's alerts per rolling hour at most. */
  static final int READER_MAX_PER_HOUR = 30;

  private final NotificationsConfig fileConfig;
  private NotificationsConfig config;
  private final Path folder;
  private final InstantSource clock;
  private final MeterRegistry registry;
  private final Supplier<Future<Boolean>> ready;
  private final List<MessageConsumer<Object>> consumers = new ArrayList<>();
  private final List<Long> timers = new ArrayList<>();
  private WebClient client;
  private Dispatcher dispatcher;
  private EventMessages messages;
  private DiscoveryTally discovery;
  private OutboxFile file;
  private SettingsFile settingsFile;
  private NotificationSettings settings;
  private SettingsFile.Saved saved = SettingsFile.Saved.NONE;
  /** Why the saved settings are not in use (their file does not parse), or null. */
  private String settingsProblem;
  private Future<Void> changing = Future.succeededFuture();
  private long heartbeatTimer = -1;
  private Future<Void> writing = Future.succeededFuture();
  private Counter droppedCounter;
  private Boolean lastReady;

  /**
   * @param folder {@code data/notifications}
   * @param registry where the counters go, or null
   * @param ready whether {@code /health/ready} of this process would answer 200 now
   */
  public NotificationVerticle(NotificationsConfig config, Path folder, InstantSource clock, MeterRegistry registry,
      Supplier<Future<Boolean>> ready) {
    this.fileConfig = config;
    this.config = config;
    this.folder = folder;
    this.clock = clock;
    this.registry = registry;
    this.ready = ready;
  }

  @Override
  public Future<?> start() {
    file = new OutboxFile(folder);
    settingsFile = new SettingsFile(folder);
    settings = new NotificationSettings(fileConfig);
    messages = new EventMessages(config.publicUrl(), clock);
    discovery = new DiscoveryTally(DISCOVERY_LIMIT, clock);
    NotificationsConfig.Retry retry = config.retry();
    Outbox outbox = new Outbox(config.outboxMax());
    return vertx.executeBlocking(() -> {
      try {
        saved = settingsFile.load();
      } catch (CorruptStateFileException e) {
        // The config file's destinations still work; the page shows why the saved ones do not, the file stays.
        settingsProblem = e.getMessage() + "; repair it or move it away, then save again";
        LOG.error("[NOTIFY] the destinations saved from the Settings page are not used: {}", settingsProblem);
      }
      return file.load();
    }).onSuccess(waiting -> {
      config = settings.merged(saved);
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
      bindMetrics(outbox);
      client = WebClient.create(vertx, new WebClientOptions()
          .setConnectTimeout((int) Duration.ofSeconds(config.requestTimeoutSeconds()).toMillis())
          .setIdleTimeout((int) config.requestTimeoutSeconds()).setKeepAlive(false)
          .setUserAgent("MangaCircus-notifications").setFollowRedirects(false));
      subscribe();
      answerSettings();
      timers.add(vertx.setPeriodic(PUMP_MS, id -> pump()));
      startHeartbeat();
      if (!config.active() && before == 0) {
        // Quiet: a process without notifications says nothing about them (the Settings page may add some later).
        LOG.debug("[NOTIFY] nothing configured: no messages, no heartbeat");
        return;
      }
      LOG.info("[NOTIFY] notifications to {} destination(s) {}; heartbeat {}; {} waiting in {}",
          config.destinations().size(), config.destinations().stream().map(NotificationsConfig.Destination::name)
              .toList(),
          config.heartbeat().enabled() ? "every " + config.heartbeat().intervalSeconds() + " s" : "off", before,
          file.path());
    }).onFailure(t -> LOG.error("[NOTIFY] notifications are off: {}", t.getMessage()));
  }

  private static List<Destination> destinations(NotificationsConfig config) {
    return config.destinations().stream().map(Destination::of).toList();
  }

  private static Map<String, Integer> rates(NotificationsConfig config) {
    return config.destinations().stream()
        .collect(Collectors.toMap(NotificationsConfig.Destination::name, NotificationsConfig.Destination::maxPerHour));
  }

  /** (Re)starts the heartbeat timer for what applies now; the first ping goes out at once. */
  private void startHeartbeat() {
    if (heartbeatTimer >= 0) {
      vertx.cancelTimer(heartbeatTimer);
      heartbeatTimer = -1;
    }
    if (config.heartbeat().enabled()) {
      heartbeatTimer = vertx.setPeriodic(0, Duration.ofSeconds(config.heartbeat().intervalSeconds()).toMillis(),
          id -> heartbeat());
    }
  }

  private void bindMetrics(Outbox outbox) {
    if (registry == null) {
      return;
    }
    droppedCounter = Counter.builder("mc.notifications.dropped")
        .description("Deliveries dropped because the outbox was full (oldest first)").register(registry);
    Gauge.builder("mc.notifications.waiting", outbox, Outbox::size)
        .description("Deliveries waiting in the outbox").register(registry);
  }

  private void count(String name, String destination) {
    if (registry != null) {
      Counter.builder(name).tag("destination", destination).register(registry).increment();
    }
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

  /** The Settings page's view and test button (docs/notifications.md); secrets are shown only as "set". */
  private void answerSettings() {
    consumers.add(vertx.eventBus().localConsumer(Addresses.LAUNCHER_NOTIFICATIONS_GET,
        message -> message.reply(view())));
    consumers.add(vertx.eventBus().localConsumer(Addresses.LAUNCHER_NOTIFICATIONS_CHANGE, this::change));
    consumers.add(vertx.eventBus().localConsumer(Addresses.LAUNCHER_NOTIFICATIONS_TEST, message -> {
      String by = message.body() instanceof JsonObject body && body.getValue("requestedBy") instanceof String who
          ? who : "the Settings page";
      if (!config.active()) {
        message.fail(ErrorCode.NOT_READY.code(), "no notification destination and no heartbeat URL is configured");
        return;
      }
      Notification test = messages.test(by);
      List<Future<JsonObject>> answers = new ArrayList<>();
      for (NotificationsConfig.Destination d : config.destinations()) {
        answers.add(answer(send(Destination.of(d).request(test)), new JsonObject().put("name", d.name())
            .put("type", d.type())));
      }
      Future<JsonObject> heartbeat = config.heartbeat().enabled()
          ? answer(send(new OutgoingRequest("GET", config.heartbeat().url(), Map.of(), null)), new JsonObject())
          : Future.succeededFuture(null);
      LOG.info("[NOTIFY] test message to {} destination(s) and {} requested by {}", answers.size(),
          config.heartbeat().enabled() ? "one heartbeat" : "no heartbeat", by);
      Future.join(answers).onComplete(all -> heartbeat.onComplete(hb -> message.reply(new JsonObject().put("v", 1)
          .put("destinations", new JsonArray(answers.stream().map(Future::result).toList()))
          .put("heartbeat", hb.result()))));
    }));
  }

  private JsonObject view() {
    return settings.view(saved, settingsProblem).put("waiting", dispatcher.waiting())
        .put("dropped", dispatcher.dropped());
  }

  /**
   * A change from the Settings page: the file is read again (a repaired file is used, a corrupt one refused and left
   * as it is), the edit applied and checked, the file written, and the destinations and heartbeat reloaded, all
   * without a restart. Changes run one after the other. Replies with the new view.
   */
  private void change(io.vertx.core.eventbus.Message<Object> message) {
    if (!(message.body() instanceof JsonObject body) || !(body.getValue("action") instanceof String action)) {
      message.fail(ErrorCode.MALFORMED_MESSAGE.code(), "send {v:1, action, ...}");
      return;
    }
    String name = body.getString("name", "");
    JsonObject fields = body.getJsonObject("fields", new JsonObject());
    String by = body.getString("requestedBy", "the Settings page");
    changing = changing.transform(previous -> vertx.executeBlocking(() -> {
      SettingsFile.Saved current = settingsFile.load();
      SettingsFile.Saved next = switch (action) {
        case "put-destination" -> settings.putDestination(current, name, fields);
        case "remove-destination" -> settings.removeDestination(current, name);
        case "put-heartbeat" -> settings.putHeartbeat(current, fields);
        case "remove-heartbeat" -> settings.removeHeartbeat(current);
        default -> throw new NotificationSettings.Refused(NotificationSettings.Refusal.INVALID,
            "unknown action " + action);
      };
      settingsFile.save(next);
      return next;
    }, true).onComplete(ar -> {
      if (ar.succeeded()) {
        saved = ar.result();
        settingsProblem = null;
        config = settings.merged(saved);
        dispatcher.replaceDestinations(destinations(config), rates(config));
        startHeartbeat();
        LOG.info("[NOTIFY] {}{} by {}: now {} destination(s) {}, heartbeat {}", action.replace('-', ' '),
            name.isEmpty() ? "" : " " + name, by, config.destinations().size(),
            config.destinations().stream().map(NotificationsConfig.Destination::name).toList(),
            config.heartbeat().enabled() ? "every " + config.heartbeat().intervalSeconds() + " s" : "off");
        message.reply(view());
      } else if (ar.cause() instanceof NotificationSettings.Refused refused) {
        message.fail(switch (refused.reason()) {
          case INVALID -> ErrorCode.MALFORMED_MESSAGE.code();
          case NOT_FOUND -> ErrorCode.NOT_FOUND.code();
          case READ_ONLY -> ErrorCode.ILLEGAL_TRANSITION.code();
        }, refused.getMessage());
      } else {
        String problem = ar.cause() instanceof CorruptStateFileException ? ar.cause().getMessage()
            + "; repair it or move it away, then save again"
            : "cannot save " + settingsFile.path() + ": " + ar.cause().getMessage();
        LOG.error("[NOTIFY] {} refused: {}", action.replace('-', ' '), problem);
        message.fail(ErrorCode.STORAGE_ERROR.code(), problem);
      }
    }).mapEmpty());
  }

  /** The answer of one test request as the Settings page shows it. */
  private static Future<JsonObject> answer(Future<HttpResponse<Buffer>> sent, JsonObject into) {
    return sent.transform(ar -> Future.succeededFuture(ar.succeeded()
        ? into.put("ok", true).put("answer", "HTTP " + ar.result().statusCode())
        : into.put("ok", false).put("answer", ar.cause().getMessage())));
  }

  private void newChapters(List<DiscoveryTally.NewChapters> perSeries) {
    accept(DiscoveryTally.message(perSeries, messages.libraryLink(), clock.instant()));
    alertReaders(perSeries);
  }

  /**
   * Readers' own alerts: the reader of this process names the users subscribed to some of these series, each with
   * only their own series; each gets one message per series, queued in the outbox like the operator's.
   */
  private void alertReaders(List<DiscoveryTally.NewChapters> perSeries) {
    JsonArray ids = new JsonArray(perSeries.stream().map(DiscoveryTally.NewChapters::seriesId).toList());
    vertx.eventBus().<JsonObject>request(Addresses.READER_ALERTS_SUBSCRIBERS, new JsonObject().put("v", 1)
            .put("series", ids), new DeliveryOptions().setLocalOnly(true).setSendTimeout(READER_TIMEOUT.toMillis()))
        .onFailure(t -> LOG.warn("[NOTIFY] readers' new-chapter alerts not sent: the reader did not name the "
            + "subscribers ({})", t.getMessage()))
        .onSuccess(reply -> {
          int queued = 0;
          for (Object entry : reply.body().getJsonArray("subscribers", new JsonArray())) {
            JsonObject subscriber = (JsonObject) entry;
            JsonObject t = subscriber.getJsonObject("target");
            String user = subscriber.getString("user");
            NotificationsConfig.Destination target = new NotificationsConfig.Destination("reader:" + user,
                t.getString("type"), t.getString("url"), t.getString("topic"), t.getString("token"),
                java.util.Set.of("new-chapters"), READER_MAX_PER_HOUR);
            for (Object id : subscriber.getJsonArray("series", new JsonArray())) {
              for (DiscoveryTally.NewChapters series : perSeries) {
                if (series.seriesId().equals(id)) {
                  dropped(dispatcher.acceptFor(DiscoveryTally.readerMessage(user, series,
                      messages.seriesLink(series.seriesId()), clock.instant()), target));
                  queued++;
                }
              }
            }
          }
          if (queued > 0) {
            LOG.info("[NOTIFY] {} new-chapter alert(s) queued for {} reader(s)", queued,
                reply.body().getJsonArray("subscribers").size());
            persist();
            pump();
          }
        });
  }

  private void accept(Notification notification) {
    List<Delivery> dropped = dispatcher.accept(notification);
    dropped(dropped);
    persist();
    pump();
  }

  private void dropped(List<Delivery> dropped) {
    if (dropped.isEmpty()) {
      return;
    }
    if (droppedCounter != null) {
      droppedCounter.increment(dropped.size());
    }
    LOG.warn("[NOTIFY] outbox full (notifications.outboxMax {}): dropped the oldest {} deliver{} ({})",
        config.outboxMax(), dropped.size(), dropped.size() == 1 ? "y" : "ies",
        dropped.stream().map(d -> d.notification().kind() + " for " + d.destination()).toList());
  }

  private void pump() {
    discovery.expire().ifPresent(this::newChapters);
    Dispatcher.Tick tick = dispatcher.tick();
    dropped(tick.dropped());
    tick.gone().forEach(d -> LOG.warn("[NOTIFY] gave up a {} message for destination {}: it is no longer configured",
        d.notification().kind(), d.destination()));
    for (Delivery delivery : tick.send()) {
      Destination destination = dispatcher.destination(delivery).orElseThrow();
      send(destination.request(delivery.notification())).onComplete(ar -> {
        if (ar.succeeded()) {
          dispatcher.succeeded(delivery);
          count("mc.notifications.sent", delivery.destination());
          LOG.info("[NOTIFY] sent {} message to {} ({})", delivery.notification().kind(), delivery.destination(),
              delivery.notification().key());
        } else {
          Dispatcher.Failure failure = dispatcher.failed(delivery);
          if (failure == Dispatcher.Failure.GIVEN_UP) {
            count("mc.notifications.failed", delivery.destination());
            LOG.error("[NOTIFY] gave up a {} message for {} after {} attempts: {}", delivery.notification().kind(),
                delivery.destination(), delivery.attempts() + 1, ar.cause().getMessage());
          } else {
            LOG.warn("[NOTIFY] delivery to {} failed (attempt {} of {}): {}; it stays in the outbox",
                delivery.destination(), delivery.attempts() + 1, config.retry().maxAttempts(),
                ar.cause().getMessage());
          }
        }
        persist();
      });
    }
    persist();
  }

  /** Sends one request; fails with a message that names no URL, token or topic. */
  private Future<HttpResponse<Buffer>> send(OutgoingRequest request) {
    HttpRequest<Buffer> http = client.requestAbs(HttpMethod.valueOf(request.method()), request.url())
        .timeout(Duration.ofSeconds(config.requestTimeoutSeconds()).toMillis());
    request.headers().forEach(http::putHeader);
    Future<HttpResponse<Buffer>> sent = request.body() == null ? http.send()
        : http.sendBuffer(Buffer.buffer(request.body()));
    return sent.transform(ar -> {
      if (ar.failed()) {
        return Future.failedFuture(new IllegalStateException(describe(ar.cause())));
      }
      int status = ar.result().statusCode();
      if (status / 100 != 2) {
        return Future.failedFuture(new IllegalStateException("answered HTTP " + status));
      }
      return Future.succeededFuture(ar.result());
    });
  }

  private String describe(Throwable t) {
    String type = t.getClass().getSimpleName();
    if (t instanceof java.util.concurrent.TimeoutException || type.contains("Timeout")) {
      return "no answer within " + config.requestTimeoutSeconds() + " s";
    }
    if (t instanceof java.net.ConnectException) {
      return "connection refused";
    }
    if (t instanceof java.net.UnknownHostException) {
      return "unknown host";
    }
    return "request failed (" + type + ")";
  }

  /** Writes the outbox when it changed; writes are chained, so the file always ends with the last state. */
  private void persist() {
    dispatcher.takeChanges().ifPresent(snapshot -> writing = writing.transform(v -> vertx.executeBlocking(() -> {
      file.save(snapshot);
      return null;
    })).onFailure(t -> LOG.error("[NOTIFY] cannot save {}: {}", file.path(), t.toString())).mapEmpty());
  }

  private void heartbeat() {
    ready.get().otherwise(false).onSuccess(up -> {
      if (!up) {
        if (!Boolean.FALSE.equals(lastReady)) {
          LOG.warn("[NOTIFY] heartbeat paused: /health/ready would not answer 200");
        }
        lastReady = false;
        return;
      }
      if (Boolean.FALSE.equals(lastReady)) {
        LOG.info("[NOTIFY] heartbeat resumed: ready again");
      }
      lastReady = true;
      send(new OutgoingRequest("GET", config.heartbeat().url(), Map.of(), null))
          .onSuccess(r -> count("mc.notifications.heartbeats", "heartbeat"))
          .onFailure(t -> LOG.warn("[NOTIFY] heartbeat failed: {}", t.getMessage()));
    });
  }

  @Override
  public Future<?> stop() {
    timers.forEach(vertx::cancelTimer);
    if (heartbeatTimer >= 0) {
      vertx.cancelTimer(heartbeatTimer);
    }
    consumers.forEach(MessageConsumer::unregister);
    if (client != null) {
      client.close();
    }
    // In-flight deliveries stay in the outbox file and go out after the next start.
    return writing.otherwiseEmpty();
  }
}
