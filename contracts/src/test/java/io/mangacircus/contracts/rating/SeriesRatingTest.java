package io.mangacircus.contracts.rating;

import static io.mangacircus.contracts.rating.AgeRating.ALL_AGES;
import static io.mangacircus.contracts.rating.AgeRating.EIGHTEEN_PLUS;
import static io.mangacircus.contracts.rating.AgeRating.FIFTEEN_PLUS;
import static io.mangacircus.contracts.rating.AgeRating.NINE_PLUS;
import static io.mangacircus.contracts.rating.AgeRating.TWELVE_PLUS;
import static io.mangacircus.contracts.rating.AgeRating.UNRATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.rating.SeriesRating.Origin;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeriesRatingTest {

  @Test
  void theAdminsRatingWinsOverTheSourceAndTheChapters() {
    assertThat(SeriesRating.decide(NINE_PLUS, EIGHTEEN_PLUS, List.of(EIGHTEEN_PLUS)))
        .isEqualTo(new SeriesRating(NINE_PLUS, Origin.ADMIN));
    assertThat(SeriesRating.decide(EIGHTEEN_PLUS, ALL_AGES, List.of(ALL_AGES)))
        .isEqualTo(new SeriesRating(EIGHTEEN_PLUS, Origin.ADMIN));
  }

  @Test
  void withoutAnAdminRatingTheSourcesWinsOverTheChapters() {
    assertThat(SeriesRating.decide(null, FIFTEEN_PLUS, List.of(ALL_AGES, EIGHTEEN_PLUS)))
        .isEqualTo(new SeriesRating(FIFTEEN_PLUS, Origin.SOURCE));
    assertThat(SeriesRating.decide(UNRATED, ALL_AGES, List.of(EIGHTEEN_PLUS)))
        .isEqualTo(new SeriesRating(ALL_AGES, Origin.SOURCE));
  }

  @Test
  void withoutAdminOrSourceTheStrictestChapterDecides() {
    assertThat(SeriesRating.decide(null, null, List.of(ALL_AGES, FIFTEEN_PLUS, TWELVE_PLUS)))
        .isEqualTo(new SeriesRating(FIFTEEN_PLUS, Origin.COMIC_INFO));
    assertThat(SeriesRating.decide(UNRATED, UNRATED, List.of(EIGHTEEN_PLUS, NINE_PLUS)))
        .isEqualTo(new SeriesRating(EIGHTEEN_PLUS, Origin.COMIC_INFO));
  }

  @Test
  void chaptersWithoutARatingAreSkippedWhenOthersCarryOne() {
    assertThat(SeriesRating.decide(null, UNRATED, Arrays.asList(UNRATED, TWELVE_PLUS, null, UNRATED)))
        .isEqualTo(new SeriesRating(TWELVE_PLUS, Origin.COMIC_INFO));
  }

  @Test
  void aSeriesNothingRatesIsUnrated() {
    SeriesRating nothing = new SeriesRating(UNRATED, Origin.NONE);

    assertThat(SeriesRating.decide(null, null, null)).isEqualTo(nothing);
    assertThat(SeriesRating.decide(UNRATED, UNRATED, List.of())).isEqualTo(nothing);
    assertThat(SeriesRating.decide(null, UNRATED, List.of(UNRATED, UNRATED))).isEqualTo(nothing);
  }

  @Test
  void aRatingAndItsOriginAgreeOnWhetherAnythingDecided() {
    assertThatThrownBy(() -> new SeriesRating(UNRATED, Origin.ADMIN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SeriesRating(TWELVE_PLUS, Origin.NONE)).isInstanceOf(IllegalArgumentException.class);
  }
}
