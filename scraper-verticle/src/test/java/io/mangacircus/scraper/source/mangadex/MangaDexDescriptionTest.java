package io.mangacircus.scraper.source.mangadex;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.library.SourceSeriesMetadata;
import io.mangacircus.contracts.library.SourceSeriesMetadata.Author;
import io.mangacircus.contracts.library.SourceSeriesMetadata.Link;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.junit.jupiter.api.Test;

class MangaDexDescriptionTest {

  private static JsonObject answer(String name) throws IOException {
    try (InputStream in = Objects.requireNonNull(
        MangaDexDescriptionTest.class.getResourceAsStream("/fixtures/mangadex/" + name))) {
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void aTitleAnswerWithIncludedPeopleGivesTheSeriesMetadata() throws IOException {
    SourceSeriesMetadata metadata = MangaDexDescription.of("mangadex", answer("manga-with-authors.json"));

    assertThat(metadata.source()).isEqualTo("mangadex");
    assertThat(metadata.titleId()).isEqualTo("8f3e1818-a015-491d-bd81-3addc4d7d56a");
    assertThat(metadata.title()).as("the main title before an English alternative, as inspection names it")
        .isEqualTo("Yoake no Circus");
    assertThat(metadata.summary()).isEqualTo("A circus arrives at dawn.\n\nNobody saw it come.");
    assertThat(metadata.status()).isEqualTo("completed");
    assertThat(metadata.year()).isEqualTo(2021);
    assertThat(metadata.originalLanguage()).isEqualTo("ja");
  }

  @Test
  void authorsAreWritersAndArtistsPencillersEachOnceAndUnnamedOnesLeftOut() throws IOException {
    SourceSeriesMetadata metadata = MangaDexDescription.of("mangadex", answer("manga-with-authors.json"));

    assertThat(metadata.authors()).containsExactly(new Author("Aoi Hoshino", "writer"),
        new Author("Aoi Hoshino", "penciller"), new Author("Ren Takeda", "penciller"));
  }

  @Test
  void genreTagsAreGenresAndThemesAndFormatsAreTags() throws IOException {
    SourceSeriesMetadata metadata = MangaDexDescription.of("mangadex", answer("manga-with-authors.json"));

    assertThat(metadata.genres()).containsExactly("Action", "Adventure");
    assertThat(metadata.tags()).containsExactly("Circus", "Full Color");
  }

  @Test
  void knownLinkKeysBecomeUrlsWithTheirIdsAndUnknownOrMalformedOnesAreLeftOut() throws IOException {
    SourceSeriesMetadata metadata = MangaDexDescription.of("mangadex", answer("manga-with-authors.json"));

    assertThat(metadata.links()).containsExactly(
        new Link("anilist", "112233", "https://anilist.co/manga/112233"),
        new Link("myanimelist", "44556", "https://myanimelist.net/manga/44556"),
        new Link("mangaupdates", "ar7ox1g", "https://www.mangaupdates.com/series/ar7ox1g"),
        new Link("kitsu", "circus-at-dawn", "https://kitsu.app/manga/circus-at-dawn"),
        new Link("animeplanet", "the-circus-at-dawn", "https://www.anime-planet.com/manga/the-circus-at-dawn"),
        new Link("raw", "https://example.jp/circus", "https://example.jp/circus"),
        new Link("official-english", "https://example.com/en/circus", "https://example.com/en/circus"));
  }

  @Test
  void anOldNumericMangaUpdatesIdLinksToItsOldPage() {
    JsonObject answer = new JsonObject().put("data", new JsonObject().put("id", "8f3e1818-a015-491d-bd81-3addc4d7d56a")
        .put("attributes", new JsonObject().put("title", new JsonObject().put("en", "T"))
            .put("links", new JsonObject().put("mu", "15310"))));

    assertThat(MangaDexDescription.of("mangadex", answer).links()).containsExactly(
        new Link("mangaupdates", "15310", "https://www.mangaupdates.com/series.html?id=15310"));
  }

  @Test
  void aTitleWithoutDescriptionOrPeopleHasEmptyFieldsNotBlankOnes() throws IOException {
    JsonObject answer = answer("manga-with-authors.json");
    JsonObject attributes = answer.getJsonObject("data").getJsonObject("attributes");
    attributes.put("description", new JsonObject()).put("links", new io.vertx.core.json.JsonArray())
        .putNull("year").putNull("status");
    answer.getJsonObject("data").put("relationships", new io.vertx.core.json.JsonArray());

    SourceSeriesMetadata metadata = MangaDexDescription.of("mangadex", answer);

    assertThat(metadata.summary()).isNull();
    assertThat(metadata.authors()).isEmpty();
    assertThat(metadata.links()).isEmpty();
    assertThat(metadata.year()).isNull();
    assertThat(metadata.status()).isNull();
  }
}
