package io.mangacircus.scraper.operator;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ChapterPublished;
import io.mangacircus.contracts.JobProgress;
import io.mangacircus.contracts.library.PublishedChapter;
import io.mangacircus.scraper.failure.Incident;
import io.mangacircus.scraper.lane.ProgressBoard;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.QueueListener;
import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes the queue's changes on the event bus: job progress, library publications (numbered per scraper instance,
 * so the reader notices a missed one) and incidents (docs/event-bus.md).
 */
public final class QueueEvents implements QueueListener {

  private final Vertx vertx;
  private final String instance;
  private final ProgressBoard progress;
  /** The sequence number of this instance's last {@code mc.library.published} event. */
  private final AtomicLong publishedSeq = new AtomicLong();
  /** Told of every publication after the event (the follows' last new chapter); on the publishing lane's thread. */
  private volatile java.util.function.Consumer<io.mangacircus.contracts.library.ChapterManifest> published = m -> { };

  public QueueEvents(Vertx vertx, String instance, ProgressBoard progress) {
    this.vertx = vertx;
    this.instance = instance;
    this.progress = progress;
  }

  @Override
  public void jobChanged(Job job) {
    JobProgress last = progress.of(job.id()).orElse(null);
    vertx.eventBus().publish(Addresses.SCRAPER_JOB_PROGRESS, new JobProgress(job.id(), job.source(), job.title(),
        job.state().wire(), last == null ? null : last.chapterId(), last == null ? null : last.chapterNumber(),
        last == null ? 0 : last.page(), last == null ? 0 : last.pages(), (int) job.publishedChapters(),
        job.chapters().size()).toJson());
  }

  @Override
  public void chapterPublished(Job job, ChapterEntry chapter, PublishedChapter where) {
    // Told in commit order (outside the queue's lock, one notice at a time): numbers follow publication order.
    ChapterPublished event = new ChapterPublished(instance, publishedSeq.incrementAndGet(), where.seriesId(),
        where.path(), where.manifest());
    vertx.eventBus().publish(Addresses.LIBRARY_PUBLISHED, event.toJson());
    published.accept(where.manifest());
  }

  /** Who else hears of each publication (one listener; set once the scraper's parts are open). */
  public void afterPublished(java.util.function.Consumer<io.mangacircus.contracts.library.ChapterManifest> listener) {
    this.published = listener;
  }

  @Override
  public void incidentRecorded(Incident incident) {
    vertx.eventBus().publish(Addresses.SCRAPER_INCIDENT_RECORDED, Views.incident(incident).toEvent());
  }
}
