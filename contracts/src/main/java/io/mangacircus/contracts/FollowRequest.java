package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * Follows or unfollows a title ({@code mc.scraper.follows.set}); unfollowing keeps everything downloaded.
 *
 * @param source the source's name
 * @param titleId the source's title id
 * @param follow true to follow, false to unfollow
 * @param language the language to follow, lower case, or null (the title's job's language, else {@code en})
 */
public record FollowRequest(String source, String titleId, boolean follow, String language) {

  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("source", source).put("titleId", titleId).put("follow", follow)
        .put("language", language);
  }

  public static FollowRequest fromJson(Object body) {
    String type = "FollowRequest";
    JsonObject json = MessageFields.object(body, type);
    MessageFields.requireVersion(json, type, VERSION);
    String titleId = MessageFields.operatorString(json, type, "titleId");
    if (titleId.length() > 500) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'titleId' is longer than 500");
    }
    return new FollowRequest(MessageFields.operatorString(json, type, "source"), titleId,
        MessageFields.bool(json, type, "follow"),
        LanguageCodes.check(type, "language", MessageFields.optionalString(json, type, "language")));
  }
}
