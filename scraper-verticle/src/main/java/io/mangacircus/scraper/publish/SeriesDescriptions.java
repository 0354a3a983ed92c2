package io.mangacircus.scraper.publish;

import io.mangacircus.contracts.library.SourceSeriesMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps what a source says about each title ({@link SourceSeriesMetadata}) in the title's series folder: written when
 * an inspection finds the folder already the title's, else held until the title's first publication claims it (an
 * inspection never creates a series folder, so a title without chapters leaves no trace in the library). The file is
 * rewritten only when its content changes. Held metadata lives in memory: after a restart it is written at the
 * title's next inspection.
 */
public final class SeriesDescriptions {

  private final LibraryFolders library;
  private final Map<LibraryFolders.Owner, SourceSeriesMetadata> held = new ConcurrentHashMap<>();

  public SeriesDescriptions(LibraryFolders library) {
    this.library = library;
  }

  /**
   * An inspection of {@code source}'s title {@code titleId}, named {@code seriesTitle}, read {@code metadata} (null
   * when the source describes nothing, which changes nothing).
   */
  public void inspected(String source, String titleId, String seriesTitle, SourceSeriesMetadata metadata)
      throws IOException {
    if (metadata == null) {
      return;
    }
    LibraryFolders.Owner owner = new LibraryFolders.Owner(source, titleId);
    SourceSeriesMetadata own = new SourceSeriesMetadata(SourceSeriesMetadata.SCHEMA, source, titleId,
        metadata.title(), metadata.summary(), metadata.authors(), metadata.genres(), metadata.tags(),
        metadata.status(), metadata.year(), metadata.originalLanguage(), metadata.links());
    Path folder = library.series(source, titleId, seriesTitle);
    if (library.standing(folder, owner) == LibraryFolders.Standing.OWN) {
      held.remove(owner);
      write(folder, own);
    } else {
      held.put(owner, own);
    }
  }

  /** The title's series folder was claimed for a publication: what is held for it is written there. */
  public void claimed(Path folder, String source, String titleId) throws IOException {
    SourceSeriesMetadata metadata = held.remove(new LibraryFolders.Owner(source, titleId));
    if (metadata != null) {
      write(folder, metadata);
    }
  }

  /**
   * What a series folder keeps of its source's metadata, or null when it keeps nothing usable (a chapter is then
   * published without it: the file is the scraper's own, rewritten at the next inspection).
   */
  public static SourceSeriesMetadata kept(Path folder) {
    try {
      return SourceSeriesMetadata.read(folder);
    } catch (IOException | SourceSeriesMetadata.InvalidException e) {
      return null;
    }
  }

  private static void write(Path folder, SourceSeriesMetadata metadata) throws IOException {
    byte[] content = metadata.bytes();
    Path file = folder.resolve(SourceSeriesMetadata.FILE);
    if (Files.isRegularFile(file) && Files.size(file) == content.length
        && Arrays.equals(Files.readAllBytes(file), content)) {
      return;
    }
    metadata.write(folder);
  }
}
