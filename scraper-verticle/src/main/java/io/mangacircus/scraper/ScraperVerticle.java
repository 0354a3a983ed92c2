package io.mangacircus.scraper;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ChapterPublished;
import io.mangacircus.contracts.library.PublishedChapter;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.JobProgress;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.demo.DemoCatalog;
import io.mangacircus.scraper.demo.DemoFaults;
import io.mangacircus.scraper.demo.DemoSite;
import io.mangacircus.scraper.lane.LaneVerticle;
import io.mangacircus.scraper.lane.ProgressBoard;
import io.mangacircus.scraper.operator.OperatorRequests;
import io.mangacircus.scraper.operator.ScraperMetrics;
import io.mangacircus.scraper.operator.Views;
import io.mangacircus.scraper.publish.ChapterPublisher;
import io.mangacircus.scraper.publish.LibraryLayout;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.scraper.recovery.StartupRecovery;
import io.mangacircus.scraper.source.CircuitGuardedSource;
import io.mangacircus.scraper.source.Circuits;
import io.mangacircus.scraper.source.RequestLines;
import io.mangacircus.scraper.source.ResolvedSource;
import io.mangacircus.scraper.source.SourceTypes;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.Sources;
import io.mangacircus.scraper.failure.Failure;
import io.mangacircus.scraper.failure.FailureAction;
import io.mangacircus.scraper.failure.FailureClassifier;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.failure.Incident;
import io.mangacircus.scraper.failure.StallWatch;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scraper service and the only owner of the download queue: opens {@code queue.json}, lets
 * {@link OperatorRequests} answer the operator, runs startup recovery and then deploys one worker lane per source.
 * Publishes progress and publications.
 */
