package io.mangacircus.reader.trackers;

import io.mangacircus.contracts.library.SourceSeriesMetadata;
import io.mangacircus.reader.library.LibraryFiles;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trackers' ids of a downloaded series as its source gave them (MangaDex's {@code links}: AniList, MyAnimeList,
 * MangaUpdates, Kitsu), from the source metadata file the scraper keeps in the series' folder. Blocking file read.
 */
public final class SourceTrackerIds {

  private static final Logger LOG = LoggerFactory.getLogger(SourceTrackerIds.class);

  private final LibraryFiles files;

  public SourceTrackerIds(LibraryFiles files) {
    this.files = files;
  }

  /** Tracker id (such as {@code anilist}) to the series' id there; empty when the source named none. */
  public Map<String, String> of(String series) {
    if (!LibraryFiles.validId(series) || files.inCollection(series)) {
      return Map.of();
    }
    SourceSeriesMetadata metadata;
    try {
      metadata = SourceSeriesMetadata.read(files.seriesFolder(series));
    } catch (NoSuchFileException e) {
      return Map.of();
    } catch (IOException | SourceSeriesMetadata.InvalidException e) {
      LOG.debug("[TRACKERS] no source ids for {}: {}", series, e.getMessage());
      return Map.of();
    }
    Map<String, String> ids = new LinkedHashMap<>();
    for (SourceSeriesMetadata.Link link : metadata.links()) {
      if (link.id() != null && !link.id().isBlank()) {
        ids.putIfAbsent(link.site(), link.id().trim());
      }
    }
    return ids;
  }
}
