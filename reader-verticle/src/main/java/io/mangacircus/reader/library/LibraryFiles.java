package io.mangacircus.reader.library;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Read-only, traversal-proof access to published chapters: ids must be plain folder names, every folder and page is
 * resolved to its real path and must stay inside the library (symlinks included), and chapter manifests are cached
 * because a published chapter never changes. Blocking: call it off the event loop, except {@link #cached}.
 */
public final class LibraryFiles {

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,159}");
  private static final Pattern PAGE_FILE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
  private static final int CACHE_LIMIT = 4096;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** No published series or chapter by that id. */
  public static final class NotFoundException extends RuntimeException {
    public NotFoundException(String message) {
      super(message, null, false, false);
    }
  }

  /** One page file of a published chapter, already resolved inside the library. */
  public record Page(int index, Path file, String sha256, String mediaType) {
  }

  /** A published chapter as its {@code chapter.json} describes it. */
  public record Chapter(String seriesId, String id, String seriesTitle, String source, String titleId, String number,
      String title, Instant publishedAt, List<Page> pages) {
    public Chapter {
      pages = List.copyOf(pages);
    }
  }

  private final Path root;
  private final Map<String, Chapter> manifests = new ConcurrentHashMap<>();
  private volatile Path realRoot;

  public LibraryFiles(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** Whether {@code id} can name a series or chapter folder: no separators, no dot segments, no leading dot. */
  public static boolean validId(String id) {
    return id != null && ID.matcher(id).matches() && !id.contains("..");
  }

  /** The chapter if its manifest was read before; never touches the disk. */
  public Optional<Chapter> cached(String seriesId, String chapterId) {
    return Optional.ofNullable(manifests.get(seriesId + "/" + chapterId));
  }

  /** Every readable published chapter of a series, by number. */
  public List<Chapter> chapters(String seriesId) {
    Path series = inside(root.resolve(requireId(seriesId)), "series " + seriesId);
    List<Chapter> chapters = new ArrayList<>();
    try (Stream<Path> folders = Files.list(series)) {
      for (Path folder : folders.filter(Files::isDirectory).toList()) {
        String id = folder.getFileName().toString();
        if (validId(id)) {
          try {
            chapters.add(chapter(seriesId, id));
          } catch (NotFoundException e) {
            // a folder without a readable chapter.json is not a published chapter
          }
        }
      }
    } catch (NoSuchFileException e) {
      throw new NotFoundException("no series " + seriesId);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read series " + seriesId + ": " + e.getMessage(), e);
    }
    if (chapters.isEmpty()) {
      throw new NotFoundException("no published chapter in series " + seriesId);
    }
    chapters.sort(Comparator.comparing((Chapter c) -> numberOf(c.number()), Comparator.nullsLast(Comparator
        .naturalOrder())).thenComparing(Chapter::id));
    return chapters;
  }

  /** One published chapter. */
  public Chapter chapter(String seriesId, String chapterId) {
    String key = requireId(seriesId) + "/" + requireId(chapterId);
    Chapter known = manifests.get(key);
    if (known != null) {
      return known;
    }
    Chapter read = read(seriesId, chapterId);
    if (manifests.size() >= CACHE_LIMIT) {
      manifests.clear();
    }
    manifests.put(key, read);
    return read;
  }

  private Chapter read(String seriesId, String chapterId) {
    Path folder = inside(root.resolve(seriesId).resolve(chapterId), "chapter " + seriesId + "/" + chapterId);
    JsonNode json;
    try {
      json = MAPPER.readTree(Files.readString(folder.resolve("chapter.json")));
    } catch (IOException e) {
      throw new NotFoundException("chapter " + seriesId + "/" + chapterId + " has no readable chapter.json");
    }
    List<Page> pages = new ArrayList<>();
    for (JsonNode page : json.path("pages")) {
      String file = page.path("file").asText("");
      if (!PAGE_FILE.matcher(file).matches()) {
        throw new NotFoundException("chapter " + seriesId + "/" + chapterId + " names an unusable page file");
      }
      Path resolved = inside(folder.resolve(file), "page " + file);
      if (!Files.isRegularFile(resolved)) {
        throw new NotFoundException("chapter " + seriesId + "/" + chapterId + " misses page " + file);
      }
      pages.add(new Page(pages.size() + 1, resolved, page.path("sha256").asText(""), mediaType(file)));
    }
    if (pages.isEmpty()) {
      throw new NotFoundException("chapter " + seriesId + "/" + chapterId + " has no pages");
    }
    Instant published = null;
    try {
      published = Instant.parse(json.path("publishedAt").asText());
    } catch (DateTimeParseException e) {
      // shown without a date
    }
    return new Chapter(seriesId, chapterId, json.path("series").asText(seriesId), json.path("source").asText(""),
        json.path("titleId").asText(""), json.path("number").asText(""), json.path("title").asText(""), published,
        pages);
  }

  /** The real path of {@code path}, which must exist and lie inside the library's real path. */
  private Path inside(Path path, String what) {
    try {
      Path real = path.toRealPath();
      if (!real.startsWith(realRoot())) {
        throw new NotFoundException("no " + what); // not said why: the layout outside stays private
      }
      return real;
    } catch (NoSuchFileException e) {
      throw new NotFoundException("no " + what);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot resolve " + what + ": " + e.getMessage(), e);
    }
  }

  private Path realRoot() throws IOException {
    Path known = realRoot;
    if (known == null) {
      try {
        known = root.toRealPath();
      } catch (NoSuchFileException e) {
        throw new NoSuchFileException("the library folder " + root + " does not exist yet");
      }
      realRoot = known;
    }
    return known;
  }

  private static String requireId(String id) {
    if (!validId(id)) {
      throw new IllegalArgumentException("not a library id: " + id);
    }
    return id;
  }

  private static BigDecimal numberOf(String number) {
    try {
      return new BigDecimal(number.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The content type of a page file by its extension. */
  public static String mediaType(String file) {
    String name = file.toLowerCase(Locale.ROOT);
    if (name.endsWith(".png")) {
      return "image/png";
    }
    if (name.endsWith(".webp")) {
      return "image/webp";
    }
    if (name.endsWith(".gif")) {
      return "image/gif";
    }
    if (name.endsWith(".avif")) {
      return "image/avif";
    }
    return "image/jpeg";
  }
}
