package io.mangacircus.launcher.supervision;

import io.mangacircus.support.supervision.CrashBudget;
import io.mangacircus.support.supervision.Backoff;
import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.contracts.ServiceState;
import io.mangacircus.contracts.ServiceStatus;
import io.mangacircus.launcher.config.MangaCircusConfig.Supervision;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.launcher.state.ProcessInfo;
import io.mangacircus.launcher.state.RuntimeStateStore;
import io.mangacircus.launcher.state.RuntimeStateStore.RuntimeFile;
import io.mangacircus.launcher.state.ServiceRuntime;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deploys one service and watches it: an uncaught exception on its context, a failed deploy or a run of
 * missed liveness pings is a failure; failures are redeployed with backoff until the crash budget parks the
 * service as {@code repair-required}. A deploy that fails because a state file does not parse (or an unreadable
 * runtime file) is no failure: the service is {@code blocked} once, without retries and without spending budget, until
 * the process restarts or an operator asks for a retry start. Runs on its launcher's context; all state changes
 * happen there.
 */
public final class ServiceSupervisor {

  private static final Logger LOG = LoggerFactory.getLogger(ServiceSupervisor.class);

  private final Vertx vertx;
  private final Context context;
  private final ServiceSpec spec;
  private final Supervision settings;
  private final InstantSource clock;
  private final RuntimeStateStore store;
  private final ProcessInfo process;
  private final Runnable onChange;
  private final Backoff backoff;
  private final LivenessRule liveness;

  private CrashBudget budget;
  private volatile ServiceStatus status = ServiceStatus.STOPPED;
  private volatile long restarts;
  private Instant parkedAt;
  private String reason;
  private String deploymentId;
  private int generation;
  private boolean persistable = true;
  private boolean started;
  private boolean stopping;
  private boolean pingInFlight;
  private long pingTimer = -1;
  private long restartTimer = -1;
  /** The deploy attempt under way (settled once its outcome, including any undeploy of a superseded one, is done). */
  private Future<Void> deploying = Future.succeededFuture();

  /**
   * @param context the launcher's context, where every decision runs
   * @param onChange called on the launcher's context after every status change
   */
  public ServiceSupervisor(Vertx vertx, Context context, ServiceSpec spec, Supervision settings, InstantSource clock,
      RuntimeStateStore store, ProcessInfo process, Runnable onChange) {
    this.vertx = vertx;
    this.context = context;
    this.spec = spec;
    this.settings = settings;
    this.clock = clock;
    this.store = store;
    this.process = process;
    this.onChange = onChange;
    this.backoff = new Backoff(Duration.ofMillis(settings.backoffInitialMs()), settings.backoffMultiplier(),
        Duration.ofMillis(settings.backoffMaxMs()));
    this.liveness = new LivenessRule(settings.missedPingsBeforeRestart());
  }

  /** The service's name. */
  public String name() {
    return spec.name();
  }

  /** Current status. */
  public ServiceStatus status() {
    return status;
  }

  /** Redeploys so far, including earlier runs of the process. */
  public long restarts() {
    return restarts;
  }

  /** A snapshot for status messages and health data. */
  public ServiceState state() {
    return new ServiceState(spec.name(), status, budget == null ? 0 : budget.failuresInWindow(), restarts,
        parkedAt == null ? null : parkedAt.toString(), reason);
  }

  /**
   * Loads the persisted budget and deploys the service unless the budget is spent or its runtime file is
   * unreadable; completes once the first deploy attempt has been decided (it never fails).
   */
  public Future<Void> start() {
    started = true;
    pingTimer = vertx.setPeriodic(settings.pingIntervalMs(), id -> ping());
    return loadThenDeploy();
  }

  /**
   * An operator's retry start: deploys a {@code blocked} service again (re-reading its runtime file if that was what
   * blocked it). Any other status is refused with an {@link IllegalStateException} whose message says why; the crash
   * budget is never cleared. Completes with the state once the attempt has been decided (possibly blocked again).
   */
  public Future<ServiceState> retryStart(String requestedBy) {
    if (!started || stopping) {
      return Future.failedFuture(new IllegalStateException(spec.name() + " is not supervised right now (the process "
          + "is starting or stopping)"));
    }
    if (status != ServiceStatus.BLOCKED) {
      return Future.failedFuture(new IllegalStateException(spec.name() + " is " + status.wire() + ", not blocked: only "
          + "a service blocked by a corrupt state file can be started again this way"
          + (status == ServiceStatus.REPAIR_REQUIRED ? " (a parked one needs its crash budget reset, see "
          + "docs/operations.md)" : "")));
    }
    LOG.info("[SUPERVISOR] {}: retry start asked by {} (was blocked: {})", spec.name(), requestedBy, reason);
    reason = null;
    return (persistable ? deploy() : loadThenDeploy()).map(v -> state());
  }

