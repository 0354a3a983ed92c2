package io.mangacircus.launcher.supervision;

import io.vertx.core.Context;
import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.Handler;

/**
 * Wraps a service verticle so that any exception escaping a handler on its context reaches its supervisor
 * (Vert.x 5 does not undeploy a verticle whose handler throws).
 */
final class CrashReportingDeployable implements Deployable {

  private final Deployable service;
  private final Handler<Throwable> onCrash;

  CrashReportingDeployable(Deployable service, Handler<Throwable> onCrash) {
    this.service = service;
    this.onCrash = onCrash;
  }

  @Override
  public Future<?> deploy(Context context) throws Exception {
    context.exceptionHandler(onCrash);
    return service.deploy(context);
  }

  @Override
  public Future<?> undeploy(Context context) throws Exception {
    return service.undeploy(context);
  }
}
