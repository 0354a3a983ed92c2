package io.mangacircus.scraper.failure;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Notices systemic parser failures: parser quarantines of N different jobs of one source within the window
 * (2 in an hour by default) mean the source changed, not the title.
 */
public final class SystemicParserWatch {

  private record Quarantine(String jobId, Instant at) {
  }

  private final int jobs;
  private final Duration window;
  private final InstantSource clock;
  private final Map<String, List<Quarantine>> bySource = new HashMap<>();

  public SystemicParserWatch(int jobs, Duration window, InstantSource clock) {
    this.jobs = jobs;
    this.window = window;
    this.clock = clock;
  }

  /** Records a parser quarantine; true exactly when this one makes the source's failures systemic. */
  public synchronized boolean record(String source, String jobId) {
    Instant now = clock.instant();
    List<Quarantine> recent = bySource.computeIfAbsent(source, s -> new ArrayList<>());
    recent.removeIf(q -> !q.at().isAfter(now.minus(window)));
    long before = distinctJobs(recent);
    recent.add(new Quarantine(jobId, now));
    long after = distinctJobs(recent);
    return before < jobs && after >= jobs;
  }

  private static long distinctJobs(List<Quarantine> quarantines) {
    return quarantines.stream().map(Quarantine::jobId).distinct().count();
  }
}