  private Future<Void> loadThenDeploy() {
    ServiceRuntime persisted;
    try {
      persisted = store.load(spec.runtimeFile()).map(f -> f.services().get(spec.name())).orElse(null);
    } catch (CorruptStateFileException e) {
      // Never overwrite a file that does not parse: this run keeps its state in memory only.
      persistable = false;
      budget = new CrashBudget(settings.crashBudgetFailures(), window(), clock, java.util.List.of());
      block(e);
      return Future.succeededFuture();
    }
    persistable = true;
    ServiceRuntime runtime = persisted == null ? ServiceRuntime.fresh() : persisted;
    restarts = runtime.restarts();
    // A block is no failure: once its file parses again the service starts with no reason to show.
    reason = runtime.status() == ServiceStatus.BLOCKED ? null : runtime.reason();
    budget = new CrashBudget(settings.crashBudgetFailures(), window(), clock, runtime.failures());
    if (budget.exhausted()) {
      parkedAt = runtime.parkedAt();
      park(runtime.reason() != null ? runtime.reason() : budgetSpentReason("failures recorded by an earlier run"));
      LOG.error("[SUPERVISOR] {} stays parked: its crash budget ({} failures in {} min) is still spent; "
          + "it is deployed again after a restart once the oldest failure is an hour old, or after an operator "
          + "resets the budget (docs/operations.md)", spec.name(), budget.failuresInWindow(),
          settings.crashBudgetWindowMinutes());
      return Future.succeededFuture();
    }
    return deploy();
  }

  /**
   * Stops supervising and undeploys the service; a parked service stays recorded as parked. A deploy still under way
   * (the service's start has not finished) is waited for and its service stopped in turn: a stop during a start is a
   * clean stop, never counted as a failure.
   */
  public Future<Void> stop() {
    stopping = true;
    generation++;
    vertx.cancelTimer(pingTimer);
    vertx.cancelTimer(restartTimer);
    String id = deploymentId;
    deploymentId = null;
    if (status != ServiceStatus.REPAIR_REQUIRED && status != ServiceStatus.BLOCKED) {
      status = ServiceStatus.STOPPED;
    }
    Future<Void> undeployed = id == null ? Future.succeededFuture() : undeployQuietly(id);
    return Future.join(undeployed, deploying).<Void>mapEmpty().otherwiseEmpty().compose(v -> persist())
        .onComplete(ar -> onChange.run());
  }

  /**
   * Undeploys one deployment of the service, if Vert.x still has it (while Vert.x closes it may already have undeployed
   * the child before the launcher stops); a failure is logged, never passed on.
   */
  private Future<Void> undeployQuietly(String id) {
    if (!vertx.deploymentIDs().contains(id)) {
      return Future.succeededFuture();
    }
    return vertx.undeploy(id).recover(t -> {
      LOG.warn("[SUPERVISOR] {} did not undeploy cleanly: {}", spec.name(), t.toString());
      return Future.succeededFuture();
    });
  }

  private Future<Void> deploy() {
    if (stopping) {
      return Future.succeededFuture();
    }
    int deployment = ++generation;
    status = ServiceStatus.STARTING;
    onChange.run();
    CrashReportingDeployable verticle = new CrashReportingDeployable(spec.factory().get(),
        crash -> context.runOnContext(v -> failed(deployment, "uncaught exception: " + FailureText.of(crash), crash)));
    deploying = vertx.deployVerticle(verticle, spec.options()).transform(ar -> {
      if (deployment != generation) {
        // Superseded (a stop, or a failure, came while it started): it is stopped, and its failure is no failure.
        if (ar.failed()) {
          LOG.debug("[SUPERVISOR] {} deploy superseded while it started: {}", spec.name(), ar.cause().toString());
          return Future.succeededFuture();
        }
        return undeployQuietly(ar.result());
      }
      if (ar.failed()) {
        Optional<CorruptStateFileException> corrupt = CorruptStateFileException.in(ar.cause());
        if (corrupt.isPresent()) {
          generation++;
          block(corrupt.get());
        } else {
          failed(deployment, "deploy failed: " + FailureText.of(ar.cause()), ar.cause());
        }
        return Future.succeededFuture();
      }
      deploymentId = ar.result();
      status = ServiceStatus.UP;
      liveness.answered();
      LOG.info("[SUPERVISOR] {} is up (deployment {}, restarts so far {})", spec.name(), deploymentId, restarts);
      onChange.run();
      return persist();
    });
    return deploying;
  }

