package io.mangacircus.reader.http;

import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.OperatorText;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** The reader API's answer shapes: errors as {@code {"error", "message"}}, request bodies as JSON objects. */
public final class ApiReplies {

  /** Body fields that may hold several lines (TAB, LF and CR allowed). */
  private static final Set<String> MULTI_LINE_FIELDS = Set.of("description");

  /** Body fields never checked for control characters: secrets, hashed and never shown or logged. */
  private static final Set<String> UNCHECKED_FIELDS = Set.of("password");

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

  /**
   * Ends a request whose event-bus request to the scraper failed, in the admin routes' error shape: no scraper (no
   * handler, or no answer within {@code timeoutMs}) is 503 {@code scraper_unreachable}; a refusal keeps its code
   * (lower case) with the HTTP status that code means (docs/api.md, docs/error-codes.md).
   */
  public static void scraperFailure(RoutingContext ctx, Throwable t, long timeoutMs) {
    if (!(t instanceof ReplyException reply)) {
      error(ctx, 500, "internal_error", t.toString());
      return;
    }
    switch (reply.failureType()) {
      case NO_HANDLERS -> error(ctx, 503, "scraper_unreachable", "the scraper is unreachable (not running, "
          + "parked or not yet joined); see /health/ready");
      case TIMEOUT -> error(ctx, 503, "scraper_unreachable", "the scraper did not answer within " + timeoutMs + " ms");
      default -> {
        ErrorCode code = ErrorCode.ofCode(reply.failureCode()).orElse(ErrorCode.INTERNAL_ERROR);
        int status = switch (code) {
          case MALFORMED_MESSAGE, UNSUPPORTED_VERSION, UNKNOWN_SOURCE -> 400;
          case NOT_FOUND -> 404;
          case ILLEGAL_TRANSITION -> 409;
          case NOT_READY, SOURCE_UNAVAILABLE -> 503;
          case BAD_IMAGE -> 502;
          default -> 500;
        };
        error(ctx, status, code.name().toLowerCase(Locale.ROOT), reply.getMessage());
      }
    }
  }

  /** The body as a JSON object, or empty (and a 400 already sent) when it is missing or not an object. */
  public static Optional<JsonObject> body(RoutingContext ctx, String expected) {
    try {
      JsonObject body = ctx.body().asJsonObject();
      if (body != null) {
        return refuseControlCharacters(ctx, body) ? Optional.empty() : Optional.of(body);
      }
    } catch (DecodeException | ClassCastException e) {
      // answered below
    }
    error(ctx, 400, "bad_request", "send a JSON object " + expected);
    return Optional.empty();
  }

  /**
   * Answers 400 naming the first field of an operator's request body that carries a control character
   * ({@link OperatorText}); {@code description} may hold several lines, {@code password} is not looked at (never
   * shown or logged). Every route that reads a JSON body goes through here.
   *
   * @return true when the request was refused (the answer is sent)
   */
  public static boolean refuseControlCharacters(RoutingContext ctx, JsonObject body) {
    Optional<String> problem = OperatorText.problemIn(body, MULTI_LINE_FIELDS, UNCHECKED_FIELDS);
    problem.ifPresent(p -> error(ctx, 400, "bad_request", p));
    return problem.isPresent();
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
   * Installs {@link #failed} as the one failure handler of everything {@code router} serves (API, pages, the console
   * bridge's admission, sub-routers mounted on it); call it on the reader's root router before any route.
   */
  public static void answerFailuresAsJson(io.vertx.ext.web.Router router) {
    router.route().failureHandler(ApiReplies::failed);
  }

  /**
   * The reader router's failure handler: a request that failed before its route answered (a body that could not be
   * read, one over the limit, a handler that threw or failed) is answered in the same error shape with its status,
   * never as plain text. An answer already under way when the failure came is cut off instead.
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
    if (ctx.response().headWritten()) {
      if (!ctx.response().ended()) {
        ctx.response().reset();
      }
      return;
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
