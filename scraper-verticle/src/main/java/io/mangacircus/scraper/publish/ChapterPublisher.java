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
    /** This chapter, with a different fingerprint, occupies the folder; nothing was touched. */
    CONFLICT,
    /**
     * The folder belongs to something else: its {@code chapter.json} names another source, title or chapter, or every
     * series folder name the title may take is another's. Nothing was touched.
     */
    FOLDER_TAKEN
  }

  /**
   * What the library holds where a chapter would be published.
   *
   * @param kind nothing, this very chapter, another one, or a folder whose {@code chapter.json} cannot be read
   * @param fingerprint the recorded fingerprint for {@code THIS_CHAPTER}, else null
   * @param folder the chapter folder looked at
   * @param holder for {@code OTHER}: {@code <source>/<titleId> chapter <chapterId>}, else null
   */
  public record Occupant(Kind kind, String fingerprint, Path folder, String holder) {

    /** What the folder holds. */
    public enum Kind { NONE, THIS_CHAPTER, OTHER, UNREADABLE }
  }

  static final String CHAPTER_JSON = "chapter.json";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final LibraryLayout layout;
  private final InstantSource clock;

  public ChapterPublisher(LibraryLayout layout, InstantSource clock) {
    this.layout = layout;
    this.clock = clock;
  }

  /**
   * The fingerprint recorded in the library's {@code chapter.json} for this chapter, if it is published: only a
   * {@code chapter.json} naming the same source, title id and chapter id counts; "unreadable" when it cannot be read.
   */
  public Optional<String> publishedFingerprint(ChapterKey key) {
    Occupant occupant = occupant(key);
    return switch (occupant.kind()) {
      case THIS_CHAPTER -> Optional.ofNullable(occupant.fingerprint());
      case UNREADABLE -> Optional.of("unreadable");
      default -> Optional.empty();
    };
  }

  /** What the library holds at the chapter's folder, judged by its {@code chapter.json}. */
  public Occupant occupant(ChapterKey key) {
    return occupant(layout.chapter(key), key);
  }

  private static Occupant occupant(Path folder, ChapterKey key) {
    Path file = folder.resolve(CHAPTER_JSON);
    JsonNode json;
    try {
      json = MAPPER.readTree(Files.readString(file));
    } catch (NoSuchFileException e) {
      return Files.exists(folder) ? new Occupant(Occupant.Kind.OTHER, null, folder, "a folder without chapter.json")
          : new Occupant(Occupant.Kind.NONE, null, folder, null);
    } catch (IOException e) {
      return new Occupant(Occupant.Kind.UNREADABLE, null, folder, null);
    }
    String source = json.path("source").asText("");
    String titleId = json.path("titleId").asText("");
    String chapterId = json.path("chapterId").asText("");
    if (source.equals(key.source()) && titleId.equals(key.titleId()) && chapterId.equals(key.chapterId())) {
      return new Occupant(Occupant.Kind.THIS_CHAPTER, json.path("fingerprint").textValue(), folder, null);
    }
    return new Occupant(Occupant.Kind.OTHER, null, folder, source + "/" + titleId + " chapter " + chapterId);
  }

  /** Publishes a complete staging folder. */
  public Result publish(StagingFolder staging) throws IOException {
    if (!staging.complete()) {
      throw new IllegalStateException("staging " + staging.path() + " is not complete");
    }
    ChapterKey key = staging.key();
    Optional<Path> claimed = layout.claimSeries(key.source(), key.titleId(), key.seriesTitle());
    if (claimed.isEmpty()) {
      return Result.FOLDER_TAKEN;
    }
    Path series = claimed.get();
    Path target = series.resolve(LibraryLayout.chapterSlug(key.number(), key.chapterId()));
    if (Files.exists(target)) {
      Occupant occupant = occupant(target, key);
      if (occupant.kind() == Occupant.Kind.OTHER) {
        return Result.FOLDER_TAKEN;
      }
      return occupant.kind() == Occupant.Kind.THIS_CHAPTER && staging.fingerprint().equals(occupant.fingerprint())
          ? Result.ALREADY_PUBLISHED : Result.CONFLICT;
    }
    staging.writeFile(CHAPTER_JSON, chapterJson(staging));
    staging.writeFile("ComicInfo.xml", comicInfo(staging).getBytes(StandardCharsets.UTF_8));
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
