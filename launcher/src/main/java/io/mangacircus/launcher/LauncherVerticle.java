package io.mangacircus.launcher;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.support.DecodingHandler;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.ServiceStartRequest;
import io.vertx.core.eventbus.Message;
import io.mangacircus.contracts.LauncherStatus;
import io.mangacircus.contracts.ShutdownReply;
import io.mangacircus.contracts.ShutdownRequest;
import io.mangacircus.contracts.YieldRequest;
import io.mangacircus.launcher.config.MangaCircusConfig;
import io.mangacircus.launcher.memory.MemoryYield;
import io.mangacircus.launcher.config.NotificationsConfig;
import io.mangacircus.launcher.notify.NotificationVerticle;
import io.mangacircus.contracts.MemoryYieldChanged;
import io.vertx.ext.healthchecks.CheckResult;
import io.vertx.ext.healthchecks.HealthChecks;
import io.mangacircus.reader.http.SecurityHeaders;
import io.vertx.core.eventbus.DeliveryOptions;
import java.time.Duration;
import io.mangacircus.launcher.health.ReadinessChecks;
import io.mangacircus.launcher.metrics.JvmMetrics;
import io.mangacircus.launcher.metrics.MetricsEndpoint;
import io.mangacircus.launcher.metrics.SupervisorMetrics;
import io.mangacircus.launcher.state.ProcessInfo;
import io.mangacircus.launcher.state.RuntimeStateStore;
import io.mangacircus.launcher.supervision.ServiceSupervisor;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.mangacircus.launcher.edge.HttpEdge;
import io.mangacircus.launcher.edge.PublicHosts;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.healthchecks.HealthCheckHandler;
import io.vertx.micrometer.backends.BackendRegistries;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.OptionalDouble;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deploys and supervises the services of this process and owns its HTTP port: {@code /health/*} and
 * {@code /metrics} are answered here (so health stays reachable while a service is down); every other path
 * goes to the reader's routes.
 */
public final class LauncherVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(LauncherVerticle.class);

  private final LaunchPlan plan;
  private final String node;
  private final Consumer<String> stopProcess;
  /** The names the reader's routes answer to (health and metrics answer to any). */
  private final PublicHosts publicHosts;
  private List<ServiceSupervisor> supervisors;
  /** Where memory readings come from and the last one, for the status message; null when memory is not watched. */
  private volatile String memoryReading;
  private Router front;
  private HttpServer server;
  /** The JVM's meters, bound once the services started; null before and without a registry. */
  private JvmMetrics jvmMetrics;
  /** Set by {@link #stop}: a service still waiting for the reader's head start is then not started at all. */
  private boolean stopping;

  public LauncherVerticle(LaunchPlan plan) {
    this(plan, null);
  }

  /**
   * @param stopProcess stops this process gracefully (as SIGTERM does), given who asked; it must return at once.
   *     With it, the launcher answers the shutdown requests on the event bus; null (a launcher inside a test JVM)
   *     leaves them unanswered
   */
  public LauncherVerticle(LaunchPlan plan, Consumer<String> stopProcess) {
    this.plan = plan;
    this.stopProcess = stopProcess;
    this.node = plan.mode().cliName() + "@" + hostName() + ":" + ProcessHandle.current().pid();
    this.publicHosts = new PublicHosts(plan.config().http().publicHosts());
  }

  @Override
  public Future<?> start() {
    ProcessInfo process = new ProcessInfo(ProcessHandle.current().pid(), plan.mode().cliName(), plan.readinessUrl(),
        Instant.now());
    RuntimeStateStore store = new RuntimeStateStore();
    supervisors = plan.services().stream()
        .map(spec -> new ServiceSupervisor(vertx, context, spec, plan.config().supervision(), plan.clock(), store,
            process, this::publishStatus))
        .toList();
    MeterRegistry registry = plan.metricsRegistryName() == null ? null
        : BackendRegistries.getNow(plan.metricsRegistryName());
    if (registry != null) {
      SupervisorMetrics.bind(registry, supervisors);
    }

    answerShutdownRequests();
    // The shared address for callers that do not name a launcher; this node's own, so that a reader can reach the one
    // launcher whose service is blocked when several host it.
    for (ServiceSupervisor supervisor : supervisors) {
      for (String address : List.of(Addresses.serviceStartOf(supervisor.name()),
          Addresses.serviceStartOf(node, supervisor.name()))) {
        vertx.eventBus().consumer(address, DecodingHandler.of(ServiceStartRequest::fromJson,
            (message, request) -> retryStart(supervisor, message, request)));
      }
    }
    // Also every few seconds, so that a console opened later (or in the other process) sees every launcher.
    vertx.setPeriodic(STATUS_REPEAT_MS, id -> publishStatus());
    front = Router.router(vertx);
    front.get("/health/live").handler(HealthCheckHandler.createWithHealthChecks(ReadinessChecks.liveness(vertx, context,
        node)));
    HealthChecks readiness = ReadinessChecks.readiness(vertx, context, plan.mode().readinessServices(), supervisors,
        plan.config().health().checkTimeoutMs());
    front.get("/health/ready").handler(HealthCheckHandler.createWithHealthChecks(readiness));
    front.get("/metrics").handler(new MetricsEndpoint(plan.config().metrics().token(),
        plan.metricsRegistryName() == null ? "" : plan.metricsRegistryName()));

    // Plain HTTP/1.1: no cleartext HTTP/2 upgrade (h2c) for browsers, scrapers and health checkers to stumble on, and
    // no ALPN (there is no TLS here). TCP_CORK is not set on the server: it would hold every answer's last partial
    // segment for up to 200 ms; the page route corks around its file sends only (SendCork). No WebSocket compression
    // (the console's event stream is small JSON): with it, Netty's extension handler sits in every connection's
    // pipeline and looks at every request's headers for an upgrade, page requests included.
    HttpServerOptions options = new HttpServerOptions().setHost(plan.config().http().bind()).setPort(plan.httpPort())
        .setHttp2ClearTextEnabled(false).setUseAlpn(false)
        .setPerFrameWebSocketCompressionSupported(false).setPerMessageWebSocketCompressionSupported(false);
    return new HttpEdge(plan.config().http()).listen(vertx, options, httpEventLoops(), this::route)
        .onSuccess(s -> server = s)
        .onSuccess(s -> LOG.info("{} listening on http://{}:{} on {} event loops (health at {})", node,
            plan.config().http().bind(), s.actualPort(), httpEventLoops(), plan.readinessUrl()))
        .compose(s -> startServices())
        .compose(v -> bindJvmMetrics(registry))
        .onSuccess(v -> watchMemory())
        .onSuccess(v -> notifyOperator(registry, readiness));
  }

  /**
   * Starts the services, the reader first: the others (the scraper, whose start loads the queue, snapshots the open
   * chapters and begins startup recovery) are deployed once the reader's first deploy attempt is decided, at the latest
   * {@link #READER_HEAD_START_MS} after it began, so the reader does not share the machine's cores with that work while
   * it comes up (docs/operations.md, "Startup recovery"). Readiness stays honest: {@code /health/ready} says 503 until
   * every service is up.
   */
  private Future<?> startServices() {
    List<ServiceSupervisor> readers = supervisors.stream().filter(s -> s.name().equals(READER)).toList();
    List<ServiceSupervisor> others = supervisors.stream().filter(s -> !s.name().equals(READER)).toList();
    if (readers.isEmpty() || others.isEmpty()) {
      return Future.all(supervisors.stream().map(ServiceSupervisor::start).toList());
    }
    Future<?> reader = Future.all(readers.stream().map(ServiceSupervisor::start).toList());
    io.vertx.core.Promise<Void> headStart = io.vertx.core.Promise.promise();
    long timer = vertx.setTimer(READER_HEAD_START_MS, id -> {
      if (headStart.tryComplete()) {
        LOG.warn("[SUPERVISOR] the reader is not up after {} ms: starting {} anyway", READER_HEAD_START_MS,
            others.stream().map(ServiceSupervisor::name).toList());
      }
    });
    reader.onComplete(ar -> {
      vertx.cancelTimer(timer);
      headStart.tryComplete();
    });
    Future<?> rest = headStart.future().compose(v -> stopping ? Future.succeededFuture()
        : Future.all(others.stream().map(ServiceSupervisor::start).toList()));
    return Future.all(reader, rest);
  }

  /** The service that starts first. */
  private static final String READER = "reader";
  /** How long the other services wait at most for the reader's first deploy attempt to be decided, ms. */
  static final long READER_HEAD_START_MS = 10_000;

  /**
   * {@code POST /api/system/shutdown} reaches here through the reader: the process request stops this process; the
   * pair request (clustered) stops the process hosting the scraper, unless that is also the reader's process, which
   * the reader stops itself. The reply goes out before the stop begins; the stop itself runs on the main thread.
   */
  private void answerShutdownRequests() {
    if (stopProcess == null) {
      return;
    }
    vertx.eventBus().localConsumer(Addresses.LAUNCHER_PROCESS_SHUTDOWN,
        DecodingHandler.of(ShutdownRequest::fromJson, (message, request) -> {
          message.reply(new ShutdownReply(true, node).toJson());
          stopProcess.accept(request.requestedBy());
        }));
    if (!plan.mode().hostsScraper()) {
      return;
    }
    vertx.eventBus().consumer(Addresses.LAUNCHER_PAIR_SHUTDOWN,
        DecodingHandler.of(ShutdownRequest::fromJson, (message, request) -> {
          boolean separate = !plan.mode().hostsReader();
          message.reply(new ShutdownReply(separate, node).toJson());
          if (separate) {
            stopProcess.accept(request.requestedBy() + " (for the pair)");
          }
        }));
  }

  /** An operator's retry start of a blocked service; anything else is refused and changes nothing. */
  private void retryStart(ServiceSupervisor supervisor, Message<Object> message, ServiceStartRequest request) {
    if (!request.service().equals(supervisor.name())) {
      message.fail(ErrorCode.MALFORMED_MESSAGE.code(), "this address starts " + supervisor.name() + ", not "
          + request.service());
      return;
    }
    supervisor.retryStart(request.from()).onComplete(ar -> {
      if (ar.succeeded()) {
        message.reply(new JsonObject().put("v", 1).put("service", ar.result().toJson()));
      } else {
        message.fail(ErrorCode.ILLEGAL_TRANSITION.code(), ar.cause().getMessage());
      }
    });
  }

  /**
   * Notifications and the heartbeat (docs/notifications.md): sent by the process that hosts the reader, which hears
   * both services' events on the (clustered) bus and whose readiness covers both. Deployed even when nothing is
   * configured, so that the Settings page can add destinations; without a destination and a heartbeat URL it opens no
   * outbound connection. Its failure to start (a corrupt outbox file) is logged and leaves the rest of the process
   * running.
   */
  private void notifyOperator(MeterRegistry registry, HealthChecks readiness) {
    NotificationsConfig notifications = plan.config().notifications();
    if (!plan.mode().hostsReader()) {
      return;
    }
    vertx.deployVerticle(new NotificationVerticle(notifications, plan.config().dataPath().resolve("notifications"),
        plan.clock(), registry, () -> readiness.checkStatus().map(CheckResult::isUp)));
  }

  /**
   * The JVM's meters, once the services started (the reader answers by then): binding them loads the JMX beans and a
   * few hundred classes, which would otherwise be loaded before the reader's start (docs/operations.md#start-up-time).
   * Bound on a worker (≈ 0.2 s of CPU the event loops go on serving meanwhile); a failure is logged, never fatal.
   */
  private Future<Void> bindJvmMetrics(MeterRegistry registry) {
    if (registry == null) {
      return Future.succeededFuture();
    }
    return vertx.executeBlocking(() -> JvmMetrics.bind(registry)).<Void>map(metrics -> {
      if (stopping) {
        metrics.close();
      } else {
        jvmMetrics = metrics;
      }
      return null;
    }).recover(t -> {
      LOG.warn("[METRICS] the JVM's meters (jvm_*, process_*) could not be bound: {}", t.toString());
      return Future.succeededFuture();
    });
  }

  /** Memory-pressure yield for a process that hosts the scraper (docs/resilience.md, "Memory-pressure yield"). */
  private void watchMemory() {
    MangaCircusConfig.Memory memory = plan.config().memory();
    if (!memory.enabled() || !plan.mode().hostsScraper()) {
      return;
    }
    MemoryYield yield = new MemoryYield(memory.highWatermarkPct(), memory.lowWatermarkPct(),
        Duration.ofSeconds(memory.cooldownSeconds()), plan.clock());
    vertx.executeBlocking(() -> plan.memInfo().source()).onSuccess(source -> {
      LOG.info("[MEMORY] memory-yield readings come from {} (every {} s; pause at {}%, resume below {}%)", source,
          memory.pollSeconds(), memory.highWatermarkPct(), memory.lowWatermarkPct());
      memoryReading = source + ": no reading yet";
    });
    vertx.setPeriodic(memory.pollSeconds() * 1000, id -> vertx.executeBlocking(() -> plan.memInfo().read())
        .onSuccess(reading -> {
          String source = reading.source();
          OptionalDouble used = reading.usedPercent();
          if (used.isEmpty()) {
            memoryReading = source + ": cannot be read";
            return;
          }
          double pct = used.getAsDouble();
          memoryReading = source + ": " + Math.round(pct) + "% used";
          MemoryYield.Decision decision = yield.observe(pct);
          if (decision == MemoryYield.Decision.PAUSE) {
            LOG.warn("[MEMORY] memory {}% used ({}; high watermark {}%): downloads pause at their next checkpoint; "
                + "no resume below {}% before {} s", Math.round(pct), source, memory.highWatermarkPct(),
                memory.lowWatermarkPct(), memory.cooldownSeconds());
          } else if (decision == MemoryYield.Decision.RESUME) {
            LOG.info("[MEMORY] memory {}% used ({}; below {}%, cooldown over): downloads may resume", Math.round(pct),
                source, memory.lowWatermarkPct());
          }
          if (decision != MemoryYield.Decision.NONE) {
            vertx.eventBus().publish(Addresses.LAUNCHER_MEMORY_YIELD, new MemoryYieldChanged(node,
                decision == MemoryYield.Decision.PAUSE, "memory " + Math.round(pct) + "% used of " + source + " (high "
                + memory.highWatermarkPct() + "%, low " + memory.lowWatermarkPct() + "%)").toJson());
          }
          if (decision != MemoryYield.Decision.NONE || yield.yielding()) {
            String reason = "memory " + Math.round(pct) + "% used of " + source + " (high "
                + memory.highWatermarkPct() + "%, low " + memory.lowWatermarkPct() + "%)";
            vertx.eventBus().request(Addresses.SCRAPER_DOWNLOADS_YIELD,
                new YieldRequest(yield.yielding(), reason).toJson(),
                new DeliveryOptions().setSendTimeout(2000).setLocalOnly(true))
                .onFailure(t -> LOG.debug("[MEMORY] scraper not reachable for the yield: {}", t.getMessage()));
          }
        }));
  }

  @Override
  public Future<?> stop() {
    stopping = true;
    LOG.info("{} stopping: undeploying {}", node, supervisors.stream().map(ServiceSupervisor::name).toList());
    if (jvmMetrics != null) {
      jvmMetrics.close();
    }
    return Future.join(supervisors.stream().map(ServiceSupervisor::stop).toList())
        .compose(v -> server == null ? Future.succeededFuture() : server.close());
  }

  /** How many event loops serve HTTP: one per core where the reader is served, else one (health and metrics only). */
  private int httpEventLoops() {
    return plan.mode().hostsReader() ? Math.max(1, Runtime.getRuntime().availableProcessors()) : 1;
  }

  private void route(HttpServerRequest request) {
    SecurityHeaders.apply(request.response());
    String path = request.path();
    if (path.startsWith("/health/") || path.equals("/metrics") || !plan.mode().hostsReader()) {
      front.handle(request);
      return;
    }
    if (!publicHosts.admits(request.getHeader(HttpHeaders.HOST))) {
      // Not this site's name: a page of another site whose name now points here (DNS rebinding) gets nothing.
      request.response().setStatusCode(421).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(new JsonObject().put("error", "unknown_host").put("message", "this server answers only to the names "
              + "in http.publicHosts").encode());
      return;
    }
    Router reader = plan.readerRoutes().router();
    if (reader != null) {
      reader.handle(request);
      return;
    }
    String status = supervisors.stream().filter(s -> s.name().equals("reader")).findFirst()
        .map(s -> s.status().wire() + s.blockedReason().map(r -> " (" + r + ")").orElse("")).orElse("absent");
    request.response().setStatusCode(503).putHeader("Content-Type", "application/json").putHeader("Retry-After", "5")
        .end(new JsonObject().put("error", "reader_unavailable")
            .put("message", "the reader service is " + status + "; see /health/ready").encode());
  }

  /** How often the supervision state is published even without a change, ms. */
  static final long STATUS_REPEAT_MS = 5_000;

  private void publishStatus() {
    vertx.eventBus().publish(Addresses.LAUNCHER_STATUS,
        new LauncherStatus(node, supervisors.stream().map(ServiceSupervisor::state).toList(), memoryReading).toJson());
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return ManagementFactory.getRuntimeMXBean().getName();
    }
  }
}