public final class ScraperVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ScraperVerticle.class);

  private final ScraperConfig config;
  private final Path dataDir;
  private final InstantSource clock = InstantSource.system();
  private final String instance = UUID.randomUUID().toString();
  /** The sequence number of this instance's last {@code mc.library.published} event. */
  private final java.util.concurrent.atomic.AtomicLong publishedSeq = new java.util.concurrent.atomic.AtomicLong();
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
  private final ScraperMetrics metrics;
  private OperatorRequests operator;
  private Circuits circuits;
  private SystemicParserWatch systemic;
  private StallWatch stallWatch;

  /**
   * @param dataDir the data folder; the scraper owns {@code scraper/} and {@code library/} in it
   * @param registry where {@code mc_circuit_state} and {@code mc_open_incidents} go; null for none
   */
  public ScraperVerticle(ScraperConfig config, Path dataDir, MeterRegistry registry) {
    this.config = config;
    this.dataDir = dataDir;
    this.metrics = new ScraperMetrics(registry);
  }

  @Override
  public Future<?> start() {
    startedAt = System.currentTimeMillis();
    operator = new OperatorRequests(vertx);
    operator.answerPings(new PingReply("scraper", instance, startedAt));
    progress = new ProgressBoard(p -> vertx.eventBus().publish(Addresses.SCRAPER_JOB_PROGRESS, p.toJson()));
    systemic = new SystemicParserWatch(config.failures().systemicParserJobs(),
        Duration.ofMinutes(config.failures().systemicParserWindowMinutes()), clock);
    stallWatch = new StallWatch(Duration.ofSeconds(config.stall().stallAfterSeconds()),
        Duration.ofSeconds(config.stall().chapterDelayGraceSeconds()), clock);
    return startDemoSite().compose(v -> vertx.executeBlocking(this::resolveSources))
        .compose(v -> vertx.executeBlocking(this::openQueue)).compose(v -> {
      circuits = new Circuits(vertx, sourceConfigs.keySet(), config.failures());
      metrics.register(circuits, queue);
      operator.register(new OperatorRequests.Parts(queue, progress, sourceConfigs, circuits,
          name -> metadataSources == null ? null : metadataSources.get(name), config.autoConfirm(), events, clock,
          discovery));
      discovery.start();
      vertx.setPeriodic(config.stall().checkIntervalSeconds() * 1000, id -> checkStalls());
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

  private void recoverThenStartLanes() {
    // Each source's adapter is built once, on one client, and shared by its lane and the metadata requests; adapters
    // of one site share its request line (e.g. MangaDex's limits per API root) through this process's lines.
    metadataClient = Sources.client(vertx);
    RequestLines lines = new RequestLines(clock);
    metadataSources = new LinkedHashMap<>();
    sourceConfigs.forEach((name, source) -> adapters.put(name,
        resolvedSources.get(name).create(vertx, metadataClient, clock, config, lines)));
    adapters.forEach((name, adapter) -> metadataSources.put(name, new CircuitGuardedSource(adapter,
        circuits.of(name), vertx, config.failures())));
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
            new LaneVerticle(name, source, config, queue, library, progress, clock, circuits.of(name), systemic,
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
      operator.close();
      if (circuits != null) {
        circuits.close();
      }
      metrics.close();
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

  /** The stall watchdog's tick: judge active jobs by their checkpoint fingerprints (docs/architecture.md §5). */
  private void checkStalls() {
    if (stopping || queue == null) {
      return;
    }
    vertx.executeBlocking(() -> {
      boolean queuePaused = queue.yieldReason() != null
          || sourceConfigs.keySet().stream().allMatch(s -> queue.lane(s).paused());
      List<StallWatch.Observation> active = new ArrayList<>();
      for (Job job : queue.jobs()) {
        if (job.state() == io.mangacircus.scraper.queue.JobState.ACTIVE) {
          SourceConfig source = sourceConfigs.get(job.source());
          long chapterDelay = source == null ? 0
              : io.mangacircus.scraper.lane.Pacing.of(source, queue.lane(job.source())).chapterDelayMs();
          active.add(new StallWatch.Observation(job.id(), checkpointFingerprint(job), Duration.ofMillis(chapterDelay)));
        }
      }
      for (String jobId : stallWatch.tick(active, queuePaused)) {
        queue.job(jobId).ifPresent(this::stalled);
      }
      return null;
    }).onFailure(t -> LOG.error("[STALL] watchdog tick failed: {}", t.toString(), t));
  }

  private void stalled(Job job) {
    Failure failure = new Failure(FailureKind.STALL, null, "no checkpoint progress for "
        + config.stall().stallAfterSeconds() + " s (or chapter delay + " + config.stall().chapterDelayGraceSeconds()
        + " s)");
    FailureAction action = FailureClassifier.action(failure, job.networkRetries(), job.stalls(),
        io.mangacircus.scraper.failure.RetryPolicy.of(config.failures()));
    LOG.warn("[STALL] job {} ({}) stalled: {} → {}", job.id(), job.title(), failure.message(), action.description());
    if (action == FailureAction.REQUEUE) {
      queue.requeueStalled(job.id(), "stalled: " + failure.message() + "; requeued (stall 1)");
    } else {
      queue.setback(job.id(), io.mangacircus.scraper.queue.JobState.QUARANTINED,
          "stalled again: " + failure.message(), true, null);
    }
    queue.recordIncident(failure, job.source(), job.id(), action);
  }

  /** Completed chapters and validated pages of the open chapter; empty when its checkpoint cannot be read. */
  private java.util.OptionalLong checkpointFingerprint(Job job) {
    long pages = 0;
    for (ChapterEntry chapter : job.chapters()) {
      if (chapter.stage().open() && chapter.fingerprint() != null) {
        Path staging = library.staging(chapter.fingerprint());
        if (java.nio.file.Files.isDirectory(staging)) {
          try {
            pages += io.mangacircus.scraper.publish.StagingFolder.readCheckpoint(staging)
                .map(c -> c.pages().size()).orElse(0);
          } catch (CorruptStateFileException e) {
            return java.util.OptionalLong.empty();
          }
        }
      }
    }
    return java.util.OptionalLong.of(job.publishedChapters() * 1_000_000 + pages);
  }

  private void logSummary() {
    Map<String, Long> byState = new LinkedHashMap<>();
    queue.jobs().forEach(job -> byState.merge(job.state().wire(), 1L, Long::sum));
    LOG.info("scraper {}: {} jobs {}", instance, queue.jobs().size(), byState);
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
      // Told inside the queue's lock: numbers follow publication order.
      ChapterPublished event = new ChapterPublished(instance, publishedSeq.incrementAndGet(), where.seriesId(),
          where.path(), where.manifest());
      vertx.eventBus().publish(Addresses.LIBRARY_PUBLISHED, event.toJson());
    }

    @Override
    public void incidentRecorded(Incident incident) {
      vertx.eventBus().publish(Addresses.SCRAPER_INCIDENT_RECORDED, Views.incident(incident).toEvent());
    }
  }
}
