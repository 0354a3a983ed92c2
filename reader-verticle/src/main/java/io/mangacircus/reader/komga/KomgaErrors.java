package io.mangacircus.reader.komga;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.InstantSource;

/**
 * Komga's error answers (Spring Boot's {@code {timestamp, status, error, message, path}}), which its clients expect
 * instead of the reader's own {@code {error, message}}.
 */
final class KomgaErrors {

  private KomgaErrors() {
  }

  /** 404: no such series, book or page (the message names none of them, as Komga's does not). */
  static void notFound(RoutingContext ctx, InstantSource clock) {
    answer(ctx, clock, 404, "Not Found", "");
  }

  /** 400 with why. */
  static void badRequest(RoutingContext ctx, InstantSource clock, String message) {
    answer(ctx, clock, 400, "Bad Request", message);
  }

  private static void answer(RoutingContext ctx, InstantSource clock, int status, String error, String message) {
    ctx.response().setStatusCode(status);
    ctx.json(new JsonObject().put("timestamp", clock.instant().toString()).put("status", status).put("error", error)
        .put("message", message).put("path", ctx.request().path()));
  }
}
