package io.mangacircus.scraper.source.mangadex;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MangaDexJsonTest {

  private static final Instant NOW = Instant.parse("2026-02-01T00:00:00Z");

  private static JsonObject manga(JsonObject title) {
    return new JsonObject().put("result", "ok").put("response", "entity").put("data", new JsonObject()
        .put("id", "8f3e1818-a015-491d-bd81-3addc4d7d56a").put("type", "manga")
        .put("attributes", new JsonObject().put("title", title).put("originalLanguage", "ja"))
        .put("relationships", new JsonArray()));
  }

  private static JsonObject chapter(String id, Object number, String language, Object externalUrl, int pages) {
    return new JsonObject().put("id", id).put("type", "chapter").put("attributes", new JsonObject()
        .put("volume", "1").put("chapter", number).put("title", "Title " + number)
        .put("translatedLanguage", language).put("externalUrl", externalUrl).put("pages", pages).put("version", 1));
  }

  private static String id(int n) {
    return String.format("00000000-0000-4000-8000-%012d", n);
  }

  @Test
  void theEnglishTitleIsPreferred() {
    FetchOutcome<String> title = MangaDexJson.title(manga(new JsonObject().put("ja-ro", "Dawn no Circus")
        .put("en", "The Circus at Dawn")), "t");

    assertThat(title.value()).isEqualTo("The Circus at Dawn");
  }

  @Test
  void withoutAnEnglishTitleTheFirstIsTaken() {
    FetchOutcome<String> title = MangaDexJson.title(manga(new JsonObject().put("ja-ro", "Dawn no Circus")
        .put("fr", "Le Cirque de l'aube")), "t");

    assertThat(title.value()).isEqualTo("Dawn no Circus");
  }

  @Test
  void anEmptyTitleFallsBackToAnEnglishAlternativeThenAnyThenTheId() {
    JsonObject empty = manga(new JsonObject());
    empty.getJsonObject("data").getJsonObject("attributes").put("title", new JsonArray())
        .put("altTitles", new JsonArray().add(new JsonObject().put("ja", "夜明けのサーカス"))
            .add(new JsonObject().put("en", "Circus at Dawn")));
    assertThat(MangaDexJson.title(empty, "t").value()).isEqualTo("Circus at Dawn");

    empty.getJsonObject("data").getJsonObject("attributes").put("altTitles", new JsonArray()
        .add(new JsonObject().put("ja", "夜明けのサーカス")));
    assertThat(MangaDexJson.title(empty, "t").value()).isEqualTo("夜明けのサーカス");

    empty.getJsonObject("data").getJsonObject("attributes").remove("altTitles");
    assertThat(MangaDexJson.title(empty, "t").value()).isEqualTo("8f3e1818-a015-491d-bd81-3addc4d7d56a");
  }

  @Test
  void aMangaWithoutAttributesOrWithATitleOfTheWrongShapeIsAParseErrorNamingTheField() {
    assertThat(MangaDexJson.title(new JsonObject().put("result", "ok"), "t").describe()).contains("attributes");
    assertThat(MangaDexJson.title(manga(null).put("data", new JsonObject()), "t").describe()).contains("attributes");
    JsonObject odd = manga(new JsonObject());
    odd.getJsonObject("data").getJsonObject("attributes").put("title", "just a string");
    assertThat(MangaDexJson.title(odd, "t")).isInstanceOf(FetchOutcome.ParseError.class);
    assertThat(MangaDexJson.title(odd, "t").describe()).contains("data.attributes.title");
  }

  @Test
  void aFeedPageCarriesItsChaptersAndPaging() {
    JsonObject answer = new JsonObject().put("result", "ok").put("response", "collection")
        .put("data", new JsonArray().add(chapter(id(1), "1", "en", null, 3)).add(chapter(id(2), null, "fr", null, 4)))
        .put("limit", 2).put("offset", 0).put("total", 5);

    MangaDexJson.FeedPage page = MangaDexJson.feedPage(answer, "feed").value();

    assertThat(page.limit()).isEqualTo(2);
    assertThat(page.total()).isEqualTo(5);
    assertThat(page.chapters()).containsExactly(
        new MangaDexJson.Chapter(id(1), "1", "Title 1", "en", "", 3),
        new MangaDexJson.Chapter(id(2), "", "Title null", "fr", "", 4));
  }

  @Test
  void aFeedWithoutPagingOrIdsIsAParseError() {
    assertThat(MangaDexJson.feedPage(new JsonObject().put("data", new JsonArray()), "feed"))
        .isInstanceOf(FetchOutcome.ParseError.class);
    JsonObject noId = new JsonObject().put("data", new JsonArray().add(new JsonObject().put("attributes",
        new JsonObject()))).put("limit", 1).put("offset", 0).put("total", 1);
    assertThat(MangaDexJson.feedPage(noId, "feed").describe()).contains("feed data[0]", "no chapter id");
  }

  @Test
  void externalChaptersAreListedWithTheirUrlEmptyOnesLeftOutAndDuplicatesOfANumberKeepTheFirst() {
    List<MangaDexJson.Chapter> feed = List.of(
        new MangaDexJson.Chapter(id(1), "1", "Arrival", "en", "", 3),
        new MangaDexJson.Chapter(id(2), "1", "Arrivée", "fr", "", 3),
        new MangaDexJson.Chapter(id(3), "1.5", "Extra", "en", "https://example.org/read/1.5", 0),
        new MangaDexJson.Chapter(id(4), "2", "Second", "en", "", 3),
        new MangaDexJson.Chapter(id(5), "2", "Second (other group)", "en", "", 4),
        new MangaDexJson.Chapter(id(6), "3", "Not uploaded", "en", "", 0),
        new MangaDexJson.Chapter(id(7), "", "Oneshot", "en", "", 5));

    assertThat(MangaDexJson.chapters(feed, NOW)).containsExactly(
        new ChapterInfo(id(1), "1", "Arrival", "en"),
        new ChapterInfo(id(2), "1", "Arrivée", "fr"),
        new ChapterInfo(id(3), "1.5", "Extra", "en", null, "https://example.org/read/1.5"),
        new ChapterInfo(id(4), "2", "Second", "en"),
        new ChapterInfo(id(7), id(7), "Oneshot", "en"));
    assertThat(MangaDexJson.chapters(feed, NOW).get(2).notDownloadable(NOW))
        .contains("external, not downloadable: example.org");
  }

  @Test
  void aChapterReadableOnlyLaterIsScheduledWhateverTheServerFilteredAndAHostedOneOfItsNumberWins() {
    JsonObject answer = new JsonObject().put("result", "ok").put("response", "collection").put("data", new JsonArray()
        .add(chapter(id(1), "1", "en", null, 3).put("attributes", chapter(id(1), "1", "en", null, 3)
            .getJsonObject("attributes").put("publishAt", "2026-01-01T10:00:00+00:00")
            .put("readableAt", "2026-03-01T12:00:00+00:00")))
        .add(chapter(id(2), "2", "en", null, 3).put("attributes", chapter(id(2), "2", "en", null, 3)
            .getJsonObject("attributes").put("publishAt", "2026-02-15T10:00:00+00:00")))
        .add(chapter(id(3), "2", "en", null, 3).put("attributes", chapter(id(3), "2", "en", null, 3)
            .getJsonObject("attributes").put("publishAt", "2025-12-01T10:00:00+00:00"))))
        .put("limit", 3).put("offset", 0).put("total", 3);

    List<ChapterInfo> chapters = MangaDexJson.chapters(MangaDexJson.feedPage(answer, "feed").value().chapters(), NOW);

    assertThat(chapters).extracting(ChapterInfo::id).containsExactly(id(1), id(3));
    assertThat(chapters.get(0).notDownloadable(NOW)).contains("scheduled: readable from 2026-03-01T12:00:00Z");
    assertThat(chapters.get(1).notDownloadable(NOW)).isEmpty();
  }

  @Test
  void anAtHomeAnswerGivesServerHashAndBothFileLists() {
    JsonObject answer = new JsonObject().put("result", "ok").put("baseUrl", "https://node.example:443/tok")
        .put("chapter", new JsonObject().put("hash", "3303dd03ac8d27452cce3f2a882e94b2")
            .put("data", new JsonArray().add("1-a.png").add("2-b.png"))
            .put("dataSaver", new JsonArray().add("1-a.jpg").add("2-b.jpg")));

    MangaDexJson.AtHome atHome = MangaDexJson.atHome(answer, "at-home").value();

    assertThat(atHome.baseUrl()).isEqualTo("https://node.example:443/tok");
    assertThat(atHome.hash()).isEqualTo("3303dd03ac8d27452cce3f2a882e94b2");
    assertThat(atHome.data()).containsExactly("1-a.png", "2-b.png");
    assertThat(atHome.dataSaver()).containsExactly("1-a.jpg", "2-b.jpg");
  }

  @Test
  void anAtHomeAnswerWithABadServerHashOrFileNameIsAParseError() {
    JsonObject chapter = new JsonObject().put("hash", "abc").put("data", new JsonArray().add("1.png"));
    assertThat(MangaDexJson.atHome(new JsonObject().put("baseUrl", "ftp://x").put("chapter", chapter), "a").describe())
        .contains("baseUrl");
    assertThat(MangaDexJson.atHome(new JsonObject().put("baseUrl", "https://x").put("chapter",
        chapter.copy().put("hash", "../..")), "a").describe()).contains("chapter.hash");
    assertThat(MangaDexJson.atHome(new JsonObject().put("baseUrl", "https://x").put("chapter",
        chapter.copy().put("data", new JsonArray().add("../../etc/passwd"))), "a").describe())
        .contains("unusable file name");
  }

  @Test
  void bodiesThatAreNotJsonObjectsAreParseErrors() {
    assertThat(MangaDexJson.object("<html>oops</html>", "x")).isInstanceOf(FetchOutcome.ParseError.class);
    assertThat(MangaDexJson.object("[1,2]", "x").describe()).contains("not a JSON object");
    assertThat(MangaDexJson.object("", "x")).isInstanceOf(FetchOutcome.ParseError.class);
    assertThat(MangaDexJson.object("{\"result\":\"ok\"}", "x").value().getString("result")).isEqualTo("ok");
  }

  @Test
  void anErrorAnswersDetailIsRead() {
    String body = "{\"result\":\"error\",\"errors\":[{\"id\":\"e1\",\"status\":404,\"title\":\"Not found\","
        + "\"detail\":\"Manga could not be found\"}]}";

    assertThat(MangaDexJson.errorDetail(body)).isEqualTo("Manga could not be found");
    assertThat(MangaDexJson.errorDetail("not json")).isEmpty();
    assertThat(MangaDexJson.errorDetail(null)).isEmpty();
  }
}
