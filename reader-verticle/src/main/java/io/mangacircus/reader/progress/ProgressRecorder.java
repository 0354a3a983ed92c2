package io.mangacircus.reader.progress;

import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.StoreException;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Records where a user is in a series, the one way every reader does it — the browser's {@code PUT /api/progress}
 * and the catalog's page stream alike: one position per series, and reaching the last page marks the chapter read.
 * Blocking.
 */
public final class ProgressRecorder {

  /** A position as saved. */
  public record Saved(String series, String chapter, int page, Instant updatedAt, boolean chapterRead) {
  }

  private final LibraryFiles files;
  private final ProgressStore store;
  private final InstantSource clock;

  public ProgressRecorder(LibraryFiles files, ProgressStore store, InstantSource clock) {
    this.files = files;
    this.store = store;
    this.clock = clock;
  }

  /**
   * Saves that the user is on page {@code page} (1-based) of a published chapter.
   *
   * @throws LibraryFiles.NotFoundException when there is no such chapter
   * @throws IllegalArgumentException when the chapter has no such page
   */
  public Saved save(long userId, String seriesId, String chapterId, int page) throws StoreException {
    LibraryFiles.Chapter chapter = files.chapter(seriesId, chapterId);
    if (page < 1 || page > chapter.pages().size()) {
      throw new IllegalArgumentException("chapter " + chapterId + " has pages 1 to " + chapter.pages().size());
    }
    boolean finished = page == chapter.pages().size();
    Instant now = clock.instant();
    store.saveProgress(userId, seriesId, chapterId, page, finished, now);
    return new Saved(seriesId, chapterId, page, now, finished);
  }
}
