package io.mangacircus.scraper.demosite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** The demo catalog's fixed content and its page images. */
class DemoCatalogTest {

  private static final DemoCatalog CATALOG = new DemoCatalog();
  private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  /** A page a chapter can serve. */
  private record Page(DemoSeries series, DemoChapter chapter, int index) {
    byte[] image(DemoCatalog catalog) {
      return catalog.pageImage(series.id(), chapter.id(), index);
    }
  }

  /**
   * The first, a middle and the last page of every chapter, and the page a changed list adds: every series' format and
   * every chapter's seed, without drawing all 170 pages of 800×1200 twice (about 20 s of CPU on two cores; the
   * downloads in the ITs check the bytes of every page they fetch).
   */
  private static Stream<Page> sampledPages() {
    return CATALOG.series().stream().flatMap(s -> s.chapters().stream()
        .flatMap(c -> Stream.of(1, (c.pages() + 1) / 2, c.pages(), c.pages() + 1).distinct()
            .map(i -> new Page(s, c, i))));
  }

  @Test
  void catalogHasTheThreeSeriesWithTheirChaptersAndLanguages() {
    assertThat(CATALOG.series()).extracting(DemoSeries::id, DemoSeries::imageFormat).containsExactly(
        tuple("circus-nights", "jpg"),
        tuple("tightrope-walker", "png"),
        tuple("lion-tamer", "jpg"));
    assertThat(CATALOG.series("circus-nights").orElseThrow().chapters()).extracting(DemoChapter::pages)
        .containsExactly(12, 18, 10, 24);
    assertThat(CATALOG.series("tightrope-walker").orElseThrow().chapters()).extracting(DemoChapter::pages)
        .containsExactly(10, 14, 20);
    DemoChapter french = CATALOG.chapter("lion-tamer", "c2-fr").orElseThrow();
    assertThat(List.of(french.number(), french.language(), french.pages())).containsExactly("2", "fr", 12);
    assertThat(CATALOG.chapter("lion-tamer", "c2").orElseThrow().pages()).isEqualTo(30);
    assertThat(CATALOG.series("juggler")).isEmpty();
    assertThat(CATALOG.chapter("lion-tamer", "c9")).isEmpty();
  }

  @Test
  void everyChapterHasBetweenTenAndThirtyPages() {
    CATALOG.series().forEach(s -> s.chapters().forEach(c ->
        assertThat(CATALOG.pageCount(s.id(), c.id(), false)).as(s.id() + "/" + c.id()).isBetween(10, 30)));
  }

  @Test
  void changedPageListHasOneMorePage() {
    assertThat(CATALOG.pageCount("circus-nights", "c1", true)).isEqualTo(13);
    assertThat(CATALOG.pageImage("circus-nights", "c1", 13)).isNotEqualTo(CATALOG.pageImage("circus-nights", "c1", 12));
  }

  @Test
  void aFreshCatalogDrawsEveryChaptersPagesWithTheSameBytes() {
    DemoCatalog fresh = new DemoCatalog();
    sampledPages().forEach(p -> assertThat(p.image(fresh)).as(p.toString()).isEqualTo(p.image(CATALOG)));
  }

  @Test
  void pagesOfAChapterDiffer() {
    assertThat(Arrays.equals(CATALOG.pageImage("lion-tamer", "c1", 1), CATALOG.pageImage("lion-tamer", "c1", 2)))
        .isFalse();
    assertThat(Arrays.equals(CATALOG.pageImage("lion-tamer", "c1", 1), CATALOG.pageImage("lion-tamer", "c2", 1)))
        .isFalse();
  }

  @Test
  void everyChaptersPagesDecodeTo800By1200() {
    sampledPages().forEach(p -> {
      BufferedImage image = decode(p.image(CATALOG));
      assertThat(image).as(p.toString()).isNotNull();
      assertThat(new int[] {image.getWidth(), image.getHeight()}).as(p.toString()).containsExactly(800, 1200);
    });
  }

  @Test
  void jpegPagesStartWithStartOfImageAndEndWithEndOfImage() {
    sampledPages().filter(p -> p.series().imageFormat().equals("jpg")).forEach(p -> {
      byte[] bytes = p.image(CATALOG);
      assertThat(Arrays.copyOf(bytes, 3)).as(p.toString()).containsExactly(0xFF, 0xD8, 0xFF);
      assertThat(Arrays.copyOfRange(bytes, bytes.length - 2, bytes.length)).as(p.toString())
          .containsExactly(0xFF, 0xD9);
    });
  }

  @Test
  void pngPagesStartWithThePngSignature() {
    assertThat(sampledPages().filter(p -> p.series().imageFormat().equals("png")))
        .isNotEmpty()
        .allSatisfy(p -> assertThat(Arrays.copyOf(p.image(CATALOG), 8)).as(p.toString()).isEqualTo(PNG_SIGNATURE));
  }

  @Test
  void returnedImagesCannotChangeTheCache() {
    byte[] first = CATALOG.pageImage("circus-nights", "c2", 1);
    Arrays.fill(first, (byte) 0);
    assertThat(CATALOG.pageImage("circus-nights", "c2", 1)).startsWith(0xFF, 0xD8, 0xFF);
  }

  @Test
  void unknownPageChapterOrSeriesIsRejected() {
    assertThatThrownBy(() -> CATALOG.pageImage("circus-nights", "c1", 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CATALOG.pageImage("circus-nights", "c1", 14))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("circus-nights/c1");
    assertThatThrownBy(() -> CATALOG.pageImage("circus-nights", "c9", 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CATALOG.pageImage("juggler", "c1", 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CATALOG.pageCount("juggler", "c1", false)).isInstanceOf(IllegalArgumentException.class);
  }

  private static BufferedImage decode(byte[] bytes) {
    try {
      return ImageIO.read(new ByteArrayInputStream(bytes));
    } catch (IOException e) {
      throw new AssertionError("page does not decode", e);
    }
  }
}
