package io.mangacircus.launcher.metrics;

import io.mangacircus.reader.accounts.BearerToken;
import io.mangacircus.reader.accounts.LoginThrottle;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vertx.micrometer.PrometheusScrapingHandler;
import java.time.Duration;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guards {@code GET /metrics}: 404 when no token is configured, 401 without the right bearer token; wrong tokens are
 * logged without the token and throttled per client address (429 with {@code Retry-After}), as admin-token guesses are.
 */
public final class MetricsEndpoint implements Handler<RoutingContext> {

  private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);

  /** The throttle's user for metrics-token guesses. */
  private static final String METRICS_TOKEN_USER = "\u0000metrics-token";

  private final BearerToken token;
  private final Handler<RoutingContext> scrape;
  private final LoginThrottle throttle;

  /**
   * @param token the configured token; empty disables the endpoint
   * @param registryName the Micrometer registry this process's Vert.x reports to
   */
  public MetricsEndpoint(String token, String registryName) {
    this(token, PrometheusScrapingHandler.create(registryName), InstantSource.system());
  }

  MetricsEndpoint(String token, Handler<RoutingContext> scrape, InstantSource clock) {
    this.token = new BearerToken(token);
    this.scrape = scrape;
    this.throttle = new LoginThrottle(5, Duration.ofMinutes(15), clock);
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (!token.enabled()) {
      ctx.response().setStatusCode(404).end();
      return;
    }
    // The scraper connects directly: the socket's peer is the client (no proxy header is believed here).
    String client = ctx.request().remoteAddress() == null ? "unknown" : ctx.request().remoteAddress().hostAddress();
    LoginThrottle.Attempt attempt = throttle.begin(client, METRICS_TOKEN_USER);
    if (!attempt.admitted()) {
      long seconds = Math.max(1, (attempt.retryAfter().toMillis() + 999) / 1000);
      ctx.response().setStatusCode(429).putHeader("Retry-After", String.valueOf(seconds)).end();
      return;
    }
    String header = ctx.request().getHeader("Authorization");
    if (!token.matches(header)) {
      throttle.failed(attempt);
      LOG.warn("[METRICS] wrong or missing metrics token from {} ({}, not logged)", client,
          BearerToken.offered(header) ? "a token of " + header.substring(7).trim().length() + " characters" : "none");
      ctx.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer realm=\"metrics\"").end();
      return;
    }
    throttle.succeeded(attempt);
    scrape.handle(ctx);
  }
}
