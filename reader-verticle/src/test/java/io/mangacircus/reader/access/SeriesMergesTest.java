package io.mangacircus.reader.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The admin's series merges: which are allowed (one level deep, known ids, never into itself) and what they record. */
class SeriesMergesTest {

  private static final Predicate<String> LISTED = Set.of("moon", "moon-shelf", "sun", "star")::contains;

  @Test
  void aListedSeriesIsMergedIntoAnotherAndUnmergedAgain() {
    SeriesMerges merges = SeriesMerges.none();
    assertThat(merges.refusal("moon-shelf", "moon", LISTED)).isEmpty();
    merges.merged("moon-shelf", "moon");
    assertThat(merges.mergedInto("moon-shelf")).hasValue("moon");
    assertThat(merges.parts("moon")).containsExactly("moon-shelf");
    assertThat(merges.refusal("moon-shelf", "moon", LISTED)).as("the same merge again changes nothing").isEmpty();
    assertThat(merges.unmerged("moon-shelf")).isTrue();
    assertThat(merges.unmerged("moon-shelf")).as("nothing left to undo").isFalse();
    assertThat(merges.any()).isFalse();
  }

  @Test
  void unknownIdsAndAMergeIntoItselfAreRefusedWithASentence() {
    SeriesMerges merges = SeriesMerges.none();
    assertThat(merges.refusal("nope", "moon", LISTED)).hasValue(new SeriesMerges.Refusal(404, "no series nope"));
    assertThat(merges.refusal("moon", "nope", LISTED)).hasValue(new SeriesMerges.Refusal(404,
        "no series nope to merge moon into"));
    assertThat(merges.refusal("moon", "moon", LISTED)).hasValue(new SeriesMerges.Refusal(400,
        "a series cannot be merged into itself"));
    assertThat(merges.refusal("moon", null, LISTED).orElseThrow().status()).isEqualTo(400);
  }

  @Test
  void chainsAreRefusedSoThatMergesStayOneLevelDeep() {
    SeriesMerges merges = new SeriesMerges(Map.of("moon-shelf", "moon"));
    assertThat(merges.refusal("sun", "moon-shelf", LISTED).orElseThrow().message())
        .isEqualTo("moon-shelf is itself merged into moon; merge into moon instead (merges are one level deep)");
    assertThat(merges.refusal("moon", "sun", LISTED).orElseThrow().message())
        .isEqualTo("series are merged into moon (moon-shelf); unmerge them first (merges are one level deep)");
    assertThat(merges.refusal("moon-shelf", "star", LISTED).orElseThrow().message())
        .isEqualTo("moon-shelf is already merged into moon; unmerge it first");
    assertThat(merges.refusal("sun", "moon", LISTED)).as("a second series into the same target").isEmpty();
  }
}
