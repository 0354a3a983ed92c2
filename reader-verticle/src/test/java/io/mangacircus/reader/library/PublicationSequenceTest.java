package io.mangacircus.reader.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.library.PublicationSequence.Verdict;
import org.junit.jupiter.api.Test;

class PublicationSequenceTest {

  private final PublicationSequence sequence = new PublicationSequence();

  @Test
  void consecutiveNumbersOfOneInstanceFollowEachOther() {
    assertThat(sequence.next("a", 1)).isEqualTo(Verdict.NEXT);
    assertThat(sequence.next("a", 2)).isEqualTo(Verdict.NEXT);
    assertThat(sequence.next("a", 2)).isEqualTo(Verdict.REPEATED);
  }

  @Test
  void aGapAFirstNumberOtherThanOneOrAnotherInstanceMeanAMissedEvent() {
    assertThat(sequence.next("a", 3)).as("the reader started after the scraper had published").isEqualTo(Verdict.MISSED);
    assertThat(sequence.next("a", 4)).isEqualTo(Verdict.NEXT);
    assertThat(sequence.next("a", 6)).isEqualTo(Verdict.MISSED);
    assertThat(sequence.next("a", 7)).isEqualTo(Verdict.NEXT);
    assertThat(sequence.next("b", 1)).as("a restarted scraper").isEqualTo(Verdict.MISSED);
    assertThat(sequence.next("b", 2)).isEqualTo(Verdict.NEXT);
  }
}
