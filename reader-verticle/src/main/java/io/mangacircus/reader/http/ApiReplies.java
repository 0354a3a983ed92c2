package io.mangacircus.reader.http;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;

/** The reader API's answer shapes: errors as {@code {"error", "message"}}, request bodies as JSON objects. */
public final class ApiReplies {

  private ApiReplies() {
  }

  /** Ends the request with an error body. */
  public static void error(RoutingContext ctx, int status, String error, String message) {
    if (ctx.response().ended()) {
      return;
    }
    ctx.response().setStatusCode(status);
    ctx.json(new JsonObject().put("error", error).put("message", message));
  }

  /** The body as a JSON object, or empty (and a 400 already sent) when it is missing or not an object. */
  public static Optional<JsonObject> body(RoutingContext ctx, String expected) {
    try {
      JsonObject body = ctx.body().asJsonObject();
      if (body != null) {
        return Optional.of(body);
      }
    } catch (DecodeException | ClassCastException e) {
      // answered below
    }
    error(ctx, 400, "bad_request", "send a JSON object " + expected);
    return Optional.empty();
  }

  /** Answers a failed blocking call: a library miss is 404, a bad id 400, anything else 500. */
  public static void failure(RoutingContext ctx, Throwable cause) {
    if (cause instanceof io.mangacircus.reader.library.LibraryFiles.NotFoundException) {
      error(ctx, 404, "not_found", cause.getMessage());
    } else if (cause instanceof IllegalArgumentException) {
      error(ctx, 400, "bad_request", cause.getMessage());
    } else {
      org.slf4j.LoggerFactory.getLogger(ApiReplies.class).error("[READER] {} {} failed", ctx.request().method(),
          ctx.request().path(), cause);
      error(ctx, 500, "internal_error", "the reader could not answer: " + cause.getMessage());
    }
  }

  /**
   * The failure handler of {@code /api/*}: a request that failed before its route answered (a body that could not be
   * read, one over the limit, a handler that threw) is answered in the same error shape, never as plain text.
   */
  public static void failed(RoutingContext ctx) {
    int status = ctx.statusCode() >= 400 ? ctx.statusCode() : 500;
    String error = switch (status) {
      case 400 -> "bad_request";
      case 404 -> "not_found";
      case 413 -> "too_large";
      case 415 -> "unsupported_media_type";
      default -> status >= 500 ? "internal_error" : "http_" + status;
    };
    String message = switch (status) {
      case 400 -> "the request could not be read";
      case 413 -> "the request body is larger than this route accepts";
      default -> "the request failed (HTTP " + status + ")";
    };
    if (status >= 500) {
      org.slf4j.LoggerFactory.getLogger(ApiReplies.class).error("[READER] {} {} failed", ctx.request().method(),
          ctx.request().path(), ctx.failure());
    }
    error(ctx, status, error, message);
  }

  /** Runs blocking work on a worker (unordered) and answers with its result, or as {@link #failure} says. */
  public static <T> void blocking(io.vertx.core.Vertx vertx, RoutingContext ctx, java.util.concurrent.Callable<T> work,
      java.util.function.Consumer<T> answer) {
    vertx.executeBlocking(work, false).onComplete(ar -> {
      if (ar.succeeded()) {
        answer.accept(ar.result());
      } else {
        failure(ctx, ar.cause());
      }
    });
  }
}
