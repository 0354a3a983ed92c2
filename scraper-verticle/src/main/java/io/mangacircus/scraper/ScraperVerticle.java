package io.mangacircus.scraper;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.demosite.DemoSetup;
import io.mangacircus.scraper.demosite.DemoSite;
import io.mangacircus.scraper.discovery.DiscoveryService;
import io.mangacircus.scraper.discovery.LibraryTitles;
import io.mangacircus.scraper.follow.Follows;
import io.mangacircus.scraper.lane.Pacing;
import io.mangacircus.scraper.search.TitleSearch;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.lane.LaneVerticle;
import io.mangacircus.scraper.lane.ProgressBoard;
import io.mangacircus.scraper.lane.StallWatchdog;
import io.mangacircus.scraper.operator.OperatorRequests;
import io.mangacircus.scraper.operator.QueueEvents;
import io.mangacircus.scraper.operator.ScraperMetrics;
import io.mangacircus.scraper.publish.ChapterPublisher;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.LaneSettings;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.scraper.recovery.StartupRecovery;
import io.mangacircus.scraper.source.Circuits;
import io.mangacircus.scraper.source.SourceSet;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scraper service, which only wires: it opens the queue (the only owner of {@code queue.json}), lets
 * {@link OperatorRequests} answer the operator, runs startup recovery and then deploys one worker lane per source
 * (docs/architecture.md §1).
 */
