package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * Published on {@link Addresses#LIBRARY_PUBLISHED} after a chapter was renamed into the library.
 *
 * @param source source name
 * @param titleId the source's title id
 * @param series the series title
 * @param chapterId the source's chapter id
 * @param chapter the chapter number
 * @param pages page count
 * @param path the chapter folder relative to the library folder ({@code circus-nights/chapter-0001})
 */
public record ChapterPublished(String source, String titleId, String series, String chapterId, String chapter,
    int pages, String path) {

  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("source", source).put("titleId", titleId).put("series", series)
        .put("chapterId", chapterId).put("chapter", chapter).put("pages", pages).put("path", path);
  }

  public static ChapterPublished fromJson(Object body) {
    String type = "ChapterPublished";
    JsonObject json = MessageFields.object(body, type);
    MessageFields.requireVersion(json, type, VERSION);
    return new ChapterPublished(MessageFields.string(json, type, "source"), MessageFields.string(json, type, "titleId"),
        MessageFields.string(json, type, "series"), MessageFields.string(json, type, "chapterId"),
        MessageFields.string(json, type, "chapter"), (int) MessageFields.number(json, type, "pages"),
        MessageFields.string(json, type, "path"));
  }
}
