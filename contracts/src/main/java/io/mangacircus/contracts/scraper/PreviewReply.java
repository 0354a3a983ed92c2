package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.Message;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;
import java.time.Instant;
import java.util.List;

/**
 * The reply of {@code mc.scraper.titles.preview}: a title's details and every chapter in reading order, in every
 * language and from every group (the same number may appear more than once).
 *
 * @param source source name
 * @param titleId the source's title id
 * @param title the title's name
 * @param altTitles other names
 * @param description the description, may be empty
 * @param tags genres and themes
 * @param year year of first publication, or null
 * @param status e.g. {@code ongoing}, or null
 * @param coverId opaque cover id for {@code mc.scraper.covers.fetch}, or null
 * @param url the title's page on the source, or null
 * @param languages languages chapters exist in
 * @param groups scanlation groups that uploaded chapters
 * @param chapters every chapter
 */
public record PreviewReply(String source, String titleId, String title, List<String> altTitles, String description,
    List<String> tags, Integer year, String status, String coverId, String url, List<String> languages,
    List<Group> groups, List<Chapter> chapters) implements Message {

  public static final int VERSION = 1;

  public PreviewReply {
    MessageFields.required(PreviewReply.class, "source", source);
    MessageFields.required(PreviewReply.class, "titleId", titleId);
    altTitles = MessageFields.list(PreviewReply.class, "altTitles", altTitles);
    tags = MessageFields.list(PreviewReply.class, "tags", tags);
    languages = MessageFields.list(PreviewReply.class, "languages", languages);
    groups = MessageFields.list(PreviewReply.class, "groups", groups);
    chapters = MessageFields.list(PreviewReply.class, "chapters", chapters);
  }

  /**
   * A scanlation group.
   *
   * @param id the source's group id (what {@code preferredGroups} names)
   * @param name its name
   */
  public record Group(String id, String name) {

    public Group {
      MessageFields.required(Group.class, "id", id);
    }
  }

  /**
   * One chapter.
   *
   * @param id the source's chapter id
   * @param number chapter number as the source writes it, or null (a oneshot)
   * @param title chapter title, may be empty
   * @param language language code
   * @param groupIds groups that uploaded it, maybe empty
   * @param publishedAt when the source published it, or null
   * @param downloadable whether its pages can be downloaded from this source
   * @param reason why not, else null
   */
  public record Chapter(String id, String number, String title, String language, List<String> groupIds,
      Instant publishedAt, boolean downloadable, String reason) {

    public Chapter {
      MessageFields.required(Chapter.class, "id", id);
      MessageFields.required(Chapter.class, "language", language);
      groupIds = MessageFields.list(Chapter.class, "groupIds", groupIds);
    }
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static PreviewReply fromJson(Object body) {
    return MessageJson.read(body, PreviewReply.class, VERSION);
  }
}
