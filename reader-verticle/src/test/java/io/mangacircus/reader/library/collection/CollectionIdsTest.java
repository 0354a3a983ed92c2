package io.mangacircus.reader.library.collection;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Collection ids: a readable slug and a hash of the path, one safe path segment whatever the name. */
class CollectionIdsTest {

  @Test
  void anIdIsASlugAndAHashOfThePath() {
    assertThat(CollectionIds.series("One Piece", "One Piece")).matches("one-piece-[0-9a-f]{12}");
    assertThat(CollectionIds.series("One Piece", "One Piece"))
        .isEqualTo(CollectionIds.series("One Piece", "One Piece"));
  }

  @Test
  void namesWithoutLatinLettersOrWithDotsStillGiveASafeSegment() {
    assertThat(CollectionIds.book("進撃の巨人/第1巻.cbz", "第1巻")).matches("1-[0-9a-f]{12}");
    assertThat(CollectionIds.series("ワンピース", "ワンピース")).matches("[0-9a-f]{12}");
    assertThat(CollectionIds.book("../..", "..")).matches("[0-9a-f]{12}");
    assertThat(CollectionIds.slug("Pokémon: Adventures / Vol. 2")).isEqualTo("pokemon-adventures-vol-2");
  }

  @Test
  void theSameNameInDifferentPlacesOrAsSeriesAndBookGetsDifferentIds() {
    assertThat(CollectionIds.book("A/Vol 1.cbz", "Vol 1")).isNotEqualTo(CollectionIds.book("B/Vol 1.cbz", "Vol 1"));
    assertThat(CollectionIds.series("Loose.cbz", "Loose")).isNotEqualTo(CollectionIds.book("Loose.cbz", "Loose"));
  }
}
