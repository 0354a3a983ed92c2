package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * Adds a title to the queue.
 *
 * @param source the source's name
 * @param title the source's title id, or a title URL
 * @param autoConfirm true to download right after inspection; null uses the scraper's {@code autoConfirm} setting
 */
public record AddTitleRequest(String source, String title, Boolean autoConfirm) {

  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("source", source).put("title", title)
        .put("autoConfirm", autoConfirm);
  }

  public static AddTitleRequest fromJson(Object body) {
    String type = "AddTitleRequest";
    JsonObject json = MessageFields.object(body, type);
    MessageFields.requireVersion(json, type, VERSION);
    String title = MessageFields.operatorString(json, type, "title");
    if (title.length() > 500) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'title' is longer than 500");
    }
    Object auto = json.getValue("autoConfirm");
    if (auto != null && !(auto instanceof Boolean)) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'autoConfirm' must be a boolean");
    }
    return new AddTitleRequest(MessageFields.operatorString(json, type, "source"), title, (Boolean) auto);
  }
}
