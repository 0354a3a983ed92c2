package io.mangacircus.contracts;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import io.mangacircus.contracts.library.ChapterManifest;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Published on {@link Addresses#LIBRARY_PUBLISHED} after a chapter was renamed into the library (or found there
 * already): the chapter's manifest, where it lies, and a sequence number counted by the publishing scraper instance
 * from 1, so that a reader notices a missed event (a gap, or a new instance) and rescans (docs/event-bus.md).
 *
 * <p>The event also repeats the manifest's {@code source}, {@code titleId}, {@code series}, {@code chapterId},
 * {@code chapter} (its number) and {@code pages} (its page count) for consumers that show the event as it is (the
 * console); they are written, never read.
 *
 * @param instance the publishing scraper instance's id
 * @param seq 1 for the instance's first publication, then one more for each
 * @param seriesId the series folder's name in the library ({@code circus-nights})
 * @param path the chapter folder relative to the library folder ({@code circus-nights/chapter-0001})
 * @param manifest the chapter's {@code chapter.json}
 */
public record ChapterPublished(String instance, long seq, String seriesId, String path, ChapterManifest manifest) implements Message {

  public static final int VERSION = 2;

  public ChapterPublished {
    MessageFields.nonBlank(ChapterPublished.class, "instance", instance);
    MessageFields.nonBlank(ChapterPublished.class, "seriesId", seriesId);
    MessageFields.nonBlank(ChapterPublished.class, "path", path);
    MessageFields.required(ChapterPublished.class, "manifest", manifest);
    if (!path.startsWith(seriesId + "/") || path.indexOf('/', seriesId.length() + 1) >= 0) {
      throw MessageFields.refused(ChapterPublished.class, "path", "is not <seriesId>/<chapter>");
    }
  }

  /** The chapter folder's name ({@code chapter-0001}). */
  public String chapterFolder() {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** Pages of the chapter. */
  public int pages() {
    return manifest.pages().size();
  }

  /** The manifest's fields the event repeats for consumers that show it as it is. */
  @JsonAnyGetter
  private Map<String, Object> shown() {
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("source", manifest.source());
    shown.put("titleId", manifest.titleId());
    shown.put("series", manifest.series());
    shown.put("chapterId", manifest.chapterId());
    shown.put("chapter", manifest.number());
    shown.put("pages", pages());
    return shown;
  }

  public static ChapterPublished fromJson(Object body) {
    return MessageJson.read(body, ChapterPublished.class, VERSION);
  }
}
