package io.mangacircus.scraper.operator;

import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.source.CircuitGuardedSource;
import io.mangacircus.scraper.source.Circuits;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The scraper's gauges on {@code /metrics} (docs/resilience.md, docs/sources.md): {@code mc_circuit_state}, {@code mc_source_titles},
 * {@code mc_source_chapters_found}, {@code mc_source_last_contact_seconds} per source and {@code mc_open_incidents};
 * registered at start and removed at stop. Does nothing without a registry.
 */
public final class ScraperMetrics {

  private final MeterRegistry registry;
  private final List<Meter> meters = new ArrayList<>();

  /** @param registry where the gauges go; null for none */
  public ScraperMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Registers the gauges of every source that has a circuit, read from {@code queue} when scraped. */
  public void register(Circuits circuits, JobQueue queue) {
    if (registry == null) {
      return;
    }
    circuits.bySource().forEach((name, breaker) -> meters.add(Gauge.builder("mc.circuit.state", breaker,
            b -> CircuitGuardedSource.gaugeValue(b.state()))
        .description("Circuit of a source: 0 closed, 1 half-open, 2 open").tag("source", name).register(registry)));
    circuits.bySource().keySet().forEach(name -> {
      meters.add(Gauge.builder("mc.source.titles", queue, q -> q.coverage(name).titles())
          .description("Titles of a source with a job").tag("source", name).register(registry));
      meters.add(Gauge.builder("mc.source.chapters.found", queue, q -> q.coverage(name).chaptersFound())
          .description("English chapters the source listed at its titles' last inspections").tag("source", name)
          .register(registry));
      meters.add(Gauge.builder("mc.source.last.contact", queue, q -> {
        Instant at = q.coverage(name).lastContactAt();
        return at == null ? Double.NaN : at.getEpochSecond();
      }).description("Epoch seconds of the last successful contact with the source since this start")
          .baseUnit("seconds").tag("source", name).register(registry));
    });
    meters.add(Gauge.builder("mc.open.incidents", queue, q -> q.incidents().open())
        .description("Incidents no operator retry or resume has cleared yet").register(registry));
  }

  /** Removes the gauges (a redeployed scraper registers its own). */
  public void close() {
    if (registry != null) {
      meters.forEach(registry::remove);
    }
    meters.clear();
  }
}
