package io.mangacircus.reader.library.providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Title matching: what counts as the same title, and what only looks like it. */
class TitleMatchTest {

  private final TitleMatch match = new TitleMatch(0.9);

  @Test
  void caseAccentsPunctuationTheAndVolumeSuffixesDoNotCount() {
    assertThat(match.score("Pokémon Adventures", "POKEMON ADVENTURES")).isEqualTo(1.0);
    assertThat(match.score("Dr. Stone", "Dr Stone")).isEqualTo(1.0);
    assertThat(match.score("The Promised Neverland", "Promised Neverland")).isEqualTo(1.0);
    assertThat(match.score("Berserk Vol. 03", "Berserk")).isEqualTo(1.0);
    assertThat(match.score("Berserk - Volume 41 (2021)", "Berserk")).isEqualTo(1.0);
  }

  @Test
  void longVowelRomanisationsAreTheSameTitle() {
    assertThat(match.score("Shingeki no Kyoujin", "Shingeki no Kyojin")).isEqualTo(1.0);
    assertThat(match.score("Shōjo Shūmatsu Ryokō", "Shoujo Shuumatsu Ryokou")).isEqualTo(1.0);
  }

  @Test
  void aSeriesWithAnAddedSubtitleIsOfferedButNotConfident() {
    double score = match.score("Made in Abyss", "Made in Abyss Official Anthology");
    assertThat(score).isBetween(0.5, 0.9);
    assertThat(match.confident(score)).isFalse();
  }

  @Test
  void aDifferentSeriesSharingAWordScoresLow() {
    assertThat(match.score("Blue Lock", "Blue Period")).isLessThan(0.6);
    assertThat(match.score("One Piece", "One-Punch Man")).isLessThan(0.5);
  }

  @Test
  void theBestOfEveryTitleAndSynonymCounts() {
    List<String> aniList = List.of("Kaguya-sama wa Kokurasetai: Tensai-tachi no Renai Zunousen",
        "Kaguya-sama: Love is War", "かぐや様は告らせたい");
    double score = match.score(List.of("Kaguya-sama - Love Is War"), aniList);
    assertThat(score).isEqualTo(1.0);
    assertThat(match.confident(score)).isTrue();
    assertThat(match.score(List.of("Kaguya-sama - Love Is War"), aniList.subList(0, 1))).isLessThan(0.9);
  }

  @Test
  void theThresholdIsConfigurableAndChecked() {
    assertThat(new TitleMatch(0.8).confident(match.score("Made in Abyss", "Made in Abyss Anthology"))).isTrue();
    assertThatThrownBy(() -> new TitleMatch(1.5)).hasMessageContaining("between 0 and 1");
    assertThat(match.score(List.of(), List.of("x"))).isZero();
    assertThat(match.score("!!!", "Berserk")).isZero();
  }
}
