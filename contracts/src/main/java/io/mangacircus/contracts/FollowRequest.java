package io.mangacircus.contracts;

/**
 * Follows or unfollows a title ({@code mc.scraper.follows.set}); unfollowing keeps everything downloaded.
 *
 * @param source the source's name
 * @param titleId the source's title id
 * @param follow true to follow, false to unfollow
 * @param language the language to follow, lower case, or null (the title's job's language, else {@code en})
 */
public record FollowRequest(String source, String titleId, boolean follow, String language) implements Message {

  public static final int VERSION = 1;

  public FollowRequest {
    MessageFields.atMost(FollowRequest.class, "titleId",
        MessageFields.operatorText(FollowRequest.class, "titleId", titleId), 500);
    MessageFields.operatorText(FollowRequest.class, "source", source);
    language = MessageFields.optionalLanguage(FollowRequest.class, "language", language);
  }

  public static FollowRequest fromJson(Object body) {
    return MessageJson.read(body, FollowRequest.class, VERSION);
  }
}
