package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * Asks for one title's details and chapters before adding it ({@code mc.scraper.titles.preview}).
 *
 * @param source the source's name
 * @param titleId the source's title id (as a search result names it)
 */
public record PreviewRequest(String source, String titleId) {

  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("source", source).put("titleId", titleId);
  }

  public static PreviewRequest fromJson(Object body) {
    String type = "PreviewRequest";
    JsonObject json = MessageFields.object(body, type);
    MessageFields.requireVersion(json, type, VERSION);
    String titleId = MessageFields.operatorString(json, type, "titleId");
    if (titleId.length() > 500) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'titleId' is longer than 500");
    }
    return new PreviewRequest(MessageFields.operatorString(json, type, "source"), titleId);
  }
}
