package io.mangacircus.reader.trackers;

import java.util.List;
import java.util.Objects;

/**
 * A series a tracker's search found, as the link dialog shows it.
 *
 * @param totalChapters null when the tracker does not know it
 * @param coverUrl the tracker's cover address, or empty
 * @param url the series' page on the tracker, or empty
 */
public record TrackerCandidate(String remoteId, String title, List<String> alternativeTitles, String format,
    Integer year, Integer totalChapters, String coverUrl, String url) {

  public TrackerCandidate {
    Objects.requireNonNull(remoteId, "remoteId");
    title = title == null ? "" : title;
    alternativeTitles = alternativeTitles == null ? List.of() : List.copyOf(alternativeTitles);
    format = format == null ? "" : format;
    coverUrl = coverUrl == null ? "" : coverUrl;
    url = url == null ? "" : url;
  }
}
