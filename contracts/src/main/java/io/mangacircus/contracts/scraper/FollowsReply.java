package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.Message;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;
import java.time.Instant;
import java.util.List;

/**
 * The reply of {@code mc.scraper.follows.list} (every followed title, by title) and {@code mc.scraper.follows.set}
 * (the one title changed, or none after an unfollow).
 *
 * @param titles followed titles
 */
public record FollowsReply(List<Followed> titles) implements Message {

  public static final int VERSION = 1;

  public FollowsReply {
    titles = MessageFields.list(FollowsReply.class, "titles", titles);
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

    public Followed {
      MessageFields.required(Followed.class, "source", source);
      MessageFields.required(Followed.class, "titleId", titleId);
      MessageFields.required(Followed.class, "language", language);
      MessageFields.required(Followed.class, "followedAt", followedAt);
    }
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static FollowsReply fromJson(Object body) {
    return MessageJson.read(body, FollowsReply.class, VERSION);
  }
}
