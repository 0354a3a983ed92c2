package io.mangacircus.reader.kosync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KosyncPositionTest {

  @Test
  void koreadersPageNumberIsOurPageClampedIntoTheChapter() {
    assertThat(KosyncPosition.page("3", 5)).isEqualTo(3);
    assertThat(KosyncPosition.page(" 5 ", 5)).isEqualTo(5);
    assertThat(KosyncPosition.page("9", 5)).isEqualTo(5);
    assertThat(KosyncPosition.page("0", 5)).isEqualTo(1);
    assertThat(KosyncPosition.page("-4", 5)).isEqualTo(1);
    assertThat(KosyncPosition.page("2.0", 5)).isEqualTo(2);
  }

  @Test
  void aProgressThatIsNoPageNumberIsRefused() {
    for (String bad : new String[] {"", "abc", "/body/DocFragment[10].0", "NaN", "Infinity", "1e3", "0x10"}) {
      assertThatThrownBy(() -> KosyncPosition.page(bad, 5)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> KosyncPosition.page(null, 5)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void ourPageIsKoreadersProgressStringAndFlooredFraction() {
    assertThat(KosyncPosition.progress(7)).isEqualTo("7");
    assertThat(KosyncPosition.percentage(1, 3)).isEqualTo(0.3333);
    assertThat(KosyncPosition.percentage(2, 3)).isEqualTo(0.6666);
    assertThat(KosyncPosition.percentage(3, 3)).isEqualTo(1.0);
    assertThat(KosyncPosition.percentage(12, 3)).isEqualTo(1.0);
  }

  @Test
  void aPushedPercentageIsAFractionFromZeroToOne() {
    assertThat(KosyncPosition.fraction(0.25)).isEqualTo(0.25);
    assertThat(KosyncPosition.fraction("0.5")).isEqualTo(0.5);
    assertThat(KosyncPosition.fraction(1)).isEqualTo(1.0);
    for (Object bad : new Object[] {null, "half", 1.5, -0.1, true}) {
      assertThatThrownBy(() -> KosyncPosition.fraction(bad)).as(String.valueOf(bad))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
