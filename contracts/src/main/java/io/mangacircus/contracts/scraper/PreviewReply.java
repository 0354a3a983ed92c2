package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
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
    List<Group> groups, List<Chapter> chapters) {

  public static final int VERSION = 1;

  private static final String TYPE = "PreviewReply";

  public PreviewReply {
    altTitles = List.copyOf(altTitles);
    tags = List.copyOf(tags);
    languages = List.copyOf(languages);
    groups = List.copyOf(groups);
    chapters = List.copyOf(chapters);
  }

  /**
   * A scanlation group.
   *
   * @param id the source's group id (what {@code preferredGroups} names)
   * @param name its name
   */
  public record Group(String id, String name) {

    public JsonObject toJson() {
      return new JsonObject().put("id", id).put("name", name);
    }

    /** Parses one group; throws {@link InvalidMessageException} when it does not match. */
    public static Group fromJson(Object body) {
      String type = "PreviewReply.Group";
      JsonObject json = MessageFields.object(body, type);
      return new Group(MessageFields.string(json, type, "id"), MessageFields.text(json, type, "name"));
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
      groupIds = List.copyOf(groupIds);
    }

    public JsonObject toJson() {
      return new JsonObject().put("id", id).put("number", number).put("title", title).put("language", language)
          .put("groupIds", new JsonArray(groupIds))
          .put("publishedAt", publishedAt == null ? null : publishedAt.toString()).put("downloadable", downloadable)
          .put("reason", reason);
    }

    /** Parses one chapter; throws {@link InvalidMessageException} when it does not match. */
    public static Chapter fromJson(Object body) {
      String type = "PreviewReply.Chapter";
      JsonObject json = MessageFields.object(body, type);
      return new Chapter(MessageFields.string(json, type, "id"), MessageFields.optionalString(json, type, "number"),
          MessageFields.text(json, type, "title"), MessageFields.string(json, type, "language"),
          MessageFields.strings(json, type, "groupIds"), MessageFields.optionalInstant(json, type, "publishedAt"),
          MessageFields.bool(json, type, "downloadable"), MessageFields.optionalString(json, type, "reason"));
    }
  }

  public JsonObject toJson() {
    JsonArray groupList = new JsonArray();
    groups.forEach(group -> groupList.add(group.toJson()));
    JsonArray chapterList = new JsonArray();
    chapters.forEach(chapter -> chapterList.add(chapter.toJson()));
    return new JsonObject().put("v", VERSION).put("source", source).put("titleId", titleId).put("title", title)
        .put("altTitles", new JsonArray(altTitles)).put("description", description).put("tags", new JsonArray(tags))
        .put("year", year).put("status", status).put("coverId", coverId).put("url", url)
        .put("languages", new JsonArray(languages)).put("groups", groupList).put("chapters", chapterList);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static PreviewReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    MessageFields.requireVersion(json, TYPE, VERSION);
    List<Group> groups = new ArrayList<>();
    for (Object entry : MessageFields.array(json, TYPE, "groups")) {
      groups.add(Group.fromJson(entry));
    }
    List<Chapter> chapters = new ArrayList<>();
    for (Object entry : MessageFields.array(json, TYPE, "chapters")) {
      chapters.add(Chapter.fromJson(entry));
    }
    return new PreviewReply(MessageFields.string(json, TYPE, "source"), MessageFields.string(json, TYPE, "titleId"),
        MessageFields.text(json, TYPE, "title"), MessageFields.strings(json, TYPE, "altTitles"),
        MessageFields.text(json, TYPE, "description"), MessageFields.strings(json, TYPE, "tags"),
        MessageFields.optionalInt(json, TYPE, "year"), MessageFields.optionalString(json, TYPE, "status"),
        MessageFields.optionalString(json, TYPE, "coverId"), MessageFields.optionalString(json, TYPE, "url"),
        MessageFields.strings(json, TYPE, "languages"), groups, chapters);
  }
}
