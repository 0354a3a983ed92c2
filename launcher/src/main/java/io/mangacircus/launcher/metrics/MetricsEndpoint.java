package io.mangacircus.launcher.metrics;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vertx.micrometer.PrometheusScrapingHandler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** Guards {@code GET /metrics}: 404 when no token is configured, 401 without the right bearer token. */
public final class MetricsEndpoint implements Handler<RoutingContext> {

  private final byte[] token;
  private final Handler<RoutingContext> scrape;

  /**
   * @param token the configured token; empty disables the endpoint
   * @param registryName the Micrometer registry this process's Vert.x reports to
   */
  public MetricsEndpoint(String token, String registryName) {
    this.token = token.getBytes(StandardCharsets.UTF_8);
    this.scrape = PrometheusScrapingHandler.create(registryName);
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (token.length == 0) {
      ctx.response().setStatusCode(404).end();
      return;
    }
    String header = ctx.request().getHeader("Authorization");
    byte[] offered = header != null && header.startsWith("Bearer ")
        ? header.substring("Bearer ".length()).trim().getBytes(StandardCharsets.UTF_8) : new byte[0];
    if (!MessageDigest.isEqual(token, offered)) {
      ctx.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer realm=\"metrics\"").end();
      return;
    }
    scrape.handle(ctx);
  }
}
