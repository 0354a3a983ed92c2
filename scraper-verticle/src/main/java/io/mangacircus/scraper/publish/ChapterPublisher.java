package io.mangacircus.scraper.publish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.scraper.CrashPoints;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.InstantSource;
import java.util.Optional;

/**
 * Publishes a complete staging folder as {@code library/<series>/<chapter>/} with one rename on the same filesystem,
 * then fsyncs the parent. A published chapter is never overwritten or deleted.
 */
public final class ChapterPublisher {

  /** How a publication ended. */
  public enum Result {
    /** Renamed into the library now. */
    PUBLISHED,
    /** The library already holds this chapter with the same fingerprint (an earlier run published it). */
    ALREADY_PUBLISHED,
    /** Another chapter with a different fingerprint occupies the folder; nothing was touched. */
    CONFLICT
  }

  static final String CHAPTER_JSON = "chapter.json";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final LibraryLayout layout;
  private final InstantSource clock;

  public ChapterPublisher(LibraryLayout layout, InstantSource clock) {
    this.layout = layout;
    this.clock = clock;
  }

  /** The fingerprint recorded in the library's {@code chapter.json} for this chapter, if it is published. */
  public Optional<String> publishedFingerprint(ChapterKey key) {
    Path file = layout.chapter(key).resolve(CHAPTER_JSON);
    try {
      JsonNode json = MAPPER.readTree(Files.readString(file));
      return Optional.ofNullable(json.path("fingerprint").textValue());
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of("unreadable");
    }
  }

  /** Publishes a complete staging folder. */
  public Result publish(StagingFolder staging) throws IOException {
    if (!staging.complete()) {
      throw new IllegalStateException("staging " + staging.path() + " is not complete");
    }
    ChapterKey key = staging.key();
    Path target = layout.chapter(key);
    if (Files.exists(target)) {
      return publishedFingerprint(key).filter(staging.fingerprint()::equals).isPresent()
          ? Result.ALREADY_PUBLISHED : Result.CONFLICT;
    }
    staging.writeFile(CHAPTER_JSON, chapterJson(staging));
    staging.writeFile("ComicInfo.xml", comicInfo(staging).getBytes(StandardCharsets.UTF_8));
    Path series = target.getParent();
    if (!Files.isDirectory(series)) {
      Files.createDirectories(series);
      AtomicFiles.fsyncFolder(layout.root());
    }
    CrashPoints.reach("publish.before-rename");
    Files.move(staging.path(), target, StandardCopyOption.ATOMIC_MOVE);
    CrashPoints.reach("publish.renamed");
    AtomicFiles.fsyncFolder(series);
    AtomicFiles.fsyncFolder(layout.root());
    return Result.PUBLISHED;
  }

  private byte[] chapterJson(StagingFolder staging) throws IOException {
    ChapterKey key = staging.key();
    ObjectNode json = MAPPER.createObjectNode();
    json.put("schema", 1);
    json.put("source", key.source());
    json.put("titleId", key.titleId());
    json.put("series", key.seriesTitle());
    json.put("chapterId", key.chapterId());
    json.put("number", key.number());
    json.put("title", key.chapterTitle());
    json.put("language", key.language());
    json.put("fingerprint", staging.fingerprint());
    json.put("publishedAt", clock.instant().toString());
    ArrayNode pages = json.putArray("pages");
    for (Checkpoint.Page page : staging.pages()) {
      pages.addObject().put("index", page.index()).put("file", page.file()).put("size", page.size())
          .put("sha256", page.sha256());
    }
    return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(json);
  }

  private static String comicInfo(StagingFolder staging) {
    ChapterKey key = staging.key();
    return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        + "<ComicInfo xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"
        + "  <Series>" + xml(key.seriesTitle()) + "</Series>\n"
        + "  <Number>" + xml(key.number()) + "</Number>\n"
        + (key.chapterTitle().isEmpty() ? "" : "  <Title>" + xml(key.chapterTitle()) + "</Title>\n")
        + "  <PageCount>" + staging.pageCount() + "</PageCount>\n"
        + "  <LanguageISO>" + xml(key.language()) + "</LanguageISO>\n"
        + "  <Notes>Downloaded by MangaCircus from source " + xml(key.source()) + ", title " + xml(key.titleId())
        + ", chapter " + xml(key.chapterId()) + "</Notes>\n"
        + "</ComicInfo>\n";
  }

  private static String xml(String text) {
    return text == null ? "" : text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;").replace("'", "&apos;");
  }
}
