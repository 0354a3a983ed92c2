package io.mangacircus.support.xml;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.rating.AgeRating;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullSource;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

class ComicInfoTest {

  @ParameterizedTest(name = "a chapter rated {0} carries an AgeRating that reads back as {0}")
  @EnumSource(value = AgeRating.class, names = "UNRATED", mode = EnumSource.Mode.EXCLUDE)
  void aRatedChapterCarriesAnAgeRatingThatReadsBackAsItsLevel(AgeRating level) throws Exception {
    Document xml = parsed(new ComicInfo("Circus Nights", "1", "Opening", 3, "en", "notes", level).xml());

    NodeList ratings = xml.getElementsByTagName("AgeRating");

    assertThat(ratings.getLength()).isEqualTo(1);
    assertThat(AgeRating.fromComicInfo(ratings.item(0).getTextContent())).isEqualTo(level);
    assertThat(xml.getElementsByTagName("Series").item(0).getTextContent()).isEqualTo("Circus Nights");
  }

  @ParameterizedTest(name = "a chapter rated {0} has no AgeRating")
  @EnumSource(value = AgeRating.class, names = "UNRATED")
  @NullSource
  void anUnratedChapterHasNoAgeRating(AgeRating unrated) throws Exception {
    Document xml = parsed(new ComicInfo("Circus Nights", "1", "", 3, "en", null, unrated).xml());

    assertThat(xml.getElementsByTagName("AgeRating").getLength()).isZero();
    assertThat(new ComicInfo("Circus Nights", "1", "", 3, "en", null).xml())
        .isEqualTo(new ComicInfo("Circus Nights", "1", "", 3, "en", null, unrated).xml());
  }

  @org.junit.jupiter.api.Test
  void whatTheSourceSaysOfTheSeriesIsWrittenAsComicInfoElements() throws Exception {
    io.mangacircus.contracts.library.SourceSeriesMetadata about = new io.mangacircus.contracts.library
        .SourceSeriesMetadata(1, "mangadex", "t1", "Circus Nights", "Lights & <tents>.", java.util.List.of(
            new io.mangacircus.contracts.library.SourceSeriesMetadata.Author("Aoi Hoshino", "writer"),
            new io.mangacircus.contracts.library.SourceSeriesMetadata.Author("Ren Takeda", "penciller"),
            new io.mangacircus.contracts.library.SourceSeriesMetadata.Author("Mio Sato", "penciller")),
        java.util.List.of("Drama", "Comedy"), java.util.List.of("Circus"), "ongoing", 2020, "ja", java.util.List.of(
            new io.mangacircus.contracts.library.SourceSeriesMetadata.Link("anilist", "1", "https://anilist.co/manga/1"),
            new io.mangacircus.contracts.library.SourceSeriesMetadata.Link("myanimelist", "2",
                "https://myanimelist.net/manga/2")));

    Document xml = parsed(new ComicInfo("Circus Nights", "1", "Opening", 3, "en", null, null, about).xml());

    assertThat(text(xml, "Summary")).isEqualTo("Lights & <tents>.");
    assertThat(text(xml, "Writer")).isEqualTo("Aoi Hoshino");
    assertThat(text(xml, "Penciller")).isEqualTo("Ren Takeda, Mio Sato");
    assertThat(text(xml, "Genre")).isEqualTo("Drama, Comedy");
    assertThat(text(xml, "Tags")).isEqualTo("Circus");
    assertThat(text(xml, "Web")).isEqualTo("https://anilist.co/manga/1 https://myanimelist.net/manga/2");
    assertThat(new ComicInfo("Circus Nights", "1", "Opening", 3, "en", null, null, null).xml())
        .doesNotContain("<Summary>", "<Writer>", "<Web>");
  }

  private static String text(Document xml, String element) {
    NodeList found = xml.getElementsByTagName(element);
    assertThat(found.getLength()).as(element).isEqualTo(1);
    return found.item(0).getTextContent();
  }

  private static Document parsed(String xml) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
  }
}
