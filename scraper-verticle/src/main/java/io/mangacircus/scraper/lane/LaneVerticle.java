package io.mangacircus.scraper.lane;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.support.supervision.Backoff;
import io.mangacircus.support.supervision.CrashBudget;
import io.mangacircus.scraper.failure.Failure;
import io.mangacircus.scraper.failure.FailureAction;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.failure.RetryPolicy;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.source.CircuitGuardedSource;
import io.mangacircus.scraper.source.Source;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.mangacircus.scraper.source.RequestLines;
import io.mangacircus.scraper.source.ResolvedSource;
import io.mangacircus.scraper.source.SourceTypes;
import io.mangacircus.scraper.source.Sources;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.Lock;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.time.InstantSource;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One source's worker lane. It holds the cluster-wide lock {@code mc.lane.<source>} (so at most one lane per source
 * runs anywhere), then claims one job at a time and hands it to a {@link JobDownloader}. Stopping waits for the
 * current job to reach its next checkpoint. Deploy it with {@link #deploy}: its work begins only once its deployment
 * has succeeded.
 */
public final class LaneVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(LaneVerticle.class);
  private static final long LOCK_RETRY_MS = 5_000;
  private static final long STOP_WAIT_MS = 25_000;

  private final String sourceName;
  private final SourceConfig sourceConfig;
  private final ScraperConfig config;
  private final JobQueue queue;
  private final LibraryFolders library;
  private final ProgressBoard progress;
  private final InstantSource clock;
  private final CircuitBreaker breaker;
  private final SystemicParserWatch systemic;
  private final Function<WebClient, Source> adapter;
  private final Source shared;

  private volatile boolean stopping;
  /** Set on the lane's context once {@link #begin} has started the work; before that no job can be held. */
  private boolean begun;
  private String idleReason;
  private String owner;
  private String currentJob;
  private CrashBudget crashes;
  private Backoff crashBackoff;
  private RetryPolicy retry;
  private WebClient client;
  private JobDownloader downloader;
  private Lock lock;
  private long timer = -1;
  private boolean waitingForLockLogged;
  private Future<Void> current = Future.succeededFuture();

  /**
   * A lane whose adapter is built from the configuration on the lane's own HTTP client (tests; the scraper passes the
   * adapter it shares with its metadata requests).
   */
  public LaneVerticle(String sourceName, SourceConfig sourceConfig, ScraperConfig config, JobQueue queue,
      LibraryFolders library, ProgressBoard progress, InstantSource clock, CircuitBreaker breaker,
      SystemicParserWatch systemic) {
    this(sourceName, sourceConfig, config, queue, library, progress, clock, breaker, systemic, null,
        null);
  }

  /** As above with the source adapter built by {@code adapter} from the lane's HTTP client. */
  public LaneVerticle(String sourceName, SourceConfig sourceConfig, ScraperConfig config, JobQueue queue,
      LibraryFolders library, ProgressBoard progress, InstantSource clock, CircuitBreaker breaker,
      SystemicParserWatch systemic, Function<WebClient, Source> adapter) {
    this(sourceName, sourceConfig, config, queue, library, progress, clock, breaker, systemic, adapter, null);
  }

  /** A lane on the source's one adapter, built by the scraper and shared with its metadata requests. */
  public LaneVerticle(String sourceName, SourceConfig sourceConfig, ScraperConfig config, JobQueue queue,
      LibraryFolders library, ProgressBoard progress, InstantSource clock, CircuitBreaker breaker,
      SystemicParserWatch systemic, Source adapter) {
    this(sourceName, sourceConfig, config, queue, library, progress, clock, breaker, systemic, null, adapter);
  }

  private LaneVerticle(String sourceName, SourceConfig sourceConfig, ScraperConfig config, JobQueue queue,
      LibraryFolders library, ProgressBoard progress, InstantSource clock, CircuitBreaker breaker,
      SystemicParserWatch systemic, Function<WebClient, Source> adapter, Source shared) {
    this.adapter = adapter;
    this.shared = shared;
    this.breaker = breaker;
    this.systemic = systemic;
    this.sourceName = sourceName;
    this.sourceConfig = sourceConfig;
    this.config = config;
    this.queue = queue;
    this.library = library;
    this.progress = progress;
    this.clock = clock;
  }

  /**
   * Deploys a lane as a worker and begins its work once the deployment has succeeded. Never from its own start: a stop
   * that reaches Vert.x while a lane is still starting (SIGTERM right after startup recovery) cancels the deployment,
   * and Vert.x then never calls that lane's {@link #stop}; a lane that had begun in its start would go on claiming
   * jobs while the queue is closed, and Vert.x's second completion of the cancelled start ("Promise already
   * completed") would be recorded as a lane crash.
   */
  public static Future<String> deploy(Vertx vertx, LaneVerticle lane) {
    return vertx.deployVerticle(lane, new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER))
        .compose(id -> lane.begin().map(id));
  }

  /** The lock that keeps a source to one lane in the whole cluster. */
  public static String lockName(String source) {
    return "mc.lane." + source;
  }

  @Override
  public Future<?> start() {
    Source adapted = shared;
    if (adapted == null) {
      ResolvedSource resolved = adapter != null ? null
          : SourceTypes.resolve(sourceName, sourceConfig, config.proxy());
      client = Sources.client(vertx, resolved == null ? null : resolved.proxy());
      adapted = adapter != null ? adapter.apply(client)
          : resolved.create(vertx, client, clock, config, new RequestLines(clock));
    }
    Source source = new CircuitGuardedSource(adapted, breaker, vertx, config.failures());
    owner = "lane:" + sourceName + "@" + ProcessHandle.current().pid() + "/" + deploymentID();
    retry = RetryPolicy.of(config.failures());
    crashes = retry.laneCrashBudget(clock);
    crashBackoff = retry.laneRestart();
    context.exceptionHandler(this::uncaught);
    FailureResponder failures = new FailureResponder(queue, sourceName, systemic, clock,
        retry, adapted.parserFailuresAreSystemic());
    downloader = new JobDownloader(vertx, source, sourceConfig, queue, library, progress, clock,
        Duration.ofSeconds(config.leaseSeconds()), owner, () -> stopping, failures);
    return Future.succeededFuture();
  }

  /**
   * Starts the work on the lane's context, unless the lane is already stopping; completes once the lane has asked for
   * its source's lock (so lanes deployed one after the other ask in that order).
   */
  private Future<Void> begin() {
    Promise<Void> asked = Promise.promise();
    context.runOnContext(v -> {
      if (!stopping && !begun) {
        begun = true;
        acquireLock(owner);
      }
      asked.complete();
    });
    return asked.future();
  }

  /**
   * An exception nobody caught on the lane's context. Before the work began it can only be Vert.x completing the start
   * of a deployment that a stop has cancelled: no job is held and nothing ran, so it is no crash.
   */
  private void uncaught(Throwable error) {
    if (!begun) {
      LOG.info("[LANE {}] stopped while it was starting; it never began ({})", sourceName, error.toString());
      return;
    }
    crashed(error);
  }

  private void acquireLock(String owner) {
    if (stopping) {
      return;
    }
    vertx.sharedData().getLockWithTimeout(lockName(sourceName), 1_000).onComplete(ar -> {
      if (ar.succeeded() && stopping) {
        // The lane stopped while the lock was on its way: hand it back, or the source's next lane would wait forever.
        ar.result().release();
        return;
      }
      if (ar.succeeded()) {
        lock = ar.result();
        LOG.info("[LANE {}] started ({}), page delay {} ms, chapter delay {} ms", sourceName, owner,
            Pacing.of(sourceConfig, queue.lanes().lane(sourceName)).pageDelayMs(),
            Pacing.of(sourceConfig, queue.lanes().lane(sourceName)).chapterDelayMs());
        loop(owner);
      } else {
        if (!waitingForLockLogged) {
          LOG.warn("[LANE {}] another process runs this source's lane; waiting for it to stop", sourceName);
          waitingForLockLogged = true;
        }
        timer = vertx.setTimer(LOCK_RETRY_MS, id -> acquireLock(owner));
      }
    });
  }

  private void loop(String owner) {
    if (stopping) {
      return;
    }
    try {
      claimAndWork(owner);
    } catch (RuntimeException e) {
      crashed(e);
    }
  }

  private void claimAndWork(String owner) {
    currentJob = null;
    var claim = queue.claim(sourceName, owner, Duration.ofSeconds(config.leaseSeconds()));
    if (claim.isEmpty()) {
      String yieldReason = queue.lanes().yieldReason();
      var lane = queue.lanes().lane(sourceName);
      idle(yieldReason != null ? "memory yield: " + yieldReason
          : lane.paused() ? "operator paused: " + lane.pauseReason()
          : lane.holding(clock.instant()) ? "held: " + lane.holdReason() + " until " + lane.holdUntil()
          : "queue drained");
      timer = vertx.setTimer(config.claimPollMs(), id -> loop(owner));
      return;
    }
    idleReason = null;
    JobQueue.Claim work = claim.get();
    currentJob = work.job().id();
    current = (work.work() == JobQueue.Work.INSPECT ? downloader.inspect(work.job()) : downloader.download(work.job()))
        .recover(error -> {
          crashed(error);
          return Future.failedFuture(error);
        });
    current.onComplete(ar -> {
      if (!stopping && ar.succeeded()) {
        timer = vertx.setTimer(Math.max(1, Pacing.of(sourceConfig, queue.lanes().lane(sourceName)).pageDelayMs()),
            id -> loop(owner));
      }
    });
  }

  /**
   * A crash of the lane's own code (an exception nobody caught, e.g. the queue could not be saved): the job it held
   * goes back to the queue as a system interruption and the lane starts over after a backoff; a third crash within an
   * hour parks the lane (paused, with an incident) while the other lanes go on.
   */
  private void crashed(Throwable error) {
    String jobId = currentJob;
    currentJob = null;
    CrashBudget.Verdict verdict = crashes.recordFailure();
    LOG.error("[LANE {}] crashed ({} of {} allowed per hour): {}", sourceName, crashes.failuresInWindow(),
        retry.laneCrashes(), error.toString(), error);
    String why = "lane crash: " + error;
    try {
      if (jobId != null) {
        queue.release(jobId, owner, why);
      }
      FailureAction action = verdict == CrashBudget.Verdict.PARK ? FailureAction.PAUSE_LANE : FailureAction.REQUEUE;
      // The incident first: whoever sees the lane paused can already read why.
      queue.incidents().record(new Failure(FailureKind.CRASH, null, why), sourceName, jobId, action);
      if (verdict == CrashBudget.Verdict.PARK) {
        queue.lanes().pause(sourceName, "lane crashed " + crashes.failuresInWindow() + " times within an hour; last: "
            + error);
      }
    } catch (RuntimeException e) {
      LOG.error("[LANE {}] could not record the crash either: {}", sourceName, e.toString());
    }
    if (!stopping) {
      vertx.cancelTimer(timer);
      timer = vertx.setTimer(crashBackoff.delayFor(crashes.failuresInWindow()).toMillis(), id -> loop(owner));
    }
  }

  /** Logs why the lane is idle, once per change: queue drained, operator paused or memory yield. */
  private void idle(String reason) {
    String kind = reason.substring(0, reason.indexOf(':') < 0 ? reason.length() : reason.indexOf(':'));
    String previous = idleReason == null ? null
        : idleReason.substring(0, idleReason.indexOf(':') < 0 ? idleReason.length() : idleReason.indexOf(':'));
    if (!kind.equals(previous)) {
      LOG.info("[LANE {}] idle: {}", sourceName, reason);
    }
    idleReason = reason;
  }

  @Override
  public Future<?> stop() {
    stopping = true;
    vertx.cancelTimer(timer);
    Promise<Void> waited = Promise.promise();
    long giveUp = vertx.setTimer(STOP_WAIT_MS, id -> {
      LOG.warn("[LANE {}] the current job did not reach a checkpoint within {} ms; its lease will lapse",
          sourceName, STOP_WAIT_MS);
      waited.tryComplete();
    });
    current.onComplete(ar -> {
      vertx.cancelTimer(giveUp);
      waited.tryComplete();
    });
    return waited.future().onComplete(ar -> {
      if (lock != null) {
        lock.release();
        lock = null;
      }
      if (client != null) {
        client.close();
      }
    });
  }
}