  private void ping() {
    if (status != ServiceStatus.UP || pingInFlight || stopping) {
      return;
    }
    pingInFlight = true;
    int deployment = generation;
    DeliveryOptions options = new DeliveryOptions().setSendTimeout(settings.pingTimeoutMs()).setLocalOnly(true);
    vertx.eventBus().request(Addresses.pingOf(spec.name()), new PingRequest("launcher").toJson(), options)
        .onComplete(ar -> {
          pingInFlight = false;
          if (deployment != generation || status != ServiceStatus.UP) {
            return;
          }
          if (ar.succeeded()) {
            liveness.answered();
            return;
          }
          int misses = liveness.consecutiveMisses() + 1;
          if (liveness.missed()) {
            failed(deployment, settings.missedPingsBeforeRestart() + " liveness pings failed in a row (last: "
                + ar.cause().getMessage() + ")", null);
          } else {
            LOG.warn("[SUPERVISOR] {} missed liveness ping {} of {}: {}", spec.name(), misses,
                settings.missedPingsBeforeRestart(), ar.cause().getMessage());
          }
        });
  }

  private void failed(int deployment, String why, Throwable cause) {
    if (stopping || deployment != generation || status == ServiceStatus.RESTARTING
        || status == ServiceStatus.REPAIR_REQUIRED || status == ServiceStatus.BLOCKED) {
      LOG.debug("[SUPERVISOR] {} failure already being handled: {}", spec.name(), why);
      return;
    }
    if (cause != null) {
      LOG.error("[SUPERVISOR] {} failed: {}", spec.name(), why, cause);
    } else {
      LOG.error("[SUPERVISOR] {} failed: {}", spec.name(), why);
    }
    generation++;
    CrashBudget.Verdict verdict = budget.recordFailure();
    String id = deploymentId;
    deploymentId = null;
    Future<Void> undeployed = id == null ? Future.succeededFuture() : vertx.undeploy(id).recover(t -> {
      LOG.warn("[SUPERVISOR] {} could not be undeployed after its failure: {}", spec.name(), t.toString());
      return Future.succeededFuture();
    });
    if (verdict == CrashBudget.Verdict.PARK) {
      vertx.cancelTimer(pingTimer);
      park(budgetSpentReason(why));
      LOG.error("[SUPERVISOR] {} parked as repair-required after {} failures within {} min; the other services "
          + "keep running. See docs/operations.md", spec.name(), budget.failuresInWindow(),
          settings.crashBudgetWindowMinutes());
      return;
    }
    restarts++;
    reason = why;
    status = ServiceStatus.RESTARTING;
    Duration delay = backoff.delayFor(budget.failuresInWindow());
    LOG.warn("[SUPERVISOR] {} will be redeployed in {} ms (failure {} of {} allowed in {} min)", spec.name(),
        delay.toMillis(), budget.failuresInWindow(), settings.crashBudgetFailures(),
        settings.crashBudgetWindowMinutes());
    onChange.run();
    persist();
    undeployed.onComplete(v -> {
      if (!stopping) {
        restartTimer = vertx.setTimer(Math.max(1, delay.toMillis()), t -> deploy());
      }
    });
  }

  /** Stops trying: no redeploy, no failure counted; the file is the operator's to repair. */
  private void block(CorruptStateFileException e) {
    status = ServiceStatus.BLOCKED;
    reason = e.blockedReason();
    LOG.error("[SUPERVISOR] {} is blocked: {}. It is not redeployed and no crash budget is spent; the file is left "
        + "untouched. Repair or restore it, then restart the process or use 'Retry start' on the health page "
        + "(docs/operations.md)", spec.name(), reason);
    onChange.run();
    persist();
  }

  private void park(String why) {
    status = ServiceStatus.REPAIR_REQUIRED;
    reason = why;
    if (parkedAt == null) {
      parkedAt = clock.instant();
    }
    onChange.run();
    persist();
  }

  private String budgetSpentReason(String lastFailure) {
    return "crash budget spent: " + budget.failuresInWindow() + " failures within "
        + settings.crashBudgetWindowMinutes() + " min; last: " + lastFailure;
  }

  private Duration window() {
    return Duration.ofMinutes(settings.crashBudgetWindowMinutes());
  }

  private Future<Void> persist() {
    if (!persistable) {
      return Future.succeededFuture();
    }
    ServiceRuntime snapshot = new ServiceRuntime(status, budget.inWindow(), parkedAt, restarts, reason);
    RuntimeFile file = new RuntimeFile(Map.of(spec.name(), snapshot), process);
    return vertx.<Void>executeBlocking(() -> {
      store.save(spec.runtimeFile(), file);
      return null;
    }, true).onFailure(t -> LOG.error("[SUPERVISOR] could not write {}: {}", spec.runtimeFile(), t.toString()));
  }

  /** For health data: the reason a parked service gives, if any. */
  public Optional<String> parkedReason() {
    return status == ServiceStatus.REPAIR_REQUIRED ? Optional.ofNullable(reason) : Optional.empty();
  }

  /** For health data: why a blocked service is blocked ({@code corrupt state file <path>: <reason>}), if it is. */
  public Optional<String> blockedReason() {
    return status == ServiceStatus.BLOCKED ? Optional.ofNullable(reason) : Optional.empty();
  }
}