public final class ScraperVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ScraperVerticle.class);

  private final ScraperConfig config;
  private final Path dataDir;
  private final ScraperMetrics metrics;
  private final InstantSource clock = InstantSource.system();
  private final String instance = UUID.randomUUID().toString();
  private final List<String> lanes = new ArrayList<>();
  private volatile boolean stopping;
  private Future<?> stopped;
  private DemoSite demoSite;
  private SourceSet sources;
  private LibraryFolders library;
  private EventLog events;
  private JobQueue queue;
  private ProgressBoard progress;
  private SystemicParserWatch systemic;
  private Circuits circuits;
  private DiscoveryService discovery;
  private Follows follows;
  private OperatorRequests operator;
  private StartupRecovery recovery;
  /** Ends when startup recovery's pass does (never fails); a stop waits for it before it closes the queue. */
  private Future<?> recovered = Future.succeededFuture();

  /**
   * @param dataDir the data folder; the scraper owns {@code scraper/} and {@code library/} in it
   * @param registry where the scraper's gauges go ({@link ScraperMetrics}); null for none
   */
  public ScraperVerticle(ScraperConfig config, Path dataDir, MeterRegistry registry) {
    this.config = config;
    this.dataDir = dataDir;
    this.metrics = new ScraperMetrics(registry);
  }

  @Override
  public Future<?> start() {
    operator = new OperatorRequests(vertx);
    operator.answerPings(new PingReply("scraper", instance, System.currentTimeMillis()));
    progress = new ProgressBoard(p -> vertx.eventBus().publish(Addresses.SCRAPER_JOB_PROGRESS, p.toJson()), clock);
    systemic = new SystemicParserWatch(config.failures().systemicParserJobs(),
        Duration.ofMinutes(config.failures().systemicParserWindowMinutes()), clock);
    return DemoSetup.start(vertx, config).compose(site -> {
      demoSite = site;
      return vertx.executeBlocking(this::openQueue);
    }).compose(v -> {
      seedFollows();
      Map<String, SourceConfig> configs = sources.configs();
      circuits = new Circuits(vertx, configs.keySet(), config.failures());
      metrics.register(circuits, queue);
      Map<String, String> types = new LinkedHashMap<>();
      configs.forEach((name, source) -> types.put(name, source.type()));
      TitleSearch search = new TitleSearch(vertx, new TitleSearch.Parts(types, sources::metadata, circuits::state,
          name -> Duration.ofMillis(Pacing.of(configs.get(name), queue.lanes().lane(name)).pageDelayMs())), clock);
      operator.register(new OperatorRequests.Parts(queue, progress, configs, circuits, sources::metadata,
          config.autoConfirm(), events, clock, discovery, library, follows, search));
      discovery.start();
      StallWatchdog stalls = new StallWatchdog(queue, library, configs, config, systemic, clock);
      vertx.setPeriodic(config.stall().checkIntervalSeconds() * 1000, id -> everyFewSeconds(stalls::tick));
      if (config.statusLogIntervalSeconds() > 0) {
        vertx.setPeriodic(config.statusLogIntervalSeconds() * 1000, id -> everyFewSeconds(this::logSummary));
      }
      recoverThenStartLanes();
      LOG.info("scraper started (instance {}, sources {}, data {})", instance, configs.keySet(),
          dataDir.toAbsolutePath());
      return Future.succeededFuture();
    });
  }

  /** Resolves the sources, opens the queue and discovery. Blocking (files). */
  private Void openQueue() {
    sources = SourceSet.resolve(DemoSetup.sources(config, demoSite), config.proxy());
    library = new LibraryFolders(dataDir.resolve("library"), sources.seriesFolderPrefixes());
    Path folder = dataDir.resolve("scraper");
    events = new EventLog(folder.resolve("events.log"));
    QueueEvents queueEvents = new QueueEvents(vertx, instance, progress);
    try {
      queue = new JobQueue(new QueueStore(folder.resolve("queue.json")), events, clock, sources.configs().keySet(),
          queueEvents);
      follows = Follows.open(folder.resolve("follows.json"), clock);
    } catch (CorruptStateFileException e) {
      LOG.error("[QUEUE] the scraper refuses to start: {}", e.getMessage());
      throw e;
    }
    queueEvents.afterPublished(manifest -> {
      try {
        follows.newChapter(manifest.source(), manifest.titleId(), manifest.series(), manifest.publishedAt());
      } catch (java.io.IOException e) {
        LOG.error("[FOLLOWS] could not record the new chapter in {}: {}", follows.file(), e.toString());
      }
    });
    discovery = new DiscoveryService(vertx, queue, follows, events, dataDir, config.discovery(),
        sources.configs().keySet(), clock, ZoneId.systemDefault());
    if (demoSite != null) {
      DemoSetup.queueTitle(queue, config);
    }
    return null;
  }

  /**
   * The first start's follows (no {@code follows.json} yet) are seeded from the library's chapters on a worker of
   * their own, beside recovery, not before the scraper's start goes on: until it ends, the follows' reads and changes
   * wait for it and the chapters published meanwhile are kept for it (Follows#seed). Nothing to do otherwise.
   */
  private void seedFollows() {
    Path libraryRoot = dataDir.resolve("library");
    vertx.executeBlocking(() -> {
      follows.seed(stopped -> LibraryTitles.scan(libraryRoot, stopped).stream()
          .map(t -> new Follows.LibraryTitle(t.source(), t.titleId(), t.series())).toList());
      return null;
    }, false).onFailure(t -> LOG.error("[FOLLOWS] following the titles already in the library failed: {}",
        t.toString(), t));
  }

  private void recoverThenStartLanes() {
    sources.startAdapters(vertx, clock, config, circuits::of);
    metrics.registerLimits(sources.adapters());
    // A hold the source named before a restart still holds: nothing is sent before it, recovery included.
    sources.adapters().forEach((name, adapter) -> {
      LaneSettings lane = queue.lanes().lane(name);
      if (lane.holding(clock.instant())) {
        adapter.holdUntil(lane.holdUntil(), lane.holdReason());
        LOG.info("[LANE {}] {} until {} (kept across the restart)", name, lane.holdReason(), lane.holdUntil());
      }
    });
    recovery = new StartupRecovery(vertx, queue, sources.metadata(), library, new ChapterPublisher(library, clock),
        config.recovery(), follows::batch);
    if (stopping) {
      recovery.stop();
    }
    Future<Boolean> pass = recovery.run()
        .map(report -> !report.stopped())
        .recover(error -> {
          if (stopping) {
            LOG.info("[RECOVERY] ended by the stop: {}", error.toString());
            return Future.succeededFuture(false);
          }
          LOG.error("[RECOVERY] failed: {}; lanes start anyway and re-check each chapter themselves", error.toString(),
              error);
          return Future.succeededFuture(true);
        });
    recovered = pass;
    pass.onSuccess(startLanes -> {
      if (startLanes) {
        startLanes();
      }
    });
  }

  private void startLanes() {
    if (stopping) {
      return;
    }
    sources.configs().forEach((name, source) -> LaneVerticle.deploy(vertx,
            new LaneVerticle(name, source, config, queue, library, progress, clock, circuits.of(name), systemic,
                sources.adapter(name)))
        .onSuccess(lanes::add)
        .onFailure(t -> {
          if (cancelledByStop(t)) {
            LOG.info("[LANE {}] not started: the scraper is stopping ({})", name, t.getMessage());
          } else {
            LOG.error("[LANE {}] could not start: {}", name, t.toString());
          }
        }));
  }

  /**
   * Whether a lane's deployment failed only because a stop reached it while it was starting: Vert.x closing
   * ("Verticle un-deployed") or this verticle being undeployed before the lane could join it as a child. Both are a
   * clean stop, not a failure to report.
   */
  private static boolean cancelledByStop(Throwable t) {
    String message = String.valueOf(t.getMessage());
    return message.equals("Verticle un-deployed") || message.endsWith("Could not be added as child of parent deployment");
  }

  /** Runs a periodic look at the queue on a worker (its lock can be held by a lane's fsync), never while stopping. */
  private void everyFewSeconds(Runnable look) {
    if (!stopping) {
      vertx.executeBlocking(() -> {
        look.run();
        return null;
      }).onFailure(t -> LOG.error("[SCRAPER] periodic task failed: {}", t.toString(), t));
    }
  }

  private void logSummary() {
    Map<String, Long> byState = new LinkedHashMap<>();
    queue.jobs().forEach(job -> byState.merge(job.state().wire(), 1L, Long::sum));
    LOG.info("scraper {}: {} jobs {}", instance, byState.values().stream().mapToLong(Long::longValue).sum(), byState);
  }

  @Override
  public Future<?> stop() {
    // Vert.x may ask twice (a deployment it had to undeploy while its parent stopped is undeployed again when it
    // closes): the queue is closed once.
    if (stopped == null) {
      stopped = stopOnce();
    }
    return stopped;
  }

  private Future<?> stopOnce() {
    stopping = true;
    if (discovery != null) {
      discovery.stop();
    }
    // Recovery's pass ends at its next chapter (its stop waits for a queue write under way, off the event loop); the
    // queue, the sources and the follows it uses are closed only after it did.
    StartupRecovery pass = recovery;
    Future<?> recoveryEnded = pass == null ? Future.succeededFuture()
        : vertx.executeBlocking(() -> {
          pass.stop();
          return null;
        }).eventually(() -> recovered);
    List<Future<?>> undeployed = new ArrayList<>();
    lanes.stream().filter(vertx.deploymentIDs()::contains).forEach(lane -> undeployed.add(vertx.undeploy(lane)));
    return Future.join(undeployed).eventually(() -> recoveryEnded).eventually(() -> {
      operator.close();
      if (circuits != null) {
        circuits.close();
      }
      metrics.close();
      if (sources != null) {
        sources.close();
      }
      Future<Void> site = demoSite == null ? Future.succeededFuture() : demoSite.close();
      return site.eventually(() -> vertx.executeBlocking(() -> {
        if (follows != null) {
          // A seed under way ends at its next library folder and writes nothing; the next start seeds again.
          follows.stopSeed();
        }
        if (queue != null) {
          // The journal folded into queue.json: the next start (or an older version) reads one file.
          queue.close();
        }
        if (events != null) {
          events.close();
        }
        return null;
      }));
    });
  }

  /** The demo site, when {@code --demo} started one (tests inject faults through it). */
  public DemoSite demoSite() {
    return demoSite;
  }
}
