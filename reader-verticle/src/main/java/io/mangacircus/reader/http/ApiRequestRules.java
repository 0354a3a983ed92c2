package io.mangacircus.reader.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Checked on {@code /api/*} before a body is read or a session looked up: a state-changing request sent by another
 * site's page ({@code Origin} is not this host) is 403 {@code cross_site}; one with a body must send JSON
 * ({@code Content-Type: application/json}, optionally {@code charset=utf-8}) or get 415
 * {@code unsupported_media_type}, except on image routes, which refuse only forms. A refused body is read and
 * dropped before the answer (up to the body limit), so no request ends unread.
 */
public final class ApiRequestRules implements Handler<RoutingContext> {

  private static final Set<HttpMethod> SAFE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

  private final Predicate<HttpServerRequest> imageBody;
  private final long jsonLimit;
  private final long imageLimit;

  /**
   * @param imageBody the requests whose body is an image (any content type but a form), not JSON
   * @param jsonLimit the body limit of JSON routes, and how much of a refused body is read before the answer (past
   *     it the connection is closed)
   * @param imageLimit the same for image routes
   */
  public ApiRequestRules(Predicate<HttpServerRequest> imageBody, long jsonLimit, long imageLimit) {
    this.imageBody = imageBody;
    this.jsonLimit = jsonLimit;
    this.imageLimit = imageLimit;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    if (SAFE.contains(request.method())) {
      ctx.next();
      return;
    }
    if (SameOrigin.crossSite(request)) {
      refuse(ctx, 403, "cross_site", "changes are accepted only from this site's own pages (the Origin header names "
          + "another site)");
      return;
    }
    if (hasBody(request)) {
      String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
      if (imageBody.test(request)) {
        if (isForm(type)) {
          refuse(ctx, 415, "unsupported_media_type", "send the image file itself as the body, not a form (e.g. curl "
              + "--data-binary @cover.jpg -H 'Content-Type: image/jpeg')");
          return;
        }
      } else if (!isJson(type)) {
        refuse(ctx, 415, "unsupported_media_type", "send the body as JSON with Content-Type: application/json");
        return;
      }
    }
    ctx.next();
  }

  /**
   * Reads the body of an {@code /api} request once these rules let it through, before the access guard's asynchronous
   * session look-up, so that no request ends unread: an image body up to the image limit, any other up to the JSON
   * limit (over it: 413 in the error shape).
   */
  public Handler<RoutingContext> bodies() {
    BodyHandler json = BodyHandler.create().setBodyLimit(jsonLimit);
    BodyHandler images = BodyHandler.create().setBodyLimit(imageLimit).setHandleFileUploads(false);
    return ctx -> (imageBody.test(ctx.request()) ? images : json).handle(ctx);
  }

  /** Whether a {@code Content-Type} is JSON: {@code application/json}, with no parameter but a UTF-8 charset. */
  public static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    String[] parts = contentType.split(";");
    if (!parts[0].trim().equalsIgnoreCase("application/json")) {
      return false;
    }
    for (int i = 1; i < parts.length; i++) {
      String parameter = parts[i].trim().toLowerCase(Locale.ROOT).replace(" ", "");
      if (!parameter.isEmpty() && !parameter.equals("charset=utf-8") && !parameter.equals("charset=\"utf-8\"")) {
        return false;
      }
    }
    return true;
  }

  private static boolean isForm(String contentType) {
    String type = contentType == null ? "" : contentType.trim().toLowerCase(Locale.ROOT);
    return type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/");
  }

  private static boolean hasBody(HttpServerRequest request) {
    if (request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null) {
      return true;
    }
    String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    try {
      return length != null && Long.parseLong(length.trim()) > 0;
    } catch (NumberFormatException e) {
      return true;
    }
  }

  private void refuse(RoutingContext ctx, int status, String error, String message) {
    HttpServerRequest request = ctx.request();
    if (request.isEnded()) {
      ApiReplies.error(ctx, status, error, message);
      return;
    }
    long limit = imageBody.test(request) ? imageLimit : jsonLimit;
    long[] read = {0};
    request.exceptionHandler(t -> { }); // the client went away: nobody to answer
    request.handler(chunk -> {
      read[0] += chunk.length();
      if (read[0] > limit && !ctx.response().ended()) {
        ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
        ApiReplies.error(ctx, status, error, message);
      }
    });
    request.endHandler(v -> ApiReplies.error(ctx, status, error, message));
    request.resume();
  }
}
