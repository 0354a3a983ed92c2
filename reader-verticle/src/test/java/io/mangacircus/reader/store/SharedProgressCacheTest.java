package io.mangacircus.reader.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.testing.MutableClock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a reader keeps of a shared database's reading: writes made past it (another reader's) are seen once it is told
 * or its values age out, its own writes at once; positions are never kept.
 */
class SharedProgressCacheTest {

  @TempDir
  Path work;

  private final MutableClock clock = new MutableClock();
  private ReaderStores stores;
  private ProgressStore otherReader;
  private SharedProgressCache kept;
  private final List<Long> told = new ArrayList<>();
  private long rita;

  @BeforeEach
  void open() throws Exception {
    stores = ReaderStores.openSqlite(work.resolve("reader.db"));
    rita = stores.users().createUser("rita", "hash", "reader", clock.instant());
    otherReader = stores.progress();
    kept = new SharedProgressCache(stores.progress(), clock);
    kept.tell(told::add);
  }

  @AfterEach
  void close() throws Exception {
    stores.close();
  }

  @Test
  void anotherReadersWriteIsSeenOnceThisReaderIsToldOfIt() throws Exception {
    assertThat(kept.readChapters(rita)).isEmpty();
    assertThat(kept.libraryVisit(rita)).isEmpty();
    otherReader.saveProgress(rita, "moon", "chapter-0001", 20, true, clock.instant());
    otherReader.saveLibraryVisit(rita, new LibraryVisit(clock.instant(), clock.instant()));

    assertThat(kept.readChapters(rita)).as("kept, not told yet").isEmpty();
    kept.forget(rita);
    assertThat(kept.readChapters(rita)).isEqualTo(Map.of("moon", Set.of("chapter-0001")));
    assertThat(kept.libraryVisit(rita)).isPresent();
    assertThat(told).as("another reader's write is not told on").isEmpty();
  }

  @Test
  void keptValuesAreReadAgainOnceTheyAreOlderThanTheirLongestTrust() throws Exception {
    assertThat(kept.readChapters(rita)).isEmpty();
    otherReader.saveProgress(rita, "moon", "chapter-0001", 20, true, clock.instant());

    clock.advance(SharedProgressCache.MAX_AGE.minusMillis(1));
    assertThat(kept.readChapters(rita)).isEmpty();
    clock.advance(java.time.Duration.ofMillis(1));
    assertThat(kept.readChapters(rita)).isEqualTo(Map.of("moon", Set.of("chapter-0001")));
  }

  @Test
  void positionsAreNeverKeptSoAnotherReadersIsReadAtOnce() throws Exception {
    assertThat(kept.progress(rita)).isEmpty();
    otherReader.saveProgress(rita, "moon", "chapter-0002", 4, false, clock.instant());

    assertThat(kept.progress(rita)).extracting(p -> p.series() + " " + p.page()).containsExactly("moon 4");
    assertThat(kept.progress(rita, "moon")).hasValueSatisfying(p -> assertThat(p.page()).isEqualTo(4));
  }

  @Test
  void thisReadersOwnWritesAreSeenAtOnceAndToldToTheOthers() throws Exception {
    assertThat(kept.readChapters(rita)).isEmpty();
    kept.saveProgress(rita, "moon", "chapter-0001", 20, true, clock.instant());
    assertThat(kept.readChapters(rita)).isEqualTo(Map.of("moon", Set.of("chapter-0001")));

    kept.setRead(rita, "moon", "chapter-0002", true, clock.instant());
    kept.saveLibraryVisit(rita, new LibraryVisit(clock.instant(), clock.instant()));
    assertThat(kept.readChapters(rita)).isEqualTo(Map.of("moon", Set.of("chapter-0001", "chapter-0002")));
    assertThat(kept.libraryVisit(rita)).isPresent();
    assertThat(told).containsExactly(rita, rita, rita);
  }
}
