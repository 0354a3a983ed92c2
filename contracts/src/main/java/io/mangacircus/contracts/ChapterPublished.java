package io.mangacircus.contracts;

import io.mangacircus.contracts.library.ChapterManifest;
import io.vertx.core.json.JsonObject;

/**
 * Published on {@link Addresses#LIBRARY_PUBLISHED} after a chapter was renamed into the library (or found there
 * already): the chapter's manifest, where it lies, and a sequence number counted by the publishing scraper instance
 * from 1, so that a reader notices a missed event (a gap, or a new instance) and rescans (docs/event-bus.md).
 *
 * @param instance the publishing scraper instance's id
 * @param seq 1 for the instance's first publication, then one more for each
 * @param seriesId the series folder's name in the library ({@code circus-nights})
 * @param path the chapter folder relative to the library folder ({@code circus-nights/chapter-0001})
 * @param manifest the chapter's {@code chapter.json}
 */
public record ChapterPublished(String instance, long seq, String seriesId, String path, ChapterManifest manifest) {

  public static final int VERSION = 2;

  /** The chapter folder's name ({@code chapter-0001}). */
  public String chapterFolder() {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** Pages of the chapter. */
  public int pages() {
    return manifest.pages().size();
  }

  /**
   * The event; {@code source}, {@code titleId}, {@code series}, {@code chapterId}, {@code chapter} and {@code pages}
   * repeat the manifest's fields for consumers that show the event as it is (the console).
   */
  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("instance", instance).put("seq", seq).put("seriesId", seriesId)
        .put("path", path).put("source", manifest.source()).put("titleId", manifest.titleId())
        .put("series", manifest.series()).put("chapterId", manifest.chapterId()).put("chapter", manifest.number())
        .put("pages", pages()).put("manifest", new JsonObject(manifest.toMap()));
  }

  public static ChapterPublished fromJson(Object body) {
    String type = "ChapterPublished";
    JsonObject json = MessageFields.object(body, type);
    MessageFields.requireVersion(json, type, VERSION);
    JsonObject manifest = json.getValue("manifest") instanceof JsonObject object ? object : null;
    if (manifest == null) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'manifest' must be an object");
    }
    String path = MessageFields.string(json, type, "path");
    String seriesId = MessageFields.string(json, type, "seriesId");
    if (!path.startsWith(seriesId + "/") || path.indexOf('/', seriesId.length() + 1) >= 0) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'path' is not <seriesId>/<chapter>");
    }
    try {
      return new ChapterPublished(MessageFields.string(json, type, "instance"), MessageFields.number(json, type, "seq"),
          seriesId, path, ChapterManifest.parse(manifest.toBuffer().getBytes()));
    } catch (ChapterManifest.InvalidException e) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'manifest': " + e.getMessage());
    }
  }
}
