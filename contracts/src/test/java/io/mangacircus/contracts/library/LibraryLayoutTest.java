package io.mangacircus.contracts.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class LibraryLayoutTest {

  @Test
  void libraryNamesAreSlugsWhateverTheSourceSends() {
    assertThat(LibraryLayout.slug("../../etc/passwd", "series")).isEqualTo("etc-passwd");
    assertThat(LibraryLayout.slug("Ōkami: Tale / 2", "series")).isEqualTo("okami-tale-2");
    assertThat(LibraryLayout.slug("....", "series")).isEqualTo("series");
    assertThat(LibraryLayout.chapterSlug("12.5", "x")).isEqualTo("chapter-0012.5");
    assertThat(LibraryLayout.chapterSlug("7", "x")).isEqualTo("chapter-0007");
    assertThat(LibraryLayout.chapterSlug(" 0012 ", "x")).isEqualTo("chapter-0012");
    assertThat(LibraryLayout.chapterSlug("123456.125", "x")).isEqualTo("chapter-123456.125");
    assertThat(LibraryLayout.slug(" -- A  very long title that goes on and on and on and on and on and on and on and "
        + "on and on -- ", "series")).isEqualTo("a-very-long-title-that-goes-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on");
    assertThat(LibraryLayout.chapterSlug("../1", "c9")).isEqualTo("chapter-1");
  }

  @Test
  void aTitleMayTakeItsNameThenTheNameWithItsSourceThenWithAHash() {
    assertThat(LibraryLayout.seriesCandidates("mangapill-", "mangapill", "2-x", "One Piece"))
        .startsWith("mangapill-one-piece", "mangapill-one-piece-mangapill")
        .last().asString().matches("mangapill-one-piece-mangapill-[0-9a-f]{8}");
  }

  @Test
  void theHashIsTheSameForATitleOnEveryCallAndThreadAndDiffersByTitleId() throws Exception {
    String expected = "mangapill-one-piece-mangapill-" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
        .digest("mangapill\u00002-x".getBytes(StandardCharsets.UTF_8)), 0, 4);
    Callable<String> last = () -> LibraryLayout.seriesCandidates("mangapill-", "mangapill", "2-x", "One Piece").get(2);
    assertThat(last.call()).isEqualTo(expected);
    assertThat(last.call()).isEqualTo(expected);
    ExecutorService other = Executors.newSingleThreadExecutor();
    try {
      assertThat(other.submit(last).get()).isEqualTo(expected);
    } finally {
      other.shutdownNow();
    }
    assertThat(LibraryLayout.seriesCandidates("mangapill-", "mangapill", "2-y", "One Piece").get(2))
        .isNotEqualTo(expected);
  }

  @Test
  void stagingNamesAndPrefixesRefuseWhatIsNotTheirShape() {
    assertThat(LibraryLayout.stagingName("a".repeat(64))).isEqualTo(".staging-mcscraper-resume-" + "a".repeat(64));
    assertThatThrownBy(() -> LibraryLayout.stagingName("../x")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LibraryLayout.requirePrefix("s", "Bad/")).hasMessageContaining("is not a slug");
    assertThat(LibraryLayout.isPrivate(LibraryLayout.SERIES_MARKER)).isTrue();
  }
}
