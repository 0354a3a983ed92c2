package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The reply of {@code mc.scraper.follows.list} (every followed title, by title) and {@code mc.scraper.follows.set}
 * (the one title changed, or none after an unfollow).
 *
 * @param titles followed titles
 */
public record FollowsReply(List<Followed> titles) {

  public static final int VERSION = 1;

  private static final String TYPE = "FollowsReply";

  public FollowsReply {
    titles = List.copyOf(titles);
  }

  /**
   * One followed title.
   *
   * @param source source name
   * @param titleId the source's title id
   * @param title human title (the title id until known)
   * @param language the language followed
   * @param followedAt when it was followed
   * @param lastCheckAt the last time discovery checked it, or null
   * @param lastNewChapterAt the last time a check found a new chapter, or null
   * @param nextCheckAt when discovery checks it next, or null when discovery is off
   */
  public record Followed(String source, String titleId, String title, String language, Instant followedAt,
      Instant lastCheckAt, Instant lastNewChapterAt, Instant nextCheckAt) {

    public JsonObject toJson() {
      return new JsonObject().put("source", source).put("titleId", titleId).put("title", title)
          .put("language", language).put("followedAt", followedAt.toString()).put("lastCheckAt", text(lastCheckAt))
          .put("lastNewChapterAt", text(lastNewChapterAt)).put("nextCheckAt", text(nextCheckAt));
    }

    /** Parses one entry; throws {@link InvalidMessageException} when it does not match. */
    public static Followed fromJson(Object body) {
      String type = "FollowsReply.Followed";
      JsonObject json = MessageFields.object(body, type);
      return new Followed(MessageFields.string(json, type, "source"), MessageFields.string(json, type, "titleId"),
          MessageFields.text(json, type, "title"), MessageFields.string(json, type, "language"),
          MessageFields.instant(json, type, "followedAt"), MessageFields.optionalInstant(json, type, "lastCheckAt"),
          MessageFields.optionalInstant(json, type, "lastNewChapterAt"),
          MessageFields.optionalInstant(json, type, "nextCheckAt"));
    }

    private static String text(Instant at) {
      return at == null ? null : at.toString();
    }
  }

  public JsonObject toJson() {
    JsonArray list = new JsonArray();
    titles.forEach(title -> list.add(title.toJson()));
    return new JsonObject().put("v", VERSION).put("titles", list);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static FollowsReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    MessageFields.requireVersion(json, TYPE, VERSION);
    List<Followed> titles = new ArrayList<>();
    for (Object entry : MessageFields.array(json, TYPE, "titles")) {
      titles.add(Followed.fromJson(entry));
    }
    return new FollowsReply(titles);
  }
}
