package io.mangacircus.reader.finder;

import io.mangacircus.contracts.library.ChapterManifest;
import io.mangacircus.contracts.library.LibraryLayout;
import io.mangacircus.reader.library.SeriesEntry;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which chapters of one source title the library already holds, read from the {@code chapter.json} of every chapter
 * folder of the series that name that source and title id: a preview chapter is held when a manifest has its chapter
 * id, or its number in its language (another group's upload of the same chapter). Blocking; reads, never writes.
 */
public final class LibraryHoldings {

  private final Set<String> chapterIds = new HashSet<>();
  private final Set<String> numbers = new HashSet<>();

  private LibraryHoldings() {
  }

  /** Nothing held. */
  public static LibraryHoldings none() {
    return new LibraryHoldings();
  }

  /**
   * Reads the manifests of {@code source}/{@code titleId}'s series under {@code library}; a chapter folder whose
   * manifest cannot be read is passed over (the library lists it nowhere either).
   */
  public static LibraryHoldings of(Path library, List<SeriesEntry> series, String source, String titleId) {
    LibraryHoldings holdings = new LibraryHoldings();
    for (SeriesEntry entry : series) {
      if (!source.equals(entry.source()) || !titleId.equals(entry.titleId())) {
        continue;
      }
      Path folder = library.resolve(entry.id()).normalize();
      if (!folder.startsWith(library.normalize()) || !Files.isDirectory(folder)) {
        continue;
      }
      try (DirectoryStream<Path> chapters = Files.newDirectoryStream(folder)) {
        for (Path chapter : chapters) {
          if (LibraryLayout.isPrivate(chapter.getFileName().toString()) || !Files.isDirectory(chapter)) {
            continue;
          }
          try {
            ChapterManifest manifest = ChapterManifest.read(chapter);
            if (!manifest.source().isEmpty() && !manifest.source().equals(source)) {
              continue;
            }
            if (!manifest.chapterId().isEmpty()) {
              holdings.chapterIds.add(manifest.chapterId());
            }
            holdings.numbers.add(numberKey(manifest.number(), manifest.language()));
          } catch (IOException | ChapterManifest.InvalidException e) {
            // not a published chapter: the reader does not list it either
          }
        }
      } catch (IOException e) {
        // a series folder that cannot be listed holds nothing we can show
      }
    }
    return holdings;
  }

  /** Whether the library has this chapter: its id, or its number in its language. */
  public boolean has(String chapterId, String number, String language) {
    return chapterId != null && chapterIds.contains(chapterId)
        || number != null && !number.isBlank() && numbers.contains(numberKey(number, language));
  }

  /** "1", "1.0" and "01" are the same chapter number; the language compared without case. */
  static String numberKey(String number, String language) {
    String n = number == null ? "" : number.strip();
    try {
      n = new BigDecimal(n).stripTrailingZeros().toPlainString();
    } catch (NumberFormatException e) {
      n = n.toLowerCase(Locale.ROOT);
    }
    return n + "|" + (language == null ? "" : language.strip().toLowerCase(Locale.ROOT));
  }
}
