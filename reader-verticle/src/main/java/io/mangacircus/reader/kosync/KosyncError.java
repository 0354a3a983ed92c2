package io.mangacircus.reader.kosync;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * kosync's errors: {@code {"code": n, "message": "..."}} with the reference server's codes and statuses
 * (koreader-sync-server config/errors.lua), and the statuses it has no code for (a read-only key, the throttle, a body
 * too large, an unknown route) under the nearest code.
 */
enum KosyncError {
  INTERNAL(502, 2000),
  UNAUTHORIZED(401, 2001),
  /** An app password whose scope only reads, pushing: the key is good but may not write. */
  READ_ONLY(403, 2001),
  THROTTLED(429, 2001),
  INVALID(403, 2003),
  TOO_LARGE(413, 2003),
  DOCUMENT(403, 2004),
  REGISTRATION_DISABLED(402, 2005),
  NOT_FOUND(404, 2003);

  private final int status;
  private final int code;

  KosyncError(int status, int code) {
    this.status = status;
    this.code = code;
  }

  void answer(RoutingContext ctx, String message) {
    if (ctx.response().ended()) {
      return;
    }
    ctx.response().setStatusCode(status);
    ctx.json(new JsonObject().put("code", code).put("message", message));
  }
}
