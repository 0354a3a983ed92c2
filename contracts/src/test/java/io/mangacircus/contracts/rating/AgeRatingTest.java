package io.mangacircus.contracts.rating;

import static io.mangacircus.contracts.rating.AgeRating.ALL_AGES;
import static io.mangacircus.contracts.rating.AgeRating.EIGHTEEN_PLUS;
import static io.mangacircus.contracts.rating.AgeRating.FIFTEEN_PLUS;
import static io.mangacircus.contracts.rating.AgeRating.NINE_PLUS;
import static io.mangacircus.contracts.rating.AgeRating.TWELVE_PLUS;
import static io.mangacircus.contracts.rating.AgeRating.UNRATED;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class AgeRatingTest {

  /** Every value of ComicInfo's AgeRating enumeration (schema v2.0), spelled as the schema spells it. */
  @ParameterizedTest(name = "ComicInfo \"{0}\" is {1}")
  @CsvSource(delimiter = '|', textBlock = """
      Unknown          | UNRATED
      Rating Pending   | UNRATED
      Early Childhood  | ALL_AGES
      Everyone         | ALL_AGES
      Kids to Adults   | ALL_AGES
      G                | ALL_AGES
      PG               | NINE_PLUS
      Everyone 10+     | TWELVE_PLUS
      Teen             | FIFTEEN_PLUS
      M                | FIFTEEN_PLUS
      MA15+            | FIFTEEN_PLUS
      Mature 17+       | EIGHTEEN_PLUS
      Adults Only 18+  | EIGHTEEN_PLUS
      R18+             | EIGHTEEN_PLUS
      X18+             | EIGHTEEN_PLUS
      """)
  void everyComicInfoValueMapsToItsLevel(String value, AgeRating expected) {
    assertThat(AgeRating.fromComicInfo(value)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "ComicInfo \"{0}\" is {1}")
  @CsvSource(delimiter = '|', textBlock = """
      '  teen  '         | FIFTEEN_PLUS
      ADULTS ONLY 18+    | EIGHTEEN_PLUS
      adults-only 18+    | EIGHTEEN_PLUS
      AdultsOnly18+      | EIGHTEEN_PLUS
      everyone_10+       | TWELVE_PLUS
      ma 15+             | FIFTEEN_PLUS
      'Rating  Pending'  | UNRATED
      """)
  void comicInfoValuesAreReadWhateverTheirCaseAndSpacing(String value, AgeRating expected) {
    assertThat(AgeRating.fromComicInfo(value)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "ComicInfo \"{0}\" is unrated")
  @NullAndEmptySource
  @ValueSource(strings = {"   ", "PG-13", "18", "Everyone 12+", "Adults Only", "\u001b[31mX18+"})
  void unknownComicInfoValuesAreUnrated(String value) {
    assertThat(AgeRating.fromComicInfo(value)).isEqualTo(UNRATED);
  }

  @ParameterizedTest(name = "MangaDex \"{0}\" is {1}")
  @CsvSource(delimiter = '|', textBlock = """
      safe          | ALL_AGES
      suggestive    | FIFTEEN_PLUS
      erotica       | EIGHTEEN_PLUS
      pornographic  | EIGHTEEN_PLUS
      ' Suggestive' | FIFTEEN_PLUS
      SAFE          | ALL_AGES
      """)
  void mangaDexContentRatingsMapAsTheIssueOfAgeLimitsSays(String value, AgeRating expected) {
    assertThat(AgeRating.fromMangaDex(value)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "MangaDex \"{0}\" is unrated")
  @NullAndEmptySource
  @ValueSource(strings = {"explicit", "unknown", "safe-ish", "Teen"})
  void unknownMangaDexContentRatingsAreUnrated(String value) {
    assertThat(AgeRating.fromMangaDex(value)).isEqualTo(UNRATED);
  }

  @ParameterizedTest(name = "code of {0} reads back")
  @EnumSource(AgeRating.class)
  void everyCodeReadsBackAsItsRating(AgeRating rating) {
    assertThat(AgeRating.fromCode(rating.code())).contains(rating);
  }

  @ParameterizedTest(name = "\"{0}\" is {1}")
  @CsvSource(delimiter = '|', textBlock = """
      12+        | TWELVE_PLUS
      ' 9 '      | NINE_PLUS
      All Ages   | ALL_AGES
      ALL        | ALL_AGES
      18+        | EIGHTEEN_PLUS
      """)
  void codesAreReadWithAPlusAndInAnyCase(String text, AgeRating expected) {
    assertThat(AgeRating.fromCode(text)).contains(expected);
  }

  @ParameterizedTest(name = "\"{0}\" names no rating")
  @NullAndEmptySource
  @ValueSource(strings = {"10", "unrated+", "teen", "-12", "12++"})
  void textThatIsNoCodeNamesNoRating(String text) {
    assertThat(AgeRating.fromCode(text)).isEmpty();
  }

  @Test
  void levelsAreOrderedByTheirMinimumAgeAndUnratedIsNoLevel() {
    assertThat(ALL_AGES.minimumAge()).contains(0);
    assertThat(EIGHTEEN_PLUS.minimumAge()).contains(18);
    assertThat(UNRATED.minimumAge()).isEmpty();
    assertThat(NINE_PLUS.atMost(TWELVE_PLUS)).isTrue();
    assertThat(TWELVE_PLUS.atMost(TWELVE_PLUS)).isTrue();
    assertThat(FIFTEEN_PLUS.atMost(TWELVE_PLUS)).isFalse();
    assertThat(UNRATED.atMost(EIGHTEEN_PLUS)).isFalse();
    assertThat(ALL_AGES.atMost(UNRATED)).isFalse();
  }

  @Test
  void theStricterOfTwoIsTheOlderAndARatedOneBeatsUnrated() {
    assertThat(AgeRating.stricter(NINE_PLUS, FIFTEEN_PLUS)).isEqualTo(FIFTEEN_PLUS);
    assertThat(AgeRating.stricter(EIGHTEEN_PLUS, ALL_AGES)).isEqualTo(EIGHTEEN_PLUS);
    assertThat(AgeRating.stricter(UNRATED, ALL_AGES)).isEqualTo(ALL_AGES);
    assertThat(AgeRating.stricter(TWELVE_PLUS, UNRATED)).isEqualTo(TWELVE_PLUS);
    assertThat(AgeRating.stricter(UNRATED, UNRATED)).isEqualTo(UNRATED);
  }

  @ParameterizedTest(name = "{0} is written to ComicInfo as a value read back as {0}")
  @EnumSource(value = AgeRating.class, names = "UNRATED", mode = EnumSource.Mode.EXCLUDE)
  void everyLevelWrittenToComicInfoReadsBackAsTheSameLevel(AgeRating level) {
    assertThat(level.comicInfo()).isPresent();
    assertThat(AgeRating.fromComicInfo(level.comicInfo().orElseThrow())).isEqualTo(level);
  }

  @Test
  void unratedIsNotWrittenToComicInfo() {
    assertThat(UNRATED.comicInfo()).isEmpty();
  }
}
