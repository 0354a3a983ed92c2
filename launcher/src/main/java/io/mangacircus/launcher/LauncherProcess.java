package io.mangacircus.launcher;

import io.mangacircus.launcher.VertxFactory.ProcessVertx;
import io.mangacircus.launcher.config.MangaCircusConfig;
import io.mangacircus.launcher.lock.LockHeldException;
import io.mangacircus.launcher.lock.ProcessLock;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * One running MangaCircus process: takes the data-folder locks, builds Vert.x, deploys the launcher verticle,
 * and on SIGTERM, SIGINT or a shutdown request ({@code POST /api/system/shutdown}) stops everything within the grace
 * period and exits 0.
 */
final class LauncherProcess {

  private static final Logger LOG = LoggerFactory.getLogger(LauncherProcess.class);

  private final MangaCircusConfig config;
  private final Mode mode;
  private final boolean clustered;
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final AtomicReference<String> stopReason = new AtomicReference<>();

  LauncherProcess(MangaCircusConfig config, Mode mode, boolean clustered) {
    this.config = config;
    this.mode = mode;
    this.clustered = clustered;
  }

  int run() {
    DataLayout data = new DataLayout(config.dataPath());
    List<ProcessLock> locks = new ArrayList<>();
    try {
      for (String service : mode.services()) {
        locks.add(ProcessLock.acquire(data.lockFile(service), service + " pid " + ProcessHandle.current().pid()));
      }
    } catch (LockHeldException e) {
      LOG.error("refusing to start {}: {}. Only one process may own a data folder's {}; stop the other one "
          + "first, or give this one its own --data folder.", mode.cliName(), e.getMessage(), "services");
      release(locks);
      return Main.EXIT_LOCKED;
    } catch (IOException e) {
      LOG.error("refusing to start {}: the data folder {} is not usable: {}", mode.cliName(),
          data.root().toAbsolutePath(), e.toString());
      release(locks);
      return Main.EXIT_FAILURE;
    }

    // Earlier versions, or a copy or restore, may have left secrets readable by others.
    new PrivateFiles(data).repair().forEach(change -> LOG.warn("[DATA] {}", change));
    NativeLibraryPreload.start(mode, config.http().nativeTransport());
    Signal.handle(new Signal("TERM"), signal -> stopGracefully("SIGTERM"));
    Signal.handle(new Signal("INT"), signal -> stopGracefully("SIGINT"));

    ProcessVertx process;
    try {
      process = await(VertxFactory.create(config, clustered).toCompletionStage().toCompletableFuture(), 120);
    } catch (Exception e) {
      LOG.error("could not start Vert.x{}: {}", clustered ? " (joining the cluster " + config.cluster().members() + ")" : "",
          e.toString());
      release(locks);
      return Main.EXIT_FAILURE;
    }
    ReadyNotice ready = new ReadyNotice(System.out, config.log().json());
    LaunchPlan plan = LaunchPlan.standard(config, mode, process.metricsRegistryName(),
        mode.hostsReader() ? ready::accounts : null);
    String launcher;
    try {
      launcher = await(process.vertx().deployVerticle(new LauncherVerticle(plan, this::stopGracefully))
          .toCompletionStage().toCompletableFuture(), 60);
    } catch (Exception e) {
      String option = mode.hostsReader() ? "--port" : "--health-port";
      LOG.error("could not start the {} launcher: {}", mode.cliName(),
          ListenFailure.explain(e, config.http().bind(), plan.httpPort(), option).orElseGet(() -> rootMessage(e)));
      closeQuietly(process);
      release(locks);
      return Main.EXIT_FAILURE;
    }
    LOG.info("MangaCircus {} started{}; data folder {}", mode.cliName(), clustered ? " (clustered)" : "",
        data.root().toAbsolutePath());
    if (mode.hostsReader()) {
      ready.ready(readerUrl(config));
    }

    awaitStop(stopRequested);
    long grace = config.supervision().shutdownGraceSeconds();
    LOG.info("stop requested by {}: stopping services (grace period {} s)", stopReason.get(), grace);
    int code = 0;
    try {
      await(shutDown(process.vertx(), launcher), grace);
      LOG.info("stopped cleanly");
    } catch (Exception e) {
      LOG.error("did not stop cleanly within {} s: {}", grace, rootMessage(e));
      code = Main.EXIT_FAILURE;
    }
    release(locks);
    return code;
  }

  /** Where a browser on this machine opens the reader (a wildcard bind address is reached on loopback). */
  static String readerUrl(MangaCircusConfig config) {
    String bind = config.http().bind();
    String host = bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("[::]") ? "127.0.0.1"
        : bind.contains(":") && !bind.startsWith("[") ? "[" + bind + "]" : bind;
    return "http://" + host + ":" + config.http().port() + "/";
  }

  /**
   * Asks this process to stop gracefully: the one way a stop begins, for SIGTERM, SIGINT and the shutdown request
   * on the event bus alike. It only wakes the main thread, which closes Vert.x within the grace period and exits 0;
   * so calling it from an event loop or a signal handler never waits on the stop it starts. Later calls do nothing.
   */
  void stopGracefully(String requestedBy) {
    if (stopReason.compareAndSet(null, requestedBy)) {
      stopRequested.countDown();
    }
  }

  /**
   * Undeploys the launcher (its supervisors stop their services, waiting for any still starting), then closes Vert.x.
   * Closing Vert.x first would cancel every deployment still starting (a service being redeployed, a scraper lane)
   * without ever calling its stop, and a supervisor not yet told to stop would count the cancelled start as a failure.
   */
  static CompletableFuture<Void> shutDown(Vertx vertx, String launcher) {
    Future<Void> undeployed = !vertx.deploymentIDs().contains(launcher) ? Future.succeededFuture()
        : vertx.undeploy(launcher);
    // Vert.x is closed from a thread of its own: a future bound to one of its event loops could not complete once
    // the close has stopped them.
    return undeployed.toCompletionStage().toCompletableFuture().handle((v, t) -> {
      if (t != null) {
        LOG.warn("the launcher did not stop cleanly: {}", t.toString());
      }
      return null;
    }).thenComposeAsync(v -> vertx.close().toCompletionStage());
  }

  private static void awaitStop(CountDownLatch stopRequested) {
    try {
      stopRequested.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static <T> T await(java.util.concurrent.CompletableFuture<T> future, long seconds)
      throws InterruptedException, ExecutionException, TimeoutException {
    return future.get(seconds, TimeUnit.SECONDS);
  }

  private static String rootMessage(Throwable t) {
    Throwable cause = t;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause.toString();
  }

  private static void closeQuietly(ProcessVertx process) {
    try {
      await(process.vertx().close().toCompletionStage().toCompletableFuture(), 30);
    } catch (Exception e) {
      LOG.warn("Vert.x did not close cleanly: {}", e.toString());
    }
  }

  private static void release(List<ProcessLock> locks) {
    for (ProcessLock lock : locks) {
      try {
        lock.close();
      } catch (IOException e) {
        LOG.warn("could not release {}: {}", lock.file(), e.toString());
      }
    }
  }
}
