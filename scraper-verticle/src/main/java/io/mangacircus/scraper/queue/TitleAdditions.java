package io.mangacircus.scraper.queue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds titles to the queue, one outstanding job per title: a title that has one gets it back as it is, a title whose
 * jobs are finished gets a new job that supersedes them ({@code events.log} keeps their history), a source that is not
 * configured is refused. Everything here runs under the queue's lock.
 */
final class TitleAdditions {

  /** The queue's logger: a superseded job is the queue's line. */
  private static final Logger LOG = LoggerFactory.getLogger(JobQueue.class);

  private final JobTable jobs;
  private final Set<String> sources;
  private final InstantSource clock;

  TitleAdditions(JobTable jobs, Set<String> sources, InstantSource clock) {
    this.jobs = jobs;
    this.sources = sources;
    this.clock = clock;
  }

  /** {@link JobQueue#addTitle(String, String, boolean, String, List)}. */
  JobQueue.Addition add(String source, String titleId, boolean autoConfirm, String language,
      List<String> preferredGroups) {
    if (!sources.contains(source)) {
      return new JobQueue.Addition(QueueOutcome.refused(null, QueueOutcome.Refusal.UNKNOWN_SOURCE,
          "unknown source '" + source + "' (configured: " + String.join(", ", sources) + ")"), false, null);
    }
    List<Job> ofTitle = jobs.ofTitle(source, titleId);
    Optional<Job> existing = ofTitle.stream().filter(j -> j.state().outstanding()).findFirst();
    if (existing.isPresent()) {
      return new JobQueue.Addition(QueueOutcome.done(existing.get()), false, null);
    }
    List<Job> finished = ofTitle.stream().filter(j -> j.state() == JobState.DONE).toList();
    finished.forEach(jobs::remove);
    Instant now = clock.instant();
    Job job = new Job("j-" + UUID.randomUUID().toString().substring(0, 8), source, titleId, titleId,
        JobState.PENDING, false, autoConfirm, 0, 0, now, now, null, null, null, null, List.of(), 0, 0, language,
        preferredGroups);
    jobs.add(job);
    jobs.commit(job, "job.added", new JsonObject().put("autoConfirm", autoConfirm).put("language", job.language())
        .put("preferredGroups", new JsonArray(job.preferredGroups()))
        .put("supersedes", new JsonArray(finished.stream().map(Job::id).toList())));
    String superseded = finished.isEmpty() ? null : finished.get(finished.size() - 1).id();
    if (superseded != null) {
      LOG.info("[QUEUE] job {} for {}/{} supersedes finished job {}", job.id(), source, titleId, superseded);
    }
    return new JobQueue.Addition(QueueOutcome.done(job), true, superseded);

  }
}
