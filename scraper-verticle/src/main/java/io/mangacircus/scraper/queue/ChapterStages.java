package io.mangacircus.scraper.queue;

import io.mangacircus.contracts.library.PublishedChapter;
import io.vertx.core.json.JsonObject;
import java.time.InstantSource;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records the chapters' stages of the queue's jobs, forward only ({@link StageLattice}): a write that would move a
 * chapter backwards is refused and logged, one that changes nothing commits nothing; a published chapter is told to the
 * listeners with what the library holds. Everything here runs under the queue's lock.
 */
final class ChapterStages {

  /** The queue's logger: a refused stage is the queue's line. */
  private static final Logger LOG = LoggerFactory.getLogger(JobQueue.class);

  private final JobTable jobs;
  private final QueueJournal journal;
  private final InstantSource clock;

  ChapterStages(JobTable jobs, QueueJournal journal, InstantSource clock) {
    this.jobs = jobs;
    this.journal = journal;
    this.clock = clock;
  }

  /** A chapter's download begins or resumes with a new page manifest ({@link JobQueue#startChapter}). */
  QueueOutcome start(String jobId, String chapterId, int pages, String fingerprint) {
    return advance(jobId, chapterId, ChapterStage.FETCHING, pages, fingerprint);
  }

  /** A chapter is in the library ({@link JobQueue#chapterPublished}). */
  QueueOutcome published(String jobId, String chapterId, int pages, PublishedChapter where) {
    return stage(jobId, chapterId, ChapterStage.PUBLISHED, pages, where.manifest().fingerprint(), null, where);
  }

  /** Records a stage only when it is ahead of the recorded one, or the same with a new manifest. */
  private QueueOutcome advance(String jobId, String chapterId, ChapterStage next, int pages, String fingerprint) {
    Job job = jobs.get(jobId);
    ChapterEntry recorded = job == null ? null : find(job, chapterId);
    if (recorded == null) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.NOT_FOUND, "no chapter " + chapterId + " in " + jobId);
    }
    boolean newManifest = next == recorded.stage() && !java.util.Objects.equals(fingerprint, recorded.fingerprint());
    if (next.rank() > recorded.stage().rank() || newManifest) {
      return stage(jobId, chapterId, next, pages, fingerprint, null, null);
    }
    return QueueOutcome.done(job);
  }

  /**
   * Records a chapter's stage; a write that would move it backwards is refused and logged. Startup recovery and the
   * chapter operations of the queue use it.
   */
  QueueOutcome stage(String jobId, String chapterId, ChapterStage next, int pages, String fingerprint, String reason,
      PublishedChapter where) {
    Job job = jobs.get(jobId);
    ChapterEntry current = job == null ? null : find(job, chapterId);
    if (current == null) {
      return QueueOutcome.refused(job, QueueOutcome.Refusal.NOT_FOUND, "no chapter " + chapterId + " in " + jobId);
    }
    if (!StageLattice.allows(current.stage(), next)) {
      LOG.warn("[QUEUE] refused to move chapter {} of job {} back from {} to {}", chapterId, jobId,
          current.stage().wire(), next.wire());
      journal.append("chapter.stage.refused", new JsonObject().put("jobId", jobId).put("chapterId", chapterId)
          .put("from", current.stage().wire()).put("to", next.wire()));
      return QueueOutcome.refused(job, QueueOutcome.Refusal.ILLEGAL_TRANSITION,
          "chapter " + chapterId + " cannot move back from " + current.stage().wire() + " to " + next.wire());
    }
    ChapterEntry updated = current.withStage(next, pages, fingerprint, reason);
    if (updated.equals(current)) {
      return QueueOutcome.done(job);
    }
    Job changed = job.withChapters(replace(job.chapters(), updated), clock.instant());
    jobs.put(changed);
    jobs.commit(changed, "chapter.stage", new JsonObject().put("chapterId", chapterId).put("number", current.number())
        .put("from", current.stage().wire()).put("to", next.wire()).put("pages", pages).put("reason", reason));
    if (next == ChapterStage.PUBLISHED && where != null) {
      journal.tell(listener -> listener.chapterPublished(changed, updated, where));
    }
    return QueueOutcome.done(changed);
  }

  private static ChapterEntry find(Job job, String chapterId) {
    return job.chapters().stream().filter(c -> c.id().equals(chapterId)).findFirst().orElse(null);
  }

  private static List<ChapterEntry> replace(List<ChapterEntry> chapters, ChapterEntry updated) {
    return chapters.stream().map(c -> c.id().equals(updated.id()) ? updated : c).toList();
  }
}
