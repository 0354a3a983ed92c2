package io.mangacircus.reader.finder;

import io.mangacircus.reader.library.SeriesEntry;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which search results the library already has as a series: a result matches the downloads series that came from the
 * same source and title id (a collection's series have no source title, so none matches).
 */
public final class LibraryMatches {

  private final Map<String, String> seriesByTitle = new HashMap<>();

  private LibraryMatches(List<SeriesEntry> series) {
    for (SeriesEntry entry : series) {
      if (SeriesEntry.DOWNLOADS.equals(entry.library()) && entry.source() != null && entry.titleId() != null) {
        seriesByTitle.putIfAbsent(key(entry.source(), entry.titleId()), entry.id());
      }
    }
  }

  /** The matches among these series (the inventory's list). */
  public static LibraryMatches of(List<SeriesEntry> series) {
    return new LibraryMatches(series);
  }

  /** The library's series id of this source title, if the library has it. */
  public Optional<String> seriesId(String source, String titleId) {
    if (source == null || titleId == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(seriesByTitle.get(key(source, titleId)));
  }

  /** The library's own cover of a series: served from the disk, so shown even when the source cannot be reached. */
  public static String coverPath(String seriesId) {
    return "/api/series/" + URLEncoder.encode(seriesId, StandardCharsets.UTF_8).replace("+", "%20") + "/cover";
  }

  private static String key(String source, String titleId) {
    return source + '\u0000' + titleId;
  }
}
