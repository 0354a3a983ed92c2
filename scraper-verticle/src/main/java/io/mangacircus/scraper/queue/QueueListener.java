package io.mangacircus.scraper.queue;

import io.mangacircus.contracts.library.PublishedChapter;

/** Told about queue changes after they are persisted; the scraper verticle publishes them on the event bus. */
public interface QueueListener {

  /** A job changed state, counters or chapters. */
  void jobChanged(Job job);

  /** A chapter reached {@code published}; {@code where} is what the library holds for it. */
  void chapterPublished(Job job, ChapterEntry chapter, PublishedChapter where);

  /** An incident was recorded. */
  default void incidentRecorded(io.mangacircus.scraper.failure.Incident incident) {
  }

  /** A listener that ignores everything. */
  QueueListener NONE = new QueueListener() {
    @Override
    public void jobChanged(Job job) {
    }

    @Override
    public void chapterPublished(Job job, ChapterEntry chapter, PublishedChapter where) {
    }
  };
}
