package io.mangacircus.reader.komga;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KomgaIdsTest {

  @Test
  void aBookIdNamesItsChapterAndIsTheSameEveryTime() {
    String id = KomgaIds.bookId("moon", "chapter-0001");

    assertThat(id).isEqualTo(KomgaIds.bookId("moon", "chapter-0001")).matches("[A-Za-z0-9_-]+");
    assertThat(KomgaIds.chapter(id)).hasValue(new KomgaIds.ChapterRef("moon", "chapter-0001"));
  }

  @Test
  void theSameChapterFolderInTwoSeriesHasTwoIds() {
    assertThat(KomgaIds.bookId("moon", "chapter-0001")).isNotEqualTo(KomgaIds.bookId("sun", "chapter-0001"));
  }

  @Test
  void idsThisServerDidNotMakeNameNoChapter() {
    assertThat(KomgaIds.chapter("not a book")).isEmpty();
    assertThat(KomgaIds.chapter(KomgaIds.bookId("..", "chapter-0001"))).isEmpty();
    assertThat(KomgaIds.chapter(KomgaIds.bookId("moon", "../etc"))).isEmpty();
    assertThat(KomgaIds.chapter(KomgaIds.bookId("moon", "chapter-0001") + "=")).isEmpty();
    assertThat(KomgaIds.chapter("")).isEmpty();
  }
}
