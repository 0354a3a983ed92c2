package io.mangacircus.scraper.source.mangadex;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.testing.MangaDexApi;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A title's age rating read from the shared fake MangaDex's {@code /manga/{id}} answer. */
class MangaDexRatingTest {

  /** The fixture's answer with its {@code contentRating} set to {@code value} (null: left out). */
  private static JsonObject manga(String value) {
    JsonObject answer = new JsonObject(MangaDexApi.resource("manga.json"));
    JsonObject attributes = answer.getJsonObject("data").getJsonObject("attributes");
    assertThat(attributes.getString("contentRating")).as("the fixture rates its title").isEqualTo("safe");
    if (value == null) {
      attributes.remove("contentRating");
    } else {
      attributes.put("contentRating", value);
    }
    return answer;
  }

  @ParameterizedTest(name = "contentRating {0} is {1}")
  @CsvSource({"safe, ALL_AGES", "suggestive, FIFTEEN_PLUS", "erotica, EIGHTEEN_PLUS", "pornographic, EIGHTEEN_PLUS",
      "Suggestive, FIFTEEN_PLUS", "'', UNRATED", "violent, UNRATED"})
  void everyContentRatingIsReadAsItsLevel(String contentRating, AgeRating level) {
    assertThat(MangaDexRating.of(manga(contentRating))).isEqualTo(level);
  }

  @Test
  void aTitleWithoutAContentRatingIsUnrated() {
    assertThat(MangaDexRating.of(manga(null))).isEqualTo(AgeRating.UNRATED);
    JsonObject numeric = manga("safe");
    numeric.getJsonObject("data").getJsonObject("attributes").put("contentRating", 18);
    assertThat(MangaDexRating.of(numeric)).isEqualTo(AgeRating.UNRATED);
    assertThat(MangaDexRating.of(new JsonObject().put("result", "ok"))).isEqualTo(AgeRating.UNRATED);
  }
}
