package io.mangacircus.reader.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A user's series linked to a series on a tracker, with what the tracker last said of the user's list entry and how the
 * last sync went.
 *
 * @param remoteId the tracker's id of the series
 * @param title the tracker's title of it, for the profile page
 * @param automatic true when linked from the source's own link to the tracker, false when the user picked it
 * @param listEntryId the tracker's id of the user's list entry, when the tracker has one and it exists
 * @param trackerProgress the whole chapters read on the tracker when last read from it; null before any sync
 * @param trackerStatus its status then (a {@code TrackerStatus} name); null before any sync
 * @param totalChapters the series' chapter count on the tracker; null when unknown
 * @param lastPushAt when progress was last sent to the tracker; null when never
 * @param lastSyncAt when the tracker last answered for this link; null when never
 * @param lastError what went wrong in the last try, in words for the user; empty when it went well
 * @param pullOffered a tracker progress ahead of ours that the user may take ("mark read up to"); null when none
 */
public record TrackerLink(long userId, String tracker, String series, String remoteId, String title, boolean automatic,
    String listEntryId, Integer trackerProgress, String trackerStatus, Integer totalChapters, Instant lastPushAt,
    Instant lastSyncAt, String lastError, Integer pullOffered, Instant linkedAt) {

  public TrackerLink {
    Objects.requireNonNull(tracker, "tracker");
    Objects.requireNonNull(series, "series");
    Objects.requireNonNull(remoteId, "remoteId");
    title = title == null ? "" : title;
    lastError = lastError == null ? "" : lastError;
    Objects.requireNonNull(linkedAt, "linkedAt");
  }

  /** A new link, nothing synced yet. */
  public static TrackerLink of(long userId, String tracker, String series, String remoteId, String title,
      boolean automatic, Instant now) {
    return new TrackerLink(userId, tracker, series, remoteId, title, automatic, null, null, null, null, null, null, "",
        null, now);
  }
}
