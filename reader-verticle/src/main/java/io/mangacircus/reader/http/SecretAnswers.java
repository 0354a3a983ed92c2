package io.mangacircus.reader.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * The API answers that carry secrets or account data — a session and its CSRF token, app passwords as created, users,
 * alert and notification targets with their tokens — get {@code Cache-Control: no-store}, so that no browser or proxy
 * cache keeps them for whoever comes next. Errors on those routes too. Other answers (page images first) keep their
 * caching.
 */
public final class SecretAnswers implements Handler<RoutingContext> {

  /** Paths answered with secrets: each the exact path or a folder of it. */
  static final List<String> PATHS = List.of("/api/login", "/api/logout", "/api/me", "/api/admin/users",
      "/api/admin/notifications");

  @Override
  public void handle(RoutingContext ctx) {
    if (carriesSecrets(ctx.normalizedPath())) {
      ctx.addHeadersEndHandler(v -> ctx.response().headers().set("Cache-Control", "no-store"));
    }
    ctx.next();
  }

  /** Whether the answer to a request for this normalised path may carry a secret. */
  static boolean carriesSecrets(String path) {
    for (String secret : PATHS) {
      if (path.startsWith(secret) && (path.length() == secret.length() || path.charAt(secret.length()) == '/')) {
        return true;
      }
    }
    return false;
  }
}
