package io.mangacircus.reader.trackers;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.trackers.SyncDecision.Nothing;
import io.mangacircus.reader.trackers.SyncDecision.Pull;
import io.mangacircus.reader.trackers.SyncDecision.Push;
import io.mangacircus.reader.trackers.SyncDecision.Wait;
import io.mangacircus.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TrackerSyncRulesTest {

  private final MutableClock clock = new MutableClock();
  private final TrackerSyncRules rules = new TrackerSyncRules(clock);

  @Test
  void aDecimalChapterIsSentFlooredToItsWholeChapter() {
    assertThat(rules.decide(read("9", "10.5"), reading(9, null), null))
        .isEqualTo(new Push(10, TrackerStatus.READING));
  }

  @Test
  void chaptersCompletedOutOfOrderSendTheHighest() {
    assertThat(rules.decide(read("7", "3", "12", "5"), reading(2, null), null))
        .isEqualTo(new Push(12, TrackerStatus.READING));
  }

  @Test
  void aTrackerAheadOfUsIsPulledNeverLowered() {
    assertThat(rules.decide(read("1", "2", "3", "4"), reading(10, null), null)).isEqualTo(new Pull(10));
    assertThat(rules.decide(read(), reading(10, null), null)).as("nothing read here yet").isEqualTo(new Pull(10));
  }

  @Test
  void aTrackerAlreadyAtOurProgressIsLeftAlone() {
    assertThat(rules.decide(read("3", "4"), reading(4, null), null)).isEqualTo(new Nothing());
    assertThat(rules.decide(read("4.5"), reading(4, null), null)).as("4.5 is still chapter 4").isEqualTo(new Nothing());
  }

  @Test
  void reachingTheTrackersKnownTotalCompletesTheEntry() {
    assertThat(rules.decide(read("12"), reading(11, 12), null)).isEqualTo(new Push(12, TrackerStatus.COMPLETED));
    assertThat(rules.decide(read("13"), reading(11, 12), null)).as("a bonus chapter past the count")
        .isEqualTo(new Push(13, TrackerStatus.COMPLETED));
    assertThat(rules.decide(read("11"), reading(10, 12), null)).isEqualTo(new Push(11, TrackerStatus.READING));
    assertThat(rules.decide(read("300"), reading(10, 0), null)).as("a total of 0 is unknown: an ongoing series")
        .isEqualTo(new Push(300, TrackerStatus.READING));
  }

  @Test
  void theStatusMovesToReadingFromAPlanButACompletedOrRereadEntryKeepsItsStatus() {
    assertThat(rules.decide(read("1"), TrackerEntry.notListed(null), null))
        .isEqualTo(new Push(1, TrackerStatus.READING));
    assertThat(rules.decide(read("5"), new TrackerEntry(4, TrackerStatus.COMPLETED, null), null))
        .isEqualTo(new Push(5, TrackerStatus.COMPLETED));
    assertThat(rules.decide(read("5"), new TrackerEntry(4, TrackerStatus.REREADING, 20), null))
        .isEqualTo(new Push(5, TrackerStatus.REREADING));
  }

  @Test
  void aSecondChangeWithinTheMinuteWaitsThenOnePushCarriesTheLatest() {
    TrackerEntry tracker = reading(2, null);
    assertThat(rules.decide(read("3"), tracker, null)).isEqualTo(new Push(3, TrackerStatus.READING));
    Instant pushed = clock.instant();
    tracker = reading(3, null);
    Instant minuteEnds = pushed.plus(Duration.ofMinutes(1));

    clock.advance(Duration.ofSeconds(20));
    assertThat(rules.decide(read("3", "4"), tracker, pushed)).isEqualTo(new Wait(minuteEnds));
    clock.advance(Duration.ofSeconds(39));
    assertThat(rules.decide(read("3", "4", "5"), tracker, pushed)).isEqualTo(new Wait(minuteEnds));

    clock.set(minuteEnds);
    assertThat(rules.decide(read("3", "4", "5"), tracker, pushed)).isEqualTo(new Push(5, TrackerStatus.READING));
  }

  @Test
  void noCompletedChapterSendsNothing() {
    assertThat(rules.decide(read(), TrackerEntry.notListed(null), null)).isEqualTo(new Nothing());
    assertThat(rules.decide(read(), reading(0, 12), Instant.EPOCH)).isEqualTo(new Nothing());
  }

  @Test
  void missingOrNonNumericChapterNumbersAreIgnored() {
    assertThat(rules.decide(read(null, "Extra", " ", "-1", "NaN", "99999999999", "3"), reading(0, null), null))
        .isEqualTo(new Push(3, TrackerStatus.READING));
    assertThat(rules.decide(read(null, "Prologue"), reading(0, null), null)).isEqualTo(new Nothing());
  }

  @Test
  void ourReadingComesFromTheChaptersTheProgressStoreHoldsAsRead() {
    List<LibraryFiles.Chapter> chapters = new ArrayList<>();
    for (String number : new String[] {"1", "2", "2.5", "3"}) {
      chapters.add(new LibraryFiles.Chapter("moon", "c" + number, "Moon Circus", "fixture", "moon", number,
          "Chapter " + number, MutableClock.START, List.of()));
    }

    SeriesReading reading = SeriesReading.of(chapters, Set.of("c1", "c2.5", "gone-from-library"));

    assertThat(reading.completedNumbers()).containsExactlyInAnyOrder("1", "2.5");
    assertThat(reading.wholeChapters()).hasValue(2);
  }

  private static SeriesReading read(String... numbers) {
    return new SeriesReading(Arrays.asList(numbers));
  }

  private static TrackerEntry reading(int progress, Integer total) {
    return new TrackerEntry(progress, TrackerStatus.READING, total);
  }
}
