package io.mangacircus.contracts.scraper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.InvalidMessageException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The finder's replies (sources, search, preview, follows) survive a round trip and refuse what breaks the contract. */
class SearchRepliesTest {

  private static final Instant AT = Instant.parse("2026-11-29T10:00:00Z");

  @Test
  void sourcesReplyRoundTripsAndRefusesAnUnknownCircuit() {
    SourcesReply reply = new SourcesReply(List.of(new SourcesReply.Source("mangadex", "mangadex", true, "closed",
        "https://mangadex.org/title/{titleId}"),
        new SourcesReply.Source("site", "html", false, "open")));
    assertThat(SourcesReply.fromJson(reply.toJson())).isEqualTo(reply);

    JsonObject bad = reply.toJson();
    bad.getJsonArray("sources").getJsonObject(0).put("circuit", "melted");
    assertThatThrownBy(() -> SourcesReply.fromJson(bad)).isInstanceOfSatisfying(InvalidMessageException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_MESSAGE)).hasMessageContaining("'circuit'");
  }

  @Test
  void searchReplyRoundTripsResultsAndProblems() {
    SearchReply reply = new SearchReply("starfall", List.of(
        new SearchResult("mangadex", "t1", "Starfall", List.of("Sternfall"), 2019, "ongoing", List.of("en", "fr"),
            null, "c1", "https://mangadex.org/title/t1"),
        new SearchResult("site", "starfall", "Starfall", List.of(), null, null, List.of(), 12, null, null)),
        List.of(new SourceProblem("local", SourceProblem.CANNOT_SEARCH, "local cannot search")));
    JsonObject json = reply.toJson();

    assertThat(json.getInteger("v")).isEqualTo(1);
    assertThat(json.getJsonArray("results").getJsonObject(1).containsKey("year")).isTrue();
    assertThat(SearchReply.fromJson(json)).isEqualTo(reply);
  }

  @Test
  void searchResultWithAMistypedFieldIsRefusedNamingIt() {
    JsonObject result = new SearchResult("s", "t", "T", List.of(), null, null, List.of(), null, null, null).toJson();
    JsonObject json = new JsonObject().put("v", 1).put("query", "q").put("problems", new JsonArray())
        .put("results", new JsonArray().add(result.put("year", "2019")));
    assertThatThrownBy(() -> SearchReply.fromJson(json)).hasMessageContaining("'year'");
    result.put("year", 2019).put("altTitles", new JsonArray().add(3));
    assertThatThrownBy(() -> SearchReply.fromJson(json)).hasMessageContaining("'altTitles'");
  }

  @Test
  void previewReplyRoundTripsChaptersOfEveryLanguageAndGroup() {
    PreviewReply reply = new PreviewReply("mangadex", "t1", "Starfall", List.of("Sternfall"), "A fall of stars.",
        List.of("Action"), 2019, "ongoing", "c1", "https://mangadex.org/title/t1", List.of("en", "fr"),
        List.of(new PreviewReply.Group("g1", "Alpha"), new PreviewReply.Group("g2", "Beta")),
        List.of(new PreviewReply.Chapter("ch1", "1", "Start", "en", List.of("g1"), AT, true, null),
            new PreviewReply.Chapter("ch2", "1", "", "en", List.of("g2"), null, true, null),
            new PreviewReply.Chapter("ch3", null, "Oneshot", "fr", List.of(), AT, false, "hosted elsewhere")));

    assertThat(PreviewReply.fromJson(reply.toJson())).isEqualTo(reply);
    JsonObject bad = reply.toJson();
    bad.getJsonArray("chapters").getJsonObject(0).put("publishedAt", "yesterday");
    assertThatThrownBy(() -> PreviewReply.fromJson(bad)).hasMessageContaining("'publishedAt'");
  }

  @Test
  void followsReplyRoundTripsWithNullableTimes() {
    FollowsReply reply = new FollowsReply(List.of(
        new FollowsReply.Followed("mangadex", "t1", "Starfall", "en", AT, AT.plusSeconds(60), null, AT.plusSeconds(3600)),
        new FollowsReply.Followed("demo", "d", "Demo", "en", AT, null, null, null)));
    assertThat(FollowsReply.fromJson(reply.toJson())).isEqualTo(reply);
    JsonObject bad = reply.toJson();
    bad.getJsonArray("titles").getJsonObject(0).remove("followedAt");
    assertThatThrownBy(() -> FollowsReply.fromJson(bad)).hasMessageContaining("'followedAt'");
  }
}
