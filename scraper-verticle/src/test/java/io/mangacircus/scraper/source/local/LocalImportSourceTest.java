package io.mangacircus.scraper.source.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocalImportSourceTest {

  @Test
  void chapterNumbersComeFromTheNameTheWayPeopleWriteThem() {
    assertThat(LocalImportSource.numberOf("Chapter 12", 1)).isEqualTo("12");
    assertThat(LocalImportSource.numberOf("Vol.01 Ch.003.5", 1)).isEqualTo("3.5");
    assertThat(LocalImportSource.numberOf("c007 (scan group v2)", 1)).isEqualTo("7");
    assertThat(LocalImportSource.numberOf("Series Name 041", 1)).isEqualTo("41");
    assertThat(LocalImportSource.numberOf("Prologue", 4)).as("no number: its position").isEqualTo("4");
  }

  @Test
  void pagesSortNaturally() {
    List<String> names = new ArrayList<>(List.of("p10.jpg", "p2.jpg", "P1.jpg", "p2b.jpg", "cover.jpg"));

    names.sort(LocalImportSource.NaturalOrder.INSTANCE);

    assertThat(names).containsExactly("cover.jpg", "P1.jpg", "p2.jpg", "p2b.jpg", "p10.jpg");
  }
}
