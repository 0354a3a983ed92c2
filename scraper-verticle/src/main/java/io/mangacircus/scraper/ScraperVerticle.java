package io.mangacircus.scraper;

import io.mangacircus.contracts.AddTitleRequest;
import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ChapterPublished;
import io.mangacircus.contracts.library.PublishedChapter;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.DecodingHandler;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.JobProgress;
import io.mangacircus.contracts.JobRequest;
import io.mangacircus.contracts.LanePacingRequest;
import io.mangacircus.contracts.LaneRequest;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.contracts.ScraperRequests;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.demo.DemoCatalog;
import io.mangacircus.scraper.demo.DemoFaults;
import io.mangacircus.scraper.demo.DemoSite;
import io.mangacircus.scraper.lane.LaneVerticle;
import io.mangacircus.scraper.lane.ProgressBoard;
import io.mangacircus.scraper.lane.StallWatchdog;
import io.mangacircus.scraper.publish.ChapterPublisher;
import io.mangacircus.scraper.publish.LibraryLayout;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueOutcome;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.scraper.recovery.StartupRecovery;
import io.mangacircus.scraper.source.RequestLines;
import io.mangacircus.scraper.source.ResolvedSource;
import io.mangacircus.scraper.source.SourceTypes;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.Sources;
import io.mangacircus.contracts.YieldRequest;
import io.mangacircus.scraper.failure.Incident;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.source.CircuitGuardedSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.time.Instant;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scraper service and the only owner of the download queue: opens {@code queue.json}, answers the operator's
 * requests, runs startup recovery and then deploys one worker lane per source. Publishes progress and publications.
 */
