package io.mangacircus.reader.library.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class NaturalOrderTest {

  private static List<String> sorted(String... names) {
    List<String> list = new ArrayList<>(List.of(names));
    Collections.shuffle(list, new java.util.Random(7));
    list.sort(NaturalOrder.INSTANCE);
    return list;
  }

  @Test
  void digitsAreComparedByTheirValue() {
    assertThat(sorted("page10.jpg", "page2.jpg", "page1.jpg", "page100.jpg", "page9.jpg"))
        .containsExactly("page1.jpg", "page2.jpg", "page9.jpg", "page10.jpg", "page100.jpg");
  }

  @Test
  void caseDoesNotOrderNamesExceptToBreakTies() {
    assertThat(sorted("b.png", "A.png", "a.png", "C.png"))
        .containsExactly("A.png", "a.png", "b.png", "C.png");
  }

  @Test
  void leadingZerosAreTheSameValueAndTheFullNameBreaksTheTie() {
    assertThat(NaturalOrder.INSTANCE.compare("p02.jpg", "p2.jpg")).isNotZero();
    assertThat(sorted("p3.jpg", "p02.jpg", "p2.jpg", "p001.jpg"))
        .containsExactly("p001.jpg", "p02.jpg", "p2.jpg", "p3.jpg");
  }

  @Test
  void numbersLongerThanALongStillCompareByValue() {
    assertThat(sorted("v99999999999999999999999.jpg", "v100000000000000000000000.jpg", "v5.jpg"))
        .containsExactly("v5.jpg", "v99999999999999999999999.jpg", "v100000000000000000000000.jpg");
  }

  @Test
  void foldersAndChaptersSortByEachNumberInTurn() {
    assertThat(sorted("ch10/p1.jpg", "ch2/p10.jpg", "ch2/p9.jpg", "ch1/p1.jpg"))
        .containsExactly("ch1/p1.jpg", "ch2/p9.jpg", "ch2/p10.jpg", "ch10/p1.jpg");
  }

  @Test
  void aShorterNameThatIsAPrefixComesFirst() {
    assertThat(sorted("page1a.jpg", "page1.jpg", "page")).containsExactly("page", "page1.jpg", "page1a.jpg");
  }
}
