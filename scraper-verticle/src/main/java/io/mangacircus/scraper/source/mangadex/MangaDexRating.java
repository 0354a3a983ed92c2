package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.contracts.rating.AgeRating;
import io.vertx.core.json.JsonObject;

/** A MangaDex title's age rating: {@code data.attributes.contentRating} of {@code /manga/{id}}, as a level. */
final class MangaDexRating {

  private MangaDexRating() {
  }

  /**
   * The level of the answer's {@code contentRating} ({@link AgeRating#fromMangaDex}); unrated when it is missing, not
   * text or a value MangaDex added later: a rating is never a reason to fail an inspection.
   */
  static AgeRating of(JsonObject answer) {
    if (answer != null && answer.getValue("data") instanceof JsonObject data
        && data.getValue("attributes") instanceof JsonObject attributes
        && attributes.getValue("contentRating") instanceof String contentRating) {
      return AgeRating.fromMangaDex(contentRating);
    }
    return AgeRating.UNRATED;
  }
}
