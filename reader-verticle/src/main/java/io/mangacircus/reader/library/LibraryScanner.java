package io.mangacircus.reader.library;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads the published library ({@code data/library/<series>/<chapter>/chapter.json}) read-only; hidden folders
 * (staging) and chapters without a readable {@code chapter.json} are skipped.
 */
public final class LibraryScanner {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private LibraryScanner() {
  }

  /** Every series with at least one published chapter, by title. */
  public static List<SeriesEntry> scan(Path library) {
    List<SeriesEntry> series = new ArrayList<>();
    try (Stream<Path> folders = Files.list(library)) {
      for (Path folder : folders.filter(Files::isDirectory).filter(p -> !p.getFileName().toString().startsWith("."))
          .toList()) {
        seriesOf(folder).ifPresent(series::add);
      }
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the library " + library + ": " + e.getMessage(), e);
    }
    series.sort(Comparator.comparing(SeriesEntry::title, String.CASE_INSENSITIVE_ORDER));
    return series;
  }

  private static java.util.Optional<SeriesEntry> seriesOf(Path folder) throws IOException {
    String title = null;
    String source = null;
    String titleId = null;
    int chapters = 0;
    Instant newest = Instant.EPOCH;
    try (Stream<Path> chapterFolders = Files.list(folder)) {
      for (Path chapter : chapterFolders.filter(Files::isDirectory).toList()) {
        JsonNode json;
        try {
          json = MAPPER.readTree(Files.readString(chapter.resolve("chapter.json")));
        } catch (IOException e) {
          continue;
        }
        chapters++;
        title = title == null ? json.path("series").asText(folder.getFileName().toString()) : title;
        source = source == null ? json.path("source").asText("") : source;
        titleId = titleId == null ? json.path("titleId").asText("") : titleId;
        try {
          Instant published = Instant.parse(json.path("publishedAt").asText());
          newest = published.isAfter(newest) ? published : newest;
        } catch (DateTimeParseException e) {
          // A chapter without a publication time still counts; it just does not move "recently updated".
        }
      }
    }
    return chapters == 0 ? java.util.Optional.empty()
        : java.util.Optional.of(new SeriesEntry(folder.getFileName().toString(), title, source, titleId, chapters,
            newest));
  }
}
