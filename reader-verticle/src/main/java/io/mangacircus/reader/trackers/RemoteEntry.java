package io.mangacircus.reader.trackers;

import java.util.Objects;

/**
 * A series on a tracker and the user's list entry for it as last read from the tracker.
 *
 * @param remoteId the tracker's id of the series
 * @param listEntryId the tracker's id of the user's list entry (AniList's and Kitsu's library entry id); null when the
 *     series is not on the user's list, or when the tracker addresses entries by series (MyAnimeList, MangaUpdates)
 *     and it is not listed
 * @param listed whether the series is on the user's list
 * @param title the series' title on the tracker, for the profile page; may be empty
 */
public record RemoteEntry(String remoteId, String listEntryId, boolean listed, TrackerEntry entry, String title) {

  public RemoteEntry {
    Objects.requireNonNull(remoteId, "remoteId");
    Objects.requireNonNull(entry, "entry");
    title = title == null ? "" : title;
  }
}
