package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A user's reading kept in memory over {@code reader.db}: read once, never seen stale after a write. */
class CachedProgressStoreTest {

  @TempDir
  Path dir;

  private final Instant now = Instant.parse("2026-12-04T08:00:00Z");

  @Test
  void aUsersReadingIsReadOnceAndEveryWriteIsSeenAtOnce() throws Exception {
    try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"))) {
      AtomicInteger reads = new AtomicInteger();
      ProgressStore counting = new CountingStore(new SqliteProgressStore(db), reads, null);
      CachedProgressStore cached = new CachedProgressStore(counting);
      long eve = new SqliteUserStore(db).createUser("eve", "hash", "reader", now);
      long kim = new SqliteUserStore(db).createUser("kim", "hash", "reader", now);
      cached.saveProgress(eve, "moon", "chapter-0001", 3, true, now);

      for (int i = 0; i < 3; i++) {
        assertThat(cached.readChapters(eve)).isEqualTo(Map.of("moon", Set.of("chapter-0001")));
        assertThat(cached.progress(eve)).singleElement().satisfies(p -> assertThat(p.page()).isEqualTo(3));
      }
      assertThat(reads).as("read from the database once").hasValue(1);

      cached.markRead(eve, "sun", List.of("chapter-0001", "chapter-0002"), now);
      assertThat(cached.readChapters(eve)).containsEntry("sun", Set.of("chapter-0001", "chapter-0002"));
      cached.setRead(eve, "moon", "chapter-0001", false, now);
      assertThat(cached.readChapters(eve)).doesNotContainKey("moon");
      cached.saveProgress(eve, "moon", "chapter-0002", 1, false, now.plusSeconds(5));
      assertThat(cached.progress(eve)).first().satisfies(p -> assertThat(p.chapter()).isEqualTo("chapter-0002"));
      cached.clearProgress(eve, "moon");
      assertThat(cached.progress(eve)).isEmpty();
      assertThat(cached.readChapters(kim)).as("another user's reading is their own").isEmpty();
    }
  }

  @Test
  void aReadThatOverlappedAWriteIsAnsweredButNotKept() throws Exception {
    try (SqliteDatabase db = SqliteDatabase.open(dir.resolve("reader.db"))) {
      long eve = new SqliteUserStore(db).createUser("eve", "hash", "reader", now);
      CachedProgressStore[] cached = new CachedProgressStore[1];
      AtomicBoolean once = new AtomicBoolean(true);
      // While the reading is being read, another request marks a chapter read (the write lands after the read's query).
      cached[0] = new CachedProgressStore(new CountingStore(new SqliteProgressStore(db), new AtomicInteger(), () -> {
        if (once.getAndSet(false)) {
          cached[0].setRead(eve, "moon", "chapter-0009", true, now);
        }
      }));

      cached[0].readChapters(eve);

      assertThat(cached[0].readChapters(eve)).containsEntry("moon", Set.of("chapter-0009"));
    }
  }

  /** The SQLite store, counting reads of a whole reading and running {@code during} after each. */
  private static final class CountingStore implements ProgressStore {

    interface During {
      void run() throws StoreException;
    }

    private final ProgressStore store;
    private final AtomicInteger reads;
    private final During during;

    CountingStore(ProgressStore store, AtomicInteger reads, During during) {
      this.store = store;
      this.reads = reads;
      this.during = during;
    }

    @Override
    public java.util.Optional<Progress> progress(long userId, String series) throws StoreException {
      return store.progress(userId, series);
    }

    @Override
    public List<Progress> progress(long userId) throws StoreException {
      return store.progress(userId);
    }

    @Override
    public void saveProgress(long userId, String series, String chapter, int page, boolean finished, Instant now)
        throws StoreException {
      store.saveProgress(userId, series, chapter, page, finished, now);
    }

    @Override
    public void setRead(long userId, String series, String chapter, boolean read, Instant now) throws StoreException {
      store.setRead(userId, series, chapter, read, now);
    }

    @Override
    public void markRead(long userId, String series, java.util.Collection<String> chapters, Instant now)
        throws StoreException {
      store.markRead(userId, series, chapters, now);
    }

    @Override
    public void clearProgress(long userId, String series) throws StoreException {
      store.clearProgress(userId, series);
    }

    @Override
    public Map<String, Instant> readTimes(long userId, String series) throws StoreException {
      return store.readTimes(userId, series);
    }

    @Override
    public Set<String> readChapters(long userId, String series) throws StoreException {
      return store.readChapters(userId, series);
    }

    @Override
    public Map<String, Set<String>> readChapters(long userId) throws StoreException {
      reads.incrementAndGet();
      Map<String, Set<String>> read = store.readChapters(userId);
      if (during != null) {
        during.run();
      }
      return read;
    }

    @Override
    public java.util.Optional<LibraryVisit> libraryVisit(long userId) throws StoreException {
      return store.libraryVisit(userId);
    }

    @Override
    public void saveLibraryVisit(long userId, LibraryVisit visit) throws StoreException {
      store.saveLibraryVisit(userId, visit);
    }
  }
}
