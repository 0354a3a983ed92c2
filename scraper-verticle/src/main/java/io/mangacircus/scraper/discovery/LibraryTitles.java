package io.mangacircus.scraper.discovery;

import io.mangacircus.contracts.library.ChapterManifest;
import io.mangacircus.contracts.library.LibraryLayout;
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

  private LibraryTitles() {
  }

  /** A fresh scan (blocking): every distinct source and title id of a published chapter. */
  public static Set<Title> scan(Path library) {
    return scan(library, () -> false);
  }

  /** As {@link #scan(Path)}, ending early (with the titles found so far) once {@code stopped} says so. */
  public static Set<Title> scan(Path library, java.util.function.BooleanSupplier stopped) {
    Set<Title> titles = new LinkedHashSet<>();
    try (Stream<Path> series = Files.list(library)) {
      for (Path folder : series.filter(Files::isDirectory)
          .filter(p -> !LibraryLayout.isPrivate(p.getFileName().toString()))
          .sorted().toList()) {
        if (stopped.getAsBoolean()) {
          return titles;
        }
        try (Stream<Path> chapters = Files.list(folder)) {
          for (Path chapter : chapters.filter(Files::isDirectory).toList()) {
            try {
              ChapterManifest manifest = ChapterManifest.read(chapter);
              if (manifest.hasOrigin()) {
                titles.add(new Title(manifest.source(), manifest.titleId(),
                    manifest.series().isEmpty() ? manifest.titleId() : manifest.series()));
              }
            } catch (IOException | ChapterManifest.InvalidException e) {
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
