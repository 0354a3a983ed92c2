package io.mangacircus.contracts.rating;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class AgeLimitTest {

  /** Each limit against each level: a level is shown up to and including the limit. */
  @ParameterizedTest(name = "limit {0} shows {1}")
  @CsvSource(delimiter = '|', textBlock = """
      all | all
      9   | all, 9
      12  | all, 9, 12
      15  | all, 9, 12, 15
      18  | all, 9, 12, 15, 18
      """)
  void aLimitShowsTheLevelsUpToItsMaximumOnly(String limitText, String shownCodes) {
    AgeLimit limit = valid(limitText);
    var shown = Arrays.stream(AgeRating.values()).filter(AgeRating::rated).filter(limit::allows).map(AgeRating::code);

    assertThat(shown).containsExactly(shownCodes.split(", "));
  }

  @ParameterizedTest(name = "limit {0} hides unrated by default and shows it with the flag")
  @ValueSource(strings = {"all", "9", "12", "15", "18"})
  void unratedSeriesFollowTheFlagWhichIsOffByDefault(String limitText) {
    AgeLimit limit = valid(limitText);

    assertThat(limit.unratedShown()).isFalse();
    assertThat(limit.allows(AgeRating.UNRATED)).isFalse();
    assertThat(limit.withUnratedShown(true).allows(AgeRating.UNRATED)).isTrue();
    assertThat(limit.withUnratedShown(true).withUnratedShown(false).allows(AgeRating.UNRATED)).isFalse();
  }

  @ParameterizedTest(name = "no limit shows {0}")
  @EnumSource(AgeRating.class)
  void noLimitShowsEverySeriesRatedOrNot(AgeRating rating) {
    assertThat(AgeLimit.NONE.allows(rating)).isTrue();
    assertThat(AgeLimit.NONE.withUnratedShown(false).allows(rating)).isTrue();
    assertThat(AgeLimit.NONE.restricted()).isFalse();
  }

  @Test
  void aLimitOfEighteenStillHidesUnratedSeriesUnlikeNoLimit() {
    assertThat(AgeLimit.atMost(AgeRating.EIGHTEEN_PLUS).allows(AgeRating.UNRATED)).isFalse();
    assertThat(AgeLimit.atMost(AgeRating.EIGHTEEN_PLUS).restricted()).isTrue();
  }

  @ParameterizedTest(name = "\"{0}\" reads as {1}")
  @CsvSource(delimiter = '|', textBlock = """
      none       | none
      ' NONE '   | none
      all        | all
      All Ages   | all
      9          | 9
      12         | 12
      12+        | 12
      15         | 15
      ' 18 '     | 18
      """)
  void textFormsReadBackAsTheirLimit(String text, String expectedText) {
    assertThat(valid(text).text()).isEqualTo(expectedText);
  }

  @ParameterizedTest(name = "{0} round-trips")
  @ValueSource(strings = {"none", "all", "9", "12", "15", "18"})
  void everyTextFormRoundTrips(String text) {
    assertThat(valid(text).text()).isEqualTo(text);
  }

  @ParameterizedTest(name = "\"{0}\" is refused")
  @ValueSource(strings = {"13", "unrated", "teen", "adult", "-1", "18++", "none please"})
  void textThatNamesNoLimitIsRefusedWithTheFormsAccepted(String text) {
    AgeLimit.Parsed parsed = AgeLimit.parse(text);

    assertThat(parsed).isInstanceOf(AgeLimit.Invalid.class);
    assertThat(((AgeLimit.Invalid) parsed).message())
        .isEqualTo("age limit '" + text + "' is not one of none, all, 9, 12, 15 or 18");
  }

  @ParameterizedTest(name = "\"{0}\" is refused as empty")
  @NullAndEmptySource
  @ValueSource(strings = {"   "})
  void anEmptyLimitIsRefused(String text) {
    assertThat(AgeLimit.parse(text)).isEqualTo(new AgeLimit.Invalid("age limit is empty; use one of none, all, 9, 12, "
        + "15 or 18"));
  }

  @Test
  void aRefusalDoesNotEchoControlCharactersOrLongText() {
    assertThat(AgeLimit.parse("1\u001b[2J2")).isEqualTo(new AgeLimit.Invalid("age limit given is not one of none, "
        + "all, 9, 12, 15 or 18"));
    assertThat(AgeLimit.parse("x".repeat(41))).isEqualTo(new AgeLimit.Invalid("age limit given is not one of none, "
        + "all, 9, 12, 15 or 18"));
  }

  @Test
  void unratedIsNoMaximum() {
    assertThatThrownBy(() -> AgeLimit.atMost(AgeRating.UNRATED)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not unrated");
  }

  private static AgeLimit valid(String text) {
    AgeLimit.Parsed parsed = AgeLimit.parse(text);
    assertThat(parsed).as("parse of '%s'", text).isInstanceOf(AgeLimit.Valid.class);
    return ((AgeLimit.Valid) parsed).limit();
  }
}
