package io.mangacircus.scraper.source;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.scraper.ScraperConfig;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One circuit breaker per configured source, shared by its lane and its metadata requests; every state change is
 * logged and published on {@link Addresses#SCRAPER_CIRCUIT_STATE} ({@code {v:1, source, state}}).
 */
public final class Circuits {

  private static final Logger LOG = LoggerFactory.getLogger(Circuits.class);

  private final Map<String, CircuitBreaker> breakers = new LinkedHashMap<>();

  /** Creates the breakers of {@code sources}. */
  public Circuits(Vertx vertx, Collection<String> sources, ScraperConfig.Failures settings) {
    sources.forEach(name -> breakers.put(name, CircuitGuardedSource.breaker(vertx, name, settings, state -> {
      String wire = state.name().toLowerCase(Locale.ROOT);
      LOG.warn("[CIRCUIT {}] {}", name, wire);
      vertx.eventBus().publish(Addresses.SCRAPER_CIRCUIT_STATE, new JsonObject().put("v", 1).put("source", name)
          .put("state", wire));
    })));
  }

  /** The breaker of a configured source, or null for another name. */
  public CircuitBreaker of(String source) {
    return breakers.get(source);
  }

  /** Every breaker by source name, in configuration order. */
  public Map<String, CircuitBreaker> bySource() {
    return java.util.Collections.unmodifiableMap(breakers);
  }

  /** {@code closed}, {@code half_open} or {@code open}; {@code closed} for a source without a breaker. */
  public String state(String source) {
    CircuitBreaker breaker = breakers.get(source);
    return breaker == null ? "closed" : breaker.state().name().toLowerCase(Locale.ROOT);
  }

  public void close() {
    breakers.values().forEach(CircuitBreaker::close);
  }
}
