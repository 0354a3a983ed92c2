package io.mangacircus.scraper.lane;

import io.mangacircus.contracts.JobProgress;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.QueueOutcome;

/**
 * The job a lane downloads as the queue last answered it, and its progress reports to the {@link ProgressBoard}:
 * reporting a page needs no re-reading of the queue.
 */
final class JobReport {

  private final ProgressBoard progress;
  private Job latest;

  JobReport(ProgressBoard progress) {
    this.progress = progress;
  }

  /** Starts with the job as it was claimed. */
  void start(Job job) {
    latest = job;
  }

  /** Keeps the job as the queue answered a chapter operation. */
  void recorded(QueueOutcome outcome) {
    if (outcome.job() != null) {
      latest = outcome.job();
    }
  }

  /** Reports the latest job at {@code page} of {@code pages} of {@code chapter}. */
  void report(ChapterEntry chapter, int page, int pages) {
    report(latest, chapter, page, pages);
  }

  /** Reports {@code job} at {@code page} of {@code pages} of {@code chapter} (null between chapters). */
  void report(Job job, ChapterEntry chapter, int page, int pages) {
    progress.update(new JobProgress(job.id(), job.source(), job.title(), job.state().wire(),
        chapter == null ? null : chapter.id(), chapter == null ? null : chapter.number(), page, pages,
        (int) job.publishedChapters(), job.chapters().size()));
  }
}