public final class ScraperVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ScraperVerticle.class);

  private final ScraperConfig config;
  private final Path dataDir;
  private final InstantSource clock = InstantSource.system();
  private final String instance = UUID.randomUUID().toString();
  /** The sequence number of this instance's last {@code mc.library.published} event. */
  private final java.util.concurrent.atomic.AtomicLong publishedSeq = new java.util.concurrent.atomic.AtomicLong();
  private final List<MessageConsumer<Object>> consumers = new ArrayList<>();
  private final List<String> lanes = new ArrayList<>();
  private io.mangacircus.scraper.discovery.DiscoveryService discovery;
  private long startedAt;
  private Map<String, SourceConfig> sourceConfigs;
  private Map<String, ResolvedSource> resolvedSources;
  private Map<String, Source> metadataSources;
  private final Map<String, Source> adapters = new LinkedHashMap<>();
  private WebClient metadataClient;
  private JobQueue queue;
  private EventLog events;
  private LibraryLayout library;
  private ProgressBoard progress;
  private DemoSite demoSite;
  private volatile boolean stopping;
  private final MeterRegistry registry;
  private final Map<String, CircuitBreaker> breakers = new LinkedHashMap<>();
  private final List<io.micrometer.core.instrument.Meter> meters = new ArrayList<>();
  private SystemicParserWatch systemic;

  /**
   * @param dataDir the data folder; the scraper owns {@code scraper/} and {@code library/} in it
   * @param registry where {@code mc_circuit_state} and {@code mc_open_incidents} go; null for none
   */
  public ScraperVerticle(ScraperConfig config, Path dataDir, MeterRegistry registry) {
    this.config = config;
    this.dataDir = dataDir;
    this.registry = registry;
  }

  @Override
  public Future<?> start() {
    startedAt = System.currentTimeMillis();
    consume(Addresses.SCRAPER_PING, PingRequest::fromJson,
        (message, request) -> message.reply(new PingReply("scraper", instance, startedAt).toJson()));
    progress = new ProgressBoard(p -> vertx.eventBus().publish(Addresses.SCRAPER_JOB_PROGRESS, p.toJson()));
    systemic = new SystemicParserWatch(config.failures().systemicParserJobs(),
        Duration.ofMinutes(config.failures().systemicParserWindowMinutes()), clock);
    return startDemoSite().compose(v -> vertx.executeBlocking(this::resolveSources))
        .compose(v -> vertx.executeBlocking(this::openQueue)).compose(v -> {
      createBreakers();
      registerOperatorRequests();
      discovery.start();
      StallWatchdog stalls = new StallWatchdog(queue, library, sourceConfigs, config, systemic, clock);
      vertx.setPeriodic(config.stall().checkIntervalSeconds() * 1000, id -> {
        if (!stopping) {
          vertx.executeBlocking(() -> {
            stalls.tick();
            return null;
          }).onFailure(t -> LOG.error("[STALL] watchdog tick failed: {}", t.toString(), t));
        }
      });
      if (config.statusLogIntervalSeconds() > 0) {
        vertx.setPeriodic(config.statusLogIntervalSeconds() * 1000, id -> logSummary());
      }
      recoverThenStartLanes();
      LOG.info("scraper started (instance {}, sources {}, data {})", instance, sourceConfigs.keySet(),
          dataDir.toAbsolutePath());
      return Future.succeededFuture();
    });
  }

  private Future<Void> startDemoSite() {
    sourceConfigs = new LinkedHashMap<>(config.sources());
    if (!config.demo().enabled()) {
      return Future.succeededFuture();
    }
    return DemoSite.start(vertx, "127.0.0.1", config.demo().port(), new DemoCatalog(), new DemoFaults())
        .map(site -> {
          demoSite = site;
          SourceConfig configured = sourceConfigs.get("demo");
          sourceConfigs.put("demo", new SourceConfig("demo", site.baseUrl(),
              configured == null ? 100 : configured.pageDelayMs(), configured == null ? 500 : configured.chapterDelayMs()));
          LOG.info("demo site serving at {} (source 'demo')", site.baseUrl());
          return null;
        });
  }

  /**
   * Loads each source's definition once (type html) and makes its effective settings the ones every lane, view and
   * pacing decision uses; the library learns the sources' series-folder prefixes.
   */
  private Void resolveSources() {
    resolvedSources = new LinkedHashMap<>();
    sourceConfigs.forEach((name, source) -> resolvedSources.put(name, SourceTypes.resolve(name, source)));
    resolvedSources.forEach((name, resolved) -> {
      sourceConfigs.put(name, resolved.config());
      if (!resolved.description().isEmpty()) {
        LOG.info("source {}: {}, site {}, page delay {} ms, chapter delay {} ms, series folders '{}…'",
            name, resolved.description(), resolved.config().baseUrl(), resolved.config().pageDelayMs(),
            resolved.config().chapterDelayMs(), resolved.seriesFolderPrefix());
      }
    });
    library = new LibraryLayout(dataDir.resolve("library"),
        Sources.seriesFolderPrefixes(new ArrayList<>(resolvedSources.values())));
    return null;
  }

  private Void openQueue() {
    Path folder = dataDir.resolve("scraper");
    QueueStore store = new QueueStore(folder.resolve("queue.json"));
    events = new EventLog(folder.resolve("events.log"));
    try {
      queue = new JobQueue(store, events, clock, sourceConfigs.keySet(), new BusPublisher());
    } catch (CorruptStateFileException e) {
      LOG.error("[QUEUE] the scraper refuses to start: {}", e.getMessage());
      throw e;
    }
    discovery = new io.mangacircus.scraper.discovery.DiscoveryService(vertx, queue, events, dataDir,
        config.discovery(), sourceConfigs.keySet(), clock, java.time.ZoneId.systemDefault());
    if (demoSite != null) {
      String title = config.demo().title();
      boolean known = queue.jobs().stream().anyMatch(j -> j.source().equals("demo") && j.titleId().equals(title));
      if (!known) {
        queue.add("demo", title, true);
        LOG.info("demo title '{}' added (auto-confirmed): watch it download at /api/admin/jobs", title);
      }
    }
    return null;
  }

  private void createBreakers() {
    sourceConfigs.keySet().forEach(name -> breakers.put(name, CircuitGuardedSource.breaker(vertx, name,
        config.failures(), state -> {
          LOG.warn("[CIRCUIT {}] {}", name, state.name().toLowerCase(java.util.Locale.ROOT));
          vertx.eventBus().publish(Addresses.SCRAPER_CIRCUIT_STATE, new JsonObject().put("v", 1).put("source", name)
              .put("state", state.name().toLowerCase(java.util.Locale.ROOT)));
        })));
    if (registry != null) {
      breakers.forEach((name, breaker) -> meters.add(Gauge.builder("mc.circuit.state", breaker,
              b -> CircuitGuardedSource.gaugeValue(b.state()))
          .description("Circuit of a source: 0 closed, 1 half-open, 2 open").tag("source", name).register(registry)));
      sourceConfigs.keySet().forEach(name -> {
        meters.add(Gauge.builder("mc.source.titles", queue, q -> q.coverage(name).titles())
            .description("Titles of a source with a job").tag("source", name).register(registry));
        meters.add(Gauge.builder("mc.source.chapters.found", queue, q -> q.coverage(name).chaptersFound())
            .description("English chapters the source listed at its titles' last inspections").tag("source", name)
            .register(registry));
        meters.add(Gauge.builder("mc.source.last.contact", queue, q -> {
          Instant at = q.coverage(name).lastContactAt();
          return at == null ? Double.NaN : at.getEpochSecond();
        }).description("Epoch seconds of the last successful contact with the source since this start")
            .baseUnit("seconds").tag("source", name).register(registry));
      });
      meters.add(Gauge.builder("mc.open.incidents", queue, q -> q.incidents().open())
          .description("Incidents no operator retry or resume has cleared yet").register(registry));
    }
  }

  private void recoverThenStartLanes() {
    // Each source's adapter is built once, on one client, and shared by its lane and the metadata requests; adapters
    // of one site share its request line (e.g. MangaDex's limits per API root) through this process's lines.
    metadataClient = Sources.client(vertx);
    RequestLines lines = new RequestLines(clock);
    metadataSources = new LinkedHashMap<>();
    sourceConfigs.forEach((name, source) -> adapters.put(name,
        resolvedSources.get(name).create(vertx, metadataClient, clock, config, lines)));
    // A hold the source named before a restart still holds: nothing is sent before it, recovery included.
    adapters.forEach((name, adapter) -> {
      var lane = queue.lanes().lane(name);
      if (lane.holding(clock.instant())) {
        adapter.holdUntil(lane.holdUntil(), lane.holdReason());
        LOG.info("[LANE {}] {} until {} (kept across the restart)", name, lane.holdReason(), lane.holdUntil());
      }
    });
    adapters.forEach((name, adapter) -> metadataSources.put(name, new CircuitGuardedSource(adapter,
        breakers.get(name), vertx, config.failures())));
    new StartupRecovery(vertx, queue, metadataSources, library, new ChapterPublisher(library, clock), config.recovery())
        .run()
        .recover(error -> {
          LOG.error("[RECOVERY] failed: {}; lanes start anyway and re-check each chapter themselves", error.toString(),
              error);
          return Future.succeededFuture();
        })
        .onComplete(ar -> startLanes());
  }

  private void startLanes() {
    if (stopping) {
      return;
    }
    sourceConfigs.forEach((name, source) -> vertx.deployVerticle(
            new LaneVerticle(name, source, config, queue, library, progress, clock, breakers.get(name), systemic,
                adapters.get(name)),
            new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER))
        .onSuccess(lanes::add)
        .onFailure(t -> LOG.error("[LANE {}] could not start: {}", name, t.toString())));
  }

  @Override
  public Future<?> stop() {
    stopping = true;
    if (discovery != null) {
      discovery.stop();
    }
    List<Future<?>> undeployed = new ArrayList<>();
    for (String lane : lanes) {
      if (vertx.deploymentIDs().contains(lane)) {
        undeployed.add(vertx.undeploy(lane));
      }
    }
    return Future.join(undeployed).eventually(() -> {
      consumers.forEach(MessageConsumer::unregister);
      breakers.values().forEach(CircuitBreaker::close);
      if (registry != null) {
        meters.forEach(registry::remove);
      }
      if (metadataClient != null) {
        metadataClient.close();
      }
      Future<Void> site = demoSite == null ? Future.succeededFuture() : demoSite.close();
      return site.eventually(() -> vertx.executeBlocking(() -> {
        if (events != null) {
          events.close();
        }
        return null;
      }));
    });
  }

  // ---- operator requests --------------------------------------------------------------------------------------

  private void registerOperatorRequests() {
    consume(Addresses.SCRAPER_JOBS_LIST, ScraperRequests::checkList, (message, none) -> replyOffLoop(message,
        this::jobsJson));
    consume(Addresses.SCRAPER_JOBS_ADD, AddTitleRequest::fromJson, this::handleAdd);
    jobCommand(Addresses.SCRAPER_JOBS_CONFIRM, queue::confirm);
    jobCommand(Addresses.SCRAPER_JOBS_PAUSE, queue::pause);
    jobCommand(Addresses.SCRAPER_JOBS_RESUME, queue::resume);
    jobCommand(Addresses.SCRAPER_JOBS_RETRY, queue::retry);
    consume(Addresses.SCRAPER_LANES_LIST, ScraperRequests::checkList, (message, none) -> replyOffLoop(message,
        this::lanesJson));
    consume(Addresses.SCRAPER_INCIDENTS_LIST, ScraperRequests::checkList,
        (message, none) -> replyOffLoop(message, this::incidentsJson));
    consume(Addresses.SCRAPER_DOWNLOADS_YIELD, YieldRequest::fromJson, (message, request) -> {
      String before = queue.lanes().yieldReason();
      queue.lanes().yieldDownloads(request.yield() ? request.reason() : null);
      if ((before == null) == request.yield()) {
        LOG.warn("[YIELD] downloads {}: {}", request.yield() ? "pause at their next checkpoint" : "may resume",
            request.reason());
        events.append("downloads.yield", clock.instant(), new JsonObject().put("yield", request.yield())
            .put("reason", request.reason()));
      }
      message.reply(new JsonObject().put("v", 1).put("yielding", request.yield()));
    });
    consume(Addresses.SCRAPER_LANES_PAUSE, LaneRequest::fromJson, (message, request) ->
        laneCommand(message, request.source(), () -> queue.lanes().pause(request.source(), "paused by the operator")));
    consume(Addresses.SCRAPER_LANES_RESUME, LaneRequest::fromJson, (message, request) ->
        laneCommand(message, request.source(), () -> queue.lanes().resume(request.source())));
    consume(Addresses.SCRAPER_LANES_PACING, LanePacingRequest::fromJson, (message, request) ->
        laneCommand(message, request.source(),
            () -> queue.lanes().pacing(request.source(), request.pageDelayMs(), request.chapterDelayMs())));
  }

  /**
   * Answers a read from a worker: the queue's lock can be held by a lane while it fsyncs, and the event loop (pings,
   * health) must never wait for that.
   */
  private void replyOffLoop(Message<Object> message, Callable<JsonObject> read) {
    vertx.executeBlocking(read, false).onSuccess(message::reply).onFailure(t -> message.fail(
        ErrorCode.INTERNAL_ERROR.code(), "the scraper could not read its queue: " + t.getMessage()));
  }

  private void handleAdd(Message<Object> message, AddTitleRequest request) {
    Source source = metadataSources == null ? null : metadataSources.get(request.source());
    String titleId = source == null ? request.title().trim() : source.titleIdOf(request.title());
    boolean autoConfirm = request.autoConfirm() != null ? request.autoConfirm() : config.autoConfirm();
    var addition = new java.util.concurrent.atomic.AtomicReference<JobQueue.Addition>();
    blocking(message, () -> {
      addition.set(queue.addTitle(request.source(), titleId, autoConfirm));
      return addition.get().outcome();
    }, job -> new JsonObject().put("created", addition.get().created())
        .put("supersededJobId", addition.get().supersededJobId()));
  }

  private void jobCommand(String address, Function<String, QueueOutcome> command) {
    consume(address, JobRequest::fromJson, (message, request) ->
        blocking(message, () -> command.apply(request.jobId()), job -> new JsonObject()));
  }

  private void laneCommand(Message<Object> message, String source, Runnable command) {
    if (!sourceConfigs.containsKey(source)) {
      message.fail(ErrorCode.UNKNOWN_SOURCE.code(), "unknown source '" + source + "' (configured: "
          + String.join(", ", sourceConfigs.keySet()) + ")");
      return;
    }
    vertx.executeBlocking(() -> {
      command.run();
      return null;
    }).onSuccess(v -> message.reply(new JsonObject().put("v", 1)
            .put("lane", JobViews.lane(source, sourceConfigs.get(source), queue.lanes().lane(source), circuit(source)))))
        .onFailure(t -> storageFailure(message, t));
  }

  private void blocking(Message<Object> message, Callable<QueueOutcome> operation,
      Function<Job, JsonObject> extra) {
    vertx.executeBlocking(operation).onSuccess(outcome -> {
      if (outcome.accepted()) {
        message.reply(extra.apply(outcome.job()).put("v", 1)
            .put("job", JobViews.job(outcome.job(), progress.of(outcome.job().id()))));
        return;
      }
      ErrorCode code = switch (outcome.kind()) {
        case NOT_FOUND -> ErrorCode.NOT_FOUND;
        case UNKNOWN_SOURCE -> ErrorCode.UNKNOWN_SOURCE;
        default -> ErrorCode.ILLEGAL_TRANSITION;
      };
      message.fail(code.code(), outcome.refusal());
    }).onFailure(t -> storageFailure(message, t));
  }

  private void storageFailure(Message<Object> message, Throwable t) {
    LOG.error("[QUEUE] request on {} failed: {}", message.address(), t.toString(), t);
    message.fail(ErrorCode.STORAGE_ERROR.code(), "the scraper could not record the change: " + t.getMessage());
  }

  private JsonObject jobsJson() {
    JsonArray jobs = new JsonArray();
    queue.jobs().forEach(job -> jobs.add(JobViews.job(job, progress.of(job.id()))));
    return new JsonObject().put("v", 1).put("jobs", jobs);
  }

  private JsonObject lanesJson() {
    JsonArray list = new JsonArray();
    sourceConfigs.forEach((name, source) -> list.add(JobViews.lane(name, source, queue.lanes().lane(name), circuit(name),
        queue.coverage(name))));
    return new JsonObject().put("v", 1).put("lanes", list).put("yieldReason", queue.lanes().yieldReason());
  }

  private String circuit(String source) {
    CircuitBreaker breaker = breakers.get(source);
    return breaker == null ? "closed" : breaker.state().name().toLowerCase(java.util.Locale.ROOT);
  }

  private JsonObject incidentsJson() {
    JsonArray list = new JsonArray();
    List<Incident> incidents = new ArrayList<>(queue.incidents().list());
    java.util.Collections.reverse(incidents);
    for (Incident incident : incidents) {
      list.add(incidentJson(incident));
    }
    return new JsonObject().put("v", 1).put("open", queue.incidents().open()).put("incidents", list);
  }

  private static JsonObject incidentJson(Incident incident) {
    return new JsonObject().put("id", incident.id()).put("at", incident.at().toString())
        .put("kind", incident.kind().wire()).put("source", incident.source()).put("jobId", incident.jobId())
        .put("httpStatus", incident.httpStatus()).put("message", incident.message()).put("action", incident.action())
        .put("resolvedAt", incident.resolvedAt() == null ? null : incident.resolvedAt().toString());
  }

  private void logSummary() {
    Map<String, Long> byState = new LinkedHashMap<>();
    queue.jobs().forEach(job -> byState.merge(job.state().wire(), 1L, Long::sum));
    LOG.info("scraper {}: {} jobs {}", instance, queue.jobs().size(), byState);
  }

  private <T> void consume(String address, Function<Object, T> decoder, BiConsumer<Message<Object>, T> handler) {
    consumers.add(vertx.eventBus().consumer(address, DecodingHandler.of(decoder, handler)));
  }

  /** The demo site, when {@code --demo} started one (tests inject faults through it). */
  public DemoSite demoSite() {
    return demoSite;
  }

  /** Publishes queue changes on the event bus. */
  private final class BusPublisher implements QueueListener {
    @Override
    public void jobChanged(Job job) {
      JobProgress last = progress == null ? null : progress.of(job.id()).orElse(null);
      vertx.eventBus().publish(Addresses.SCRAPER_JOB_PROGRESS, new JobProgress(job.id(), job.source(), job.title(),
          job.state().wire(), last == null ? null : last.chapterId(), last == null ? null : last.chapterNumber(),
          last == null ? 0 : last.page(), last == null ? 0 : last.pages(), (int) job.publishedChapters(),
          job.chapters().size()).toJson());
    }

    @Override
    public void chapterPublished(Job job, ChapterEntry chapter, PublishedChapter where) {
      // Told in commit order (outside the queue's lock, one notice at a time): numbers follow publication order.
      ChapterPublished event = new ChapterPublished(instance, publishedSeq.incrementAndGet(), where.seriesId(),
          where.path(), where.manifest());
      vertx.eventBus().publish(Addresses.LIBRARY_PUBLISHED, event.toJson());
    }

    @Override
    public void incidentRecorded(Incident incident) {
      vertx.eventBus().publish(Addresses.SCRAPER_INCIDENT_RECORDED, incidentJson(incident).put("v", 1));
    }
  }
}
