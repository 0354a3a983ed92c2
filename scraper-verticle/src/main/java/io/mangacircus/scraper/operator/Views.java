package io.mangacircus.scraper.operator;

import io.mangacircus.contracts.JobProgress;
import io.mangacircus.contracts.scraper.IncidentView;
import io.mangacircus.contracts.scraper.JobView;
import io.mangacircus.contracts.scraper.LaneView;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.failure.Incident;
import io.mangacircus.scraper.lane.Pacing;
import io.mangacircus.scraper.queue.ChapterStage;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.LaneSettings;
import java.util.Optional;

/** Turns the queue's jobs, lanes and incidents into the operator's views ({@code contracts.scraper}). */
public final class Views {

  private Views() {
  }

  /** A job with the progress a lane of this process last reported for it, if any. */
  public static JobView job(Job job, Optional<JobProgress> progress) {
    return new JobView(job.id(), job.source(), job.titleId(), job.title(), job.state().wire(), job.inspected(),
        job.confirmed(), job.attempts(), job.interruptions(), job.reason(), job.retryAt(), job.createdAt(),
        job.updatedAt(), job.chapters().size(), job.publishedChapters(),
        job.chapters().stream().filter(c -> c.stage() == ChapterStage.FAILED).count(),
        job.chapters().stream().map(c -> new JobView.ChapterView(c.id(), c.number(), c.title(), c.stage().wire(),
            c.pages(), c.reason())).toList(),
        progress.map(p -> new JobView.Progress(p.chapterId(), p.chapterNumber(), p.page(), p.pages())).orElse(null));
  }

  /**
   * A lane: its configured source with the run-time settings applied.
   *
   * @param circuit the source's circuit state ({@code closed}, {@code half_open}, {@code open})
   * @param coverage the source's coverage, or null (a lane command's reply carries none)
   */
  public static LaneView lane(String source, SourceConfig config, LaneSettings settings, String circuit,
      io.mangacircus.scraper.queue.SourceCoverage coverage) {
    Pacing pacing = Pacing.of(config, settings);
    return new LaneView(coverage == null ? null : new LaneView.Coverage(coverage.titles(), coverage.chaptersFound(),
        coverage.chaptersPublished(), coverage.lastContactAt()), source, config.type(), settings.paused(), circuit,
        settings.pauseReason(), pacing.pageDelayMs(), pacing.chapterDelayMs());
  }

  public static IncidentView incident(Incident incident) {
    return new IncidentView(incident.id(), incident.at(), incident.kind().wire(), incident.source(), incident.jobId(),
        incident.httpStatus(), incident.message(), incident.action(), incident.resolvedAt());
  }
}
