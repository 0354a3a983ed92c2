package io.mangacircus.scraper.source;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code /metrics} view of each source's {@link SourceLimits} (docs/resilience.md, "Limits"), tagged with
 * {@code source}: {@code mc_source_rate_limit_rps} (the rate the adapter keeps now, lowered after a 429),
 * {@code mc_source_holds_total} (holds waited out), {@code mc_source_refused_total} (429 answers) and
 * {@code mc_source_hold_until_seconds} (epoch seconds the current hold ends, NaN when none).
 */
public final class SourceLimitMeters {

  private SourceLimitMeters() {
  }

  /** Registers the meters of every source in {@code sources}; returns them for removal at stop. */
  public static List<Meter> register(MeterRegistry registry, Map<String, ? extends Source> sources) {
    List<Meter> meters = new ArrayList<>();
    sources.forEach((name, source) -> {
      meters.add(Gauge.builder("mc.source.rate.limit.rps", source, s -> s.limits().rateLimitRps())
          .description("Requests a second the source's adapter allows itself now (lowered after a 429)")
          .tag("source", name).register(registry));
      meters.add(FunctionCounter.builder("mc.source.holds", source, s -> s.limits().holdsWaited())
          .description("Holds the source announced or our budget set, each waited out").tag("source", name)
          .register(registry));
      meters.add(FunctionCounter.builder("mc.source.refused", source, s -> s.limits().refused())
          .description("Requests the source answered 429").tag("source", name).register(registry));
      meters.add(Gauge.builder("mc.source.hold.until", source, s -> {
        var until = s.limits().holdUntil();
        return until == null ? Double.NaN : until.getEpochSecond();
      }).description("Epoch seconds the source's current hold ends").baseUnit("seconds").tag("source", name)
          .register(registry));
    });
    return meters;
  }
}
