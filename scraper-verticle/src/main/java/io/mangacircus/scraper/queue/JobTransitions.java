package io.mangacircus.scraper.queue;

import static io.mangacircus.scraper.queue.JobState.ACTIVE;
import static io.mangacircus.scraper.queue.JobState.DONE;
import static io.mangacircus.scraper.queue.JobState.PAUSED;
import static io.mangacircus.scraper.queue.JobState.PENDING;
import static io.mangacircus.scraper.queue.JobState.QUARANTINED;
import static io.mangacircus.scraper.queue.JobState.READY;
import static io.mangacircus.scraper.queue.JobState.RETRY_WAIT;
import static io.mangacircus.scraper.queue.JobState.UNAVAILABLE;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** The job state machine: which state may follow which. Anything not listed is refused. */
public final class JobTransitions {

  private static final Map<JobState, Set<JobState>> ALLOWED = Map.of(
      PENDING, EnumSet.of(READY, ACTIVE, PAUSED, RETRY_WAIT, UNAVAILABLE, QUARANTINED),
      READY, EnumSet.of(PENDING, PAUSED),
      ACTIVE, EnumSet.of(DONE, PENDING, PAUSED, RETRY_WAIT, UNAVAILABLE, QUARANTINED),
      PAUSED, EnumSet.of(PENDING),
      RETRY_WAIT, EnumSet.of(PENDING, PAUSED),
      UNAVAILABLE, EnumSet.of(PENDING),
      QUARANTINED, EnumSet.of(PENDING),
      DONE, EnumSet.noneOf(JobState.class));

  private JobTransitions() {
  }

  /** Whether {@code from → to} is a legal transition. */
  public static boolean allows(JobState from, JobState to) {
    return ALLOWED.get(from).contains(to);
  }
}
