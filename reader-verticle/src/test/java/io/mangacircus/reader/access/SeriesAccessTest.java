package io.mangacircus.reader.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.rating.AgeLimit;
import io.mangacircus.contracts.rating.AgeRating;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Who sees a series: the library list, the age limit with its unrated flag, and admins who see everything. */
class SeriesAccessTest {

  private static final UserAccess COMICS_UP_TO_12 = UserAccess.only(Set.of("comics"), AgeLimit.atMost(
      AgeRating.TWELVE_PLUS));

  @ParameterizedTest(name = "{0} rated {1}: sees {2} (unrated hidden), {3} (unrated shown), admin {4}")
  @CsvSource({
      // library, rating, restricted reader (unrated hidden), restricted reader (unrated shown), admin
      "comics,    all,     true,  true,  true",
      "comics,    9,       true,  true,  true",
      "comics,    12,      true,  true,  true",
      "comics,    15,      false, false, true",
      "comics,    18,      false, false, true",
      "comics,    unrated, false, true,  true",
      "downloads, all,     false, false, true",
      "downloads, 12,      false, false, true",
      "downloads, unrated, false, false, true",
      "downloads, 18,      false, false, true"})
  void aRestrictedReaderSeesAllowedLibrariesUpToTheLimitAndAnAdminSeesEverything(String library, String rating,
      boolean hidden, boolean shown, boolean admin) {
    AgeRating level = AgeRating.fromCode(rating).orElseThrow();
    UserAccess unratedShown = UserAccess.only(Set.of("comics"), COMICS_UP_TO_12.ageLimit().withUnratedShown(true));

    assertThat(SeriesAccess.of("reader", COMICS_UP_TO_12).sees(library, level)).as("unrated hidden").isEqualTo(hidden);
    assertThat(SeriesAccess.of("reader", unratedShown).sees(library, level)).as("unrated shown").isEqualTo(shown);
    assertThat(SeriesAccess.of("admin", COMICS_UP_TO_12).sees(library, level)).as("admin").isEqualTo(admin);
    assertThat(SeriesAccess.of("reader", UserAccess.EVERYTHING).sees(library, level)).as("unrestricted").isTrue();
  }

  @Test
  void aSeriesWithoutARatingCountsAsUnrated() {
    assertThat(SeriesAccess.of("reader", COMICS_UP_TO_12).sees("comics", null)).isFalse();
    assertThat(SeriesAccess.of("reader", UserAccess.allLibraries(AgeLimit.NONE)).sees("comics", null)).isTrue();
  }

  @Test
  void anAgeLimitOnEveryLibraryHidesOnlyByRating() {
    SeriesAccess access = SeriesAccess.of("reader", UserAccess.allLibraries(AgeLimit.atMost(AgeRating.FIFTEEN_PLUS)));

    assertThat(access.sees("anything-added-later", AgeRating.FIFTEEN_PLUS)).isTrue();
    assertThat(access.sees("downloads", AgeRating.EIGHTEEN_PLUS)).isFalse();
    assertThat(access.seesEverything()).isFalse();
  }

  @Test
  void anEmptyLibraryListShowsNothing() {
    SeriesAccess access = SeriesAccess.of("reader", UserAccess.only(Set.of(), AgeLimit.NONE));

    assertThat(access.sees("downloads", AgeRating.ALL_AGES)).isFalse();
  }

  @Test
  void onlyAdminsAndUnrestrictedReadersSeeEverything() {
    assertThat(SeriesAccess.of("reader", UserAccess.EVERYTHING).seesEverything()).isTrue();
    assertThat(SeriesAccess.of("admin", COMICS_UP_TO_12).seesEverything()).isTrue();
    assertThat(SeriesAccess.of("reader", COMICS_UP_TO_12).seesEverything()).isFalse();
  }

  @Test
  void aLibraryNameOfTheWrongShapeOrAListBesideAllLibrariesIsRefused() {
    assertThatThrownBy(() -> UserAccess.only(Set.of("Comics"), AgeLimit.NONE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("library name");
    assertThatThrownBy(() -> new UserAccess(true, Set.of("comics"), AgeLimit.NONE))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
