package io.mangacircus.reader.shelves;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A series card's counts for one user. */
class ReadingCountsTest {

  private static final Instant T = Instant.parse("2026-11-20T10:00:00Z");

  @Test
  void unreadCountsTheChaptersNotReadAndNewOnlyTheUnreadOnesPublishedAfterTheCutoff() {
    Map<String, Instant> chapters = Map.of("c1", T, "c2", T.plusSeconds(60), "c3", T.plusSeconds(7200),
        "c4", T.plusSeconds(9000));

    ReadingCounts counts = ReadingCounts.of(chapters, Set.of("c1", "c3", "gone-chapter"), T.plusSeconds(3600));

    assertThat(counts.chapters()).isEqualTo(4);
    assertThat(counts.read()).as("a read mark of a chapter no longer there does not count").isEqualTo(2);
    assertThat(counts.unread()).isEqualTo(2);
    assertThat(counts.newSince()).as("c3 is new but already read; c4 is new and unread").isEqualTo(1);
    assertThat(counts.addedAt()).isEqualTo(T);
  }

  @Test
  void chaptersOfUnknownTimeAreNeverNewAndDoNotDateTheSeries() {
    ReadingCounts counts = ReadingCounts.of(Map.of("c1", Instant.EPOCH), Set.of(), T);

    assertThat(counts.unread()).isEqualTo(1);
    assertThat(counts.newSince()).isZero();
    assertThat(counts.addedAt()).isNull();
  }

  @Test
  void beforeTheFirstScanTheCountsComeFromTheCardAndTheReadMarks() {
    ReadingCounts counts = ReadingCounts.estimated(3, 5);

    assertThat(counts.read()).isEqualTo(3);
    assertThat(counts.unread()).isZero();
    assertThat(counts.newSince()).isZero();
  }
}
