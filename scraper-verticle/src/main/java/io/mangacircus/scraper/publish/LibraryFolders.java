package io.mangacircus.scraper.publish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.DurableFiles;
import io.mangacircus.contracts.library.ChapterManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where chapters live on the file system: {@code library/<series>/<chapter>/} for published ones and
 * {@code library/.staging-mcscraper-resume-<fingerprint>/} for unfinished ones, named by the library's rules shared with
 * the reader ({@link io.mangacircus.contracts.library.LibraryLayout}); this class adds which series folder a title owns
 * and claiming it. A source may have a series-folder
 * prefix ({@code library/mangapill-<series>/}); staging folder names never change (recovery finds them by
 * fingerprint). A series folder belongs to one title of one source (docs/downloads.md, "Series folders"): a name
 * another title holds gives this title the next candidate name, never a shared folder.
 */
public final class LibraryFolders {

  /** Prefix of staging folders; anything else starting with a dot is not ours. */
  public static final String STAGING_PREFIX = io.mangacircus.contracts.library.LibraryLayout.STAGING_PREFIX;

  /** The file in a series folder naming the title it belongs to: {@code {"source", "titleId", "series"}}. */
  public static final String SERIES_MARKER = io.mangacircus.contracts.library.LibraryLayout.SERIES_MARKER;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** The title a series folder belongs to. */
  public record Owner(String source, String titleId) {
  }

  /** What a series folder is to a title: free to take, its own, or another's (an unknown owner included). */
  public enum Standing { FREE, OWN, TAKEN }

  private final Path root;
  private final Map<String, String> seriesPrefixes;

  public LibraryFolders(Path root) {
    this(root, Map.of());
  }

  /**
   * @param seriesPrefixes by source name, text put before the series folder name of that source's chapters (an HTML
   *     definition's {@code seriesFolderPrefix}, e.g. {@code mangapill-}); sources without one are left out
   */
  public LibraryFolders(Path root, Map<String, String> seriesPrefixes) {
    seriesPrefixes.forEach(io.mangacircus.contracts.library.LibraryLayout::requirePrefix);
    this.root = root;
    this.seriesPrefixes = Map.copyOf(seriesPrefixes);
  }

  /** {@code data/library}. */
  public Path root() {
    return root;
  }

  /** The staging folder of a chapter fingerprint. */
  public Path staging(String fingerprint) {
    return root.resolve(io.mangacircus.contracts.library.LibraryLayout.stagingName(fingerprint));
  }

  /** The published folder of a chapter (in its title's series folder, see {@link #series}). */
  public Path chapter(ChapterKey key) {
    return series(key.source(), key.titleId(), key.seriesTitle())
        .resolve(io.mangacircus.contracts.library.LibraryLayout.chapterSlug(key.number(), key.chapterId()));
  }

  /**
   * The series folder of a title of a source, read from the library: the first candidate name
   * ({@link #seriesCandidates}) the title already owns, else the first free one, else the last candidate (which then
   * cannot be claimed: publication reports the folder as taken).
   */
  public Path series(String source, String titleId, String seriesTitle) {
    List<String> candidates = seriesCandidates(source, titleId, seriesTitle);
    Owner me = new Owner(source, titleId);
    Path free = null;
    for (String name : candidates) {
      Path folder = root.resolve(name);
      Standing standing = standing(folder, me);
      if (standing == Standing.OWN) {
        return folder;
      }
      if (standing == Standing.FREE && free == null) {
        free = folder;
      }
    }
    return free != null ? free : root.resolve(candidates.get(candidates.size() - 1));
  }

  /** The folder names a title may get, in order (the library's naming rule, see {@code contracts.library.LibraryLayout}). */
  public List<String> seriesCandidates(String source, String titleId, String seriesTitle) {
    return io.mangacircus.contracts.library.LibraryLayout.seriesCandidates(seriesPrefixes.getOrDefault(source, ""), source, titleId, seriesTitle);
  }

  /**
   * Makes the title's series folder exist and carry its {@link #SERIES_MARKER} (written for a folder that had none),
   * so the name stays the title's across restarts. Synchronized: two lanes never take the same free name.
   *
   * @return the folder, or empty when every candidate belongs to something else
   */
  public synchronized Optional<Path> claimSeries(String source, String titleId, String seriesTitle)
      throws IOException {
    Path folder = series(source, titleId, seriesTitle);
    Standing standing = standing(folder, new Owner(source, titleId));
    if (standing == Standing.TAKEN) {
      return Optional.empty();
    }
    DurableFiles.createDirectories(folder);
    if (!Files.exists(folder.resolve(SERIES_MARKER))) {
      AtomicFiles.write(folder.resolve(SERIES_MARKER), MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(
          MAPPER.createObjectNode().put("source", source).put("titleId", titleId).put("series", seriesTitle)));
    }
    return Optional.of(folder);
  }

  /**
   * Whose a series folder is: its {@link #SERIES_MARKER}; without one (folders published before markers existed),
   * the source and title id of its first readable {@code chapter.json} in folder-name order. A missing or empty
   * folder is free; one with other content or an unreadable marker belongs to someone unknown (taken).
   */
  public Standing standing(Path folder, Owner me) {
    if (!Files.exists(folder)) {
      return Standing.FREE;
    }
    if (!Files.isDirectory(folder)) {
      return Standing.TAKEN;
    }
    Optional<Owner> owner;
    try {
      owner = owner(folder);
      if (owner.isEmpty()) {
        try (Stream<Path> entries = Files.list(folder)) {
          return entries.findAny().isEmpty() ? Standing.FREE : Standing.TAKEN;
        }
      }
    } catch (IOException e) {
      return Standing.TAKEN;
    }
    return owner.get().equals(me) ? Standing.OWN : Standing.TAKEN;
  }

  private static Optional<Owner> owner(Path folder) throws IOException {
    Path marker = folder.resolve(SERIES_MARKER);
    if (Files.exists(marker)) {
      Owner owner = ownerIn(MAPPER.readTree(Files.readString(marker, StandardCharsets.UTF_8)));
      if (owner == null) {
        throw new IOException(marker + " names no source and title id");
      }
      return Optional.of(owner);
    }
    try (Stream<Path> chapters = Files.list(folder)) {
      for (Path chapter : chapters.filter(Files::isDirectory).sorted().toList()) {
        try {
          ChapterManifest manifest = ChapterManifest.read(chapter);
          if (manifest.hasOrigin()) {
            return Optional.of(new Owner(manifest.source(), manifest.titleId()));
          }
        } catch (NoSuchFileException e) {
          // not a published chapter
        } catch (IOException | ChapterManifest.InvalidException e) {
          // unreadable: the next chapter may say
        }
      }
    }
    return Optional.empty();
  }

  private static Owner ownerIn(JsonNode json) {
    String source = json.path("source").textValue();
    String titleId = json.path("titleId").textValue();
    return source == null || source.isEmpty() || titleId == null || titleId.isEmpty() ? null
        : new Owner(source, titleId);
  }
}
