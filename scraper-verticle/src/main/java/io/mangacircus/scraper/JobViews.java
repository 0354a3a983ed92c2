package io.mangacircus.scraper;

import io.mangacircus.contracts.JobProgress;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.ChapterStage;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.LaneSettings;
import io.mangacircus.scraper.lane.Pacing;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/** The JSON views of jobs and lanes that {@code mc.scraper.jobs.*} and {@code mc.scraper.lanes.*} replies carry. */
final class JobViews {

  private JobViews() {
  }

  /**
   * {@code {id, source, titleId, title, state, inspected, confirmed, attempts, interruptions, reason, retryAt,
   * createdAt, updatedAt, chapters, chaptersPublished, chaptersFailed, progress:{chapterId, chapterNumber, page,
   * pages}, chapterList:[{id, number, stage, pages, reason}]}}.
   */
  static JsonObject job(Job job, Optional<JobProgress> progress) {
    JsonArray chapters = new JsonArray();
    for (ChapterEntry chapter : job.chapters()) {
      chapters.add(new JsonObject().put("id", chapter.id()).put("number", chapter.number())
          .put("title", chapter.title()).put("stage", chapter.stage().wire()).put("pages", chapter.pages())
          .put("reason", chapter.reason()));
    }
    JsonObject view = new JsonObject().put("id", job.id()).put("source", job.source()).put("titleId", job.titleId())
        .put("title", job.title()).put("state", job.state().wire()).put("inspected", job.inspected())
        .put("confirmed", job.confirmed()).put("attempts", job.attempts()).put("interruptions", job.interruptions())
        .put("reason", job.reason()).put("retryAt", job.retryAt() == null ? null : job.retryAt().toString())
        .put("createdAt", job.createdAt().toString()).put("updatedAt", job.updatedAt().toString())
        .put("chapters", job.chapters().size()).put("chaptersPublished", job.publishedChapters())
        .put("chaptersFailed", job.chapters().stream().filter(c -> c.stage() == ChapterStage.FAILED).count())
        .put("chapterList", chapters);
    progress.ifPresent(p -> view.put("progress", new JsonObject().put("chapterId", p.chapterId())
        .put("chapterNumber", p.chapterNumber()).put("page", p.page()).put("pages", p.pages())));
    return view;
  }

  /** {@code {source, type, paused, pauseReason, circuit, pageDelayMs, chapterDelayMs}}. */
  static JsonObject lane(String source, ScraperConfig.SourceConfig config, LaneSettings settings, String circuit) {
    return lane(source, config, settings, circuit, null);
  }

  /** A lane with its source's coverage (titles, chapters found and published, last successful contact). */
  static JsonObject lane(String source, ScraperConfig.SourceConfig config, LaneSettings settings, String circuit,
      io.mangacircus.scraper.queue.SourceCoverage coverage) {
    Pacing pacing = Pacing.of(config, settings);
    return new JsonObject().put("coverage", coverage == null ? null : new JsonObject().put("titles", coverage.titles())
            .put("chaptersFound", coverage.chaptersFound()).put("chaptersPublished", coverage.chaptersPublished())
            .put("lastContactAt", coverage.lastContactAt() == null ? null : coverage.lastContactAt().toString())).put("source", source).put("type", config.type()).put("paused", settings.paused())
        .put("circuit", circuit)
        .put("pauseReason", settings.pauseReason()).put("pageDelayMs", pacing.pageDelayMs())
        .put("chapterDelayMs", pacing.chapterDelayMs());
  }
}
