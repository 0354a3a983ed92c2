package io.mangacircus.reader.progress;

import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.StoreException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Records where a user is in a series, the one way every reader does it — the browser's {@code PUT /api/progress}
 * and the catalog's page stream and the Komga API alike: one position per series, and reaching the last page marks the
 * chapter read. Blocking.
 */
public final class ProgressRecorder {

  /** A position as saved ({@code moved} false: a newer position was kept, see {@link #saveReadAt}). */
  public record Saved(String series, String chapter, int page, Instant updatedAt, boolean chapterRead,
      boolean moved) {
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
    return save(userId, seriesId, chapterId, page, clock.instant());
  }

  private Saved save(long userId, String seriesId, String chapterId, int page, Instant when) throws StoreException {
    LibraryFiles.Chapter chapter = files.chapter(seriesId, chapterId);
    if (page < 1 || page > chapter.pages().size()) {
      throw new IllegalArgumentException("chapter " + chapterId + " has pages 1 to " + chapter.pages().size());
    }
    boolean finished = page == chapter.pages().size();
    store.saveProgress(userId, seriesId, chapterId, page, finished, when);
    return new Saved(seriesId, chapterId, page, when, finished, true);
  }

  /**
   * Saves a position read at {@code readAt} (a browser's queue sent after being offline): the position moves only when
   * the stored one is older than {@code readAt}, so a queue sent late never undoes what the user read since elsewhere;
   * reaching the last page still marks the chapter read, as read marks only add. A position that moves is stored as of
   * {@code readAt}, so positions queued in reading order each move it in turn.
   *
   * @throws LibraryFiles.NotFoundException when there is no such chapter
   * @throws IllegalArgumentException when the chapter has no such page
   */
  public Saved saveReadAt(long userId, String seriesId, String chapterId, int page, Instant readAt)
      throws StoreException {
    Optional<Progress> stored = store.progress(userId, seriesId);
    if (stored.isEmpty() || stored.get().updatedAt().isBefore(readAt)) {
      // Saved as of when it was read (never later than now), so the next queued position, read after it, moves it.
      Instant now = clock.instant();
      return save(userId, seriesId, chapterId, page, readAt.isAfter(now) ? now : readAt);
    }
    LibraryFiles.Chapter chapter = files.chapter(seriesId, chapterId);
    if (page < 1 || page > chapter.pages().size()) {
      throw new IllegalArgumentException("chapter " + chapterId + " has pages 1 to " + chapter.pages().size());
    }
    boolean finished = page == chapter.pages().size();
    if (finished) {
      store.markRead(userId, seriesId, Set.of(chapterId), clock.instant());
    }
    Progress kept = stored.get();
    return new Saved(seriesId, kept.chapter(), kept.page(), kept.updatedAt(), finished, false);
  }

  /**
   * Saves that the user finished a chapter: the position on its last page, the chapter read (as reaching that page).
   *
   * @throws LibraryFiles.NotFoundException when there is no such chapter
   */
  public Saved complete(long userId, String seriesId, String chapterId) throws StoreException {
    return save(userId, seriesId, chapterId, files.chapter(seriesId, chapterId).pages().size());
  }

  /**
   * Forgets the user's reading of a chapter: no longer read, and the series' position dropped when it is in it.
   *
   * @throws LibraryFiles.NotFoundException when there is no such chapter
   */
  public void clear(long userId, String seriesId, String chapterId) throws StoreException {
    files.chapter(seriesId, chapterId);
    store.setRead(userId, seriesId, chapterId, false, clock.instant());
    Optional<Progress> position = store.progress(userId, seriesId);
    if (position.isPresent() && position.get().chapter().equals(chapterId)) {
      store.clearProgress(userId, seriesId);
    }
  }

  /**
   * Marks chapters of a series read (a tracker's "read up to"), and moves the position to the end of the last of them
   * in series order when the position is before it or there is none: never backwards, so a tracker that is behind
   * does not undo what the user read since.
   *
   * @throws LibraryFiles.NotFoundException when there is no such series
   */
  public void markRead(long userId, String seriesId, Set<String> chapterIds) throws StoreException {
    List<LibraryFiles.Chapter> chapters = files.chapters(seriesId);
    Instant now = clock.instant();
    store.markRead(userId, seriesId, chapterIds, now);
    int last = -1;
    for (int i = 0; i < chapters.size(); i++) {
      if (chapterIds.contains(chapters.get(i).id())) {
        last = i;
      }
    }
    if (last < 0) {
      return;
    }
    Optional<Progress> position = store.progress(userId, seriesId);
    int at = -1;
    for (int i = 0; position.isPresent() && i < chapters.size(); i++) {
      if (chapters.get(i).id().equals(position.get().chapter())) {
        at = i;
      }
    }
    if (at < last) {
      LibraryFiles.Chapter end = chapters.get(last);
      store.saveProgress(userId, seriesId, end.id(), end.pages().size(), true, now);
    }
  }
}
