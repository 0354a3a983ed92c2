package io.mangacircus.reader.komga;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.store.Progress;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KomgaReadingTest {

  private static final Instant AT = Instant.parse("2026-12-04T08:00:00.123Z");

  @Test
  void theTrackersContinuousNumberStopsAtTheFirstUnreadChapterInNumberOrder() {
    List<LibraryFiles.Chapter> chapters = chapters("1", "1.5", "2", "3", "4");

    JsonObject progress = KomgaReading.tracker(chapters, Set.of("c1", "c1.5", "c2", "c4"), position("c3", 2));

    assertThat(progress.getDouble("lastReadContinuousNumberSort")).isEqualTo(2.0);
    assertThat(progress.getDouble("maxNumberSort")).isEqualTo(4.0);
    assertThat(progress.getInteger("booksReadCount")).isEqualTo(4);
    assertThat(progress.getInteger("booksInProgressCount")).isEqualTo(1);
    assertThat(progress.getInteger("booksUnreadCount")).isZero();
  }

  @Test
  void aChapterWithoutANumberSortsByItsPlace() {
    List<LibraryFiles.Chapter> chapters = chapters("Prologue", "2", "extra");

    assertThat(KomgaReading.tracker(chapters, Set.of("cPrologue", "c2"), null)
        .getDouble("lastReadContinuousNumberSort")).isEqualTo(2.0);
    assertThat(KomgaReading.upTo(chapters, 2.5f)).containsExactlyInAnyOrder("cPrologue", "c2");
    assertThat(KomgaReading.upTo(chapters, 99f)).as("beyond the last: every chapter, as Komga")
        .containsExactlyInAnyOrder("cPrologue", "c2", "cextra");
    assertThat(KomgaReading.upTo(chapters, 0.5f)).isEmpty();
  }

  @Test
  void aSeriesIsUnreadInProgressOrReadAsKomgaCountsIt() {
    assertThat(KomgaReading.counts(3, Set.of(), null).status()).isEqualTo("UNREAD");
    assertThat(KomgaReading.counts(3, Set.of(), position("c1", 2))).isEqualTo(new KomgaReading.Counts(0, 2, 1));
    assertThat(KomgaReading.counts(3, Set.of("c1"), null).status()).isEqualTo("IN_PROGRESS");
    assertThat(KomgaReading.counts(2, Set.of("c1", "c2"), position("c2", 3)).status()).isEqualTo("READ");
    assertThat(KomgaReading.counts(2, Set.of("c1", "c2", "gone"), null))
        .as("a read mark of a chapter that left counts at most the series' chapters")
        .isEqualTo(new KomgaReading.Counts(2, 0, 0));
  }

  @Test
  void aBooksReadProgressIsThePositionInItOrItsLastPageWhenRead() {
    LibraryFiles.Chapter chapter = chapters("1").get(0);

    assertThat(KomgaReading.readProgress(chapter, null, Map.of())).isNull();
    JsonObject reading = KomgaReading.readProgress(chapter, position("c1", 2), Map.of());
    assertThat(reading.getInteger("page")).isEqualTo(2);
    assertThat(reading.getBoolean("completed")).isFalse();
    assertThat(reading.getString("readDate")).isEqualTo("2026-12-04T08:00:00Z");
    JsonObject read = KomgaReading.readProgress(chapter, position("c9", 1), Map.of("c1", AT));
    assertThat(read.getInteger("page")).isEqualTo(3);
    assertThat(read.getBoolean("completed")).isTrue();
  }

  @Test
  void readStatusValuesAreKomgasAnyCaseAndAnythingElseIsRefused() {
    assertThat(KomgaReading.statuses(List.of("unread", "IN_PROGRESS"))).containsExactlyInAnyOrder("UNREAD",
        "IN_PROGRESS");
    assertThat(KomgaReading.statuses(List.of("READ", "FINISHED"))).isNull();
  }

  private static Progress position(String chapter, int page) {
    return new Progress("moon", chapter, page, AT);
  }

  /** Chapters numbered as given, in that order, of three pages each, ids {@code c<number>}. */
  private static List<LibraryFiles.Chapter> chapters(String... numbers) {
    List<LibraryFiles.Chapter> chapters = new ArrayList<>();
    for (String number : numbers) {
      List<LibraryFiles.Page> pages = new ArrayList<>();
      for (int p = 1; p <= 3; p++) {
        pages.add(new LibraryFiles.Page(p, Path.of(p + ".png"), "0".repeat(64), "image/png"));
      }
      chapters.add(new LibraryFiles.Chapter("moon", "c" + number, "Moon Circus", "fixture", "moon", number,
          "Chapter " + number, AT, pages));
    }
    return chapters;
  }
}
