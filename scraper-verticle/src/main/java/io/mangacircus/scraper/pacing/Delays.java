package io.mangacircus.scraper.pacing;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

/** Pacing pauses as futures, on the caller's context (never a sleeping thread). */
public final class Delays {

  private Delays() {
  }

  /** Completes after {@code ms} milliseconds; at once for 0 or less. */
  public static Future<Void> after(Vertx vertx, long ms) {
    if (ms <= 0) {
      return Future.succeededFuture();
    }
    Promise<Void> promise = Promise.promise();
    vertx.setTimer(ms, id -> promise.complete());
    return promise.future();
  }
}
