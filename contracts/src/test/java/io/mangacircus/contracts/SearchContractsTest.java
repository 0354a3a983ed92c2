package io.mangacircus.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The finder's requests (search, preview, cover, follow, add with language) parse, default and refuse bad fields. */
class SearchContractsTest {

  private static JsonObject v1() {
    return new JsonObject().put("v", 1);
  }

  private static void refused(Runnable parse, String... words) {
    assertThatThrownBy(parse::run).isInstanceOfSatisfying(InvalidMessageException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_MESSAGE)).hasMessageContainingAll(words);
  }

  @Test
  void searchRequestRoundTripsAndDefaultsToTwentyResultsFromEverySource() {
    SearchRequest request = new SearchRequest("mangadex", "starfall", 5);
    assertThat(SearchRequest.fromJson(request.toJson())).isEqualTo(request);

    SearchRequest all = SearchRequest.fromJson(v1().put("query", "  starfall  "));
    assertThat(all).isEqualTo(new SearchRequest(null, "starfall", 20));
  }

  @Test
  void searchRequestRefusesAnEmptyLongOrControlQueryAndALimitOutOfRange() {
    refused(() -> SearchRequest.fromJson(v1().put("query", "   ")), "'query'");
    refused(() -> SearchRequest.fromJson(v1()), "'query'");
    refused(() -> SearchRequest.fromJson(v1().put("query", "x".repeat(201))), "'query'", "200");
    refused(() -> SearchRequest.fromJson(v1().put("query", "a\u0000b")), "query");
    refused(() -> SearchRequest.fromJson(v1().put("query", "a").put("limit", 0)), "'limit'", "between 1 and 50");
    refused(() -> SearchRequest.fromJson(v1().put("query", "a").put("limit", 51)), "'limit'");
    refused(() -> SearchRequest.fromJson(v1().put("query", "a").put("limit", "5")), "'limit'");
    refused(() -> SearchRequest.fromJson(v1().put("query", "a").put("limit", 2.5)), "'limit'");
    refused(() -> SearchRequest.fromJson(v1().put("query", "a").put("source", 3)), "'source'");
    assertThatThrownBy(() -> SearchRequest.fromJson(new JsonObject().put("v", 2).put("query", "a")))
        .isInstanceOfSatisfying(InvalidMessageException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION));
  }

  @Test
  void previewAndCoverRequestsRoundTripAndNeedTheirFields() {
    assertThat(PreviewRequest.fromJson(new PreviewRequest("mangadex", "abc").toJson()))
        .isEqualTo(new PreviewRequest("mangadex", "abc"));
    assertThat(CoverRequest.fromJson(new CoverRequest("mangadex", "c_9f-2").toJson()))
        .isEqualTo(new CoverRequest("mangadex", "c_9f-2"));
    refused(() -> PreviewRequest.fromJson(v1().put("source", "mangadex")), "'titleId'");
    refused(() -> CoverRequest.fromJson(v1().put("source", "mangadex")), "'coverId'");
  }

  @Test
  void coverRequestRefusesAUrlInsteadOfAnId() {
    refused(() -> CoverRequest.fromJson(v1().put("source", "mangadex")
        .put("coverId", "http://169.254.169.254/latest/meta-data")), "'coverId'", "handed out");
    refused(() -> CoverRequest.fromJson(v1().put("source", "mangadex").put("coverId", "../../etc/passwd")),
        "'coverId'");
  }

  @Test
  void followRequestRoundTripsWithAnOptionalLanguage() {
    FollowRequest request = new FollowRequest("mangadex", "abc", true, "pt-br");
    assertThat(FollowRequest.fromJson(request.toJson())).isEqualTo(request);
    assertThat(FollowRequest.fromJson(v1().put("source", "s").put("titleId", "t").put("follow", false)))
        .isEqualTo(new FollowRequest("s", "t", false, null));
    assertThat(FollowRequest.fromJson(v1().put("source", "s").put("titleId", "t").put("follow", true)
        .put("language", "EN")).language()).isEqualTo("en");
    refused(() -> FollowRequest.fromJson(v1().put("source", "s").put("titleId", "t")), "'follow'");
    refused(() -> FollowRequest.fromJson(v1().put("source", "s").put("titleId", "t").put("follow", "yes")),
        "'follow'");
    refused(() -> FollowRequest.fromJson(v1().put("source", "s").put("titleId", "t").put("follow", true)
        .put("language", "english!")), "'language'", "language code");
  }

  @Test
  void addTitleRequestWithoutTheNewFieldsMeansEnglishNoPreferenceNotFollowed() {
    AddTitleRequest old = AddTitleRequest.fromJson(v1().put("source", "mangadex").put("title", "abc"));

    assertThat(old).isEqualTo(new AddTitleRequest("mangadex", "abc", null));
    assertThat(old.language()).isEqualTo("en");
    assertThat(old.preferredGroups()).isEmpty();
    assertThat(old.follow()).isFalse();
  }

  @Test
  void addTitleRequestKeepsLanguageGroupsAndFollowThroughARoundTrip() {
    AddTitleRequest request = new AddTitleRequest("mangadex", "abc", true, "es-la", List.of("g2", "g1"), true);
    JsonObject json = request.toJson();

    assertThat(json.getInteger("v")).isEqualTo(1);
    assertThat(AddTitleRequest.fromJson(json)).isEqualTo(request);
  }

  @Test
  void addTitleRequestRefusesBadLanguageAndGroups() {
    JsonObject base = v1().put("source", "mangadex").put("title", "abc");
    refused(() -> AddTitleRequest.fromJson(base.copy().put("language", 3)), "'language'");
    refused(() -> AddTitleRequest.fromJson(base.copy().put("language", "x")), "'language'", "language code");
    refused(() -> AddTitleRequest.fromJson(base.copy().put("preferredGroups", "g1")), "'preferredGroups'");
    refused(() -> AddTitleRequest.fromJson(base.copy().put("preferredGroups", new JsonArray().add(1))),
        "'preferredGroups'", "strings");
    refused(() -> AddTitleRequest.fromJson(base.copy().put("preferredGroups", new JsonArray().add(" "))),
        "'preferredGroups'");
    refused(() -> AddTitleRequest.fromJson(base.copy().put("preferredGroups", new JsonArray().add("a").add("a"))),
        "'preferredGroups'", "twice");
    refused(() -> AddTitleRequest.fromJson(base.copy().put("follow", "true")), "'follow'");
  }
}
