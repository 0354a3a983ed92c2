package io.mangacircus.scraper.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Stream;

/** Reads which titles the published library holds and where they came from (each chapter's {@code chapter.json}). */
public final class LibraryTitles {

  /** A title in the library with its source. */
  public record Title(String source, String titleId, String series) {
  }

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private LibraryTitles() {
  }

  /** A fresh scan (blocking): every distinct source and title id of a published chapter. */
  public static Set<Title> scan(Path library) {
    Set<Title> titles = new LinkedHashSet<>();
    try (Stream<Path> series = Files.list(library)) {
      for (Path folder : series.filter(Files::isDirectory).filter(p -> !p.getFileName().toString().startsWith("."))
          .sorted().toList()) {
        try (Stream<Path> chapters = Files.list(folder)) {
          for (Path chapter : chapters.filter(Files::isDirectory).toList()) {
            try {
              JsonNode json = MAPPER.readTree(Files.readString(chapter.resolve("chapter.json")));
              String source = json.path("source").asText("");
              String titleId = json.path("titleId").asText("");
              if (!source.isEmpty() && !titleId.isEmpty()) {
                titles.add(new Title(source, titleId, json.path("series").asText(titleId)));
              }
            } catch (IOException e) {
              // not a published chapter
            }
          }
        }
      }
    } catch (NoSuchFileException e) {
      return Set.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the library " + library + ": " + e.getMessage(), e);
    }
    return titles;
  }
}
