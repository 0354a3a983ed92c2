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

  private static Document parsed(String xml) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
  }
}
