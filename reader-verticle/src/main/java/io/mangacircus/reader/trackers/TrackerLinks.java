package io.mangacircus.reader.trackers;

import io.mangacircus.reader.store.TrackerLink;
import java.time.Instant;

/** How a delivery changes a link: what the tracker showed, what was pushed, a pull offered, a refusal. No I/O. */
final class TrackerLinks {

  private TrackerLinks() {
  }

  /** The link with the list entry as the tracker showed it now (and its title, when the link had none). */
  static TrackerLink seen(TrackerLink l, RemoteEntry remote, Instant now) {
    TrackerEntry entry = remote.entry();
    return new TrackerLink(l.userId(), l.tracker(), l.series(), l.remoteId(),
        l.title().isEmpty() ? remote.title() : l.title(), l.automatic(), remote.listEntryId(), entry.progress(),
        entry.status().name(), entry.totalChapters(), l.lastPushAt(), now, l.lastError(), l.pullOffered(),
        l.linkedAt());
  }

  /** The link after a push went through: the tracker now holds it, nothing to offer, no error. */
  static TrackerLink pushed(TrackerLink l, SyncDecision.Push push, Instant now) {
    return new TrackerLink(l.userId(), l.tracker(), l.series(), l.remoteId(), l.title(), l.automatic(),
        l.listEntryId(), push.progress(), push.status().name(), l.totalChapters(), now, now, "", null, l.linkedAt());
  }

  /** The link in step with the tracker, offering its progress to take (null: nothing to offer). */
  static TrackerLink offered(TrackerLink l, Integer pull) {
    return new TrackerLink(l.userId(), l.tracker(), l.series(), l.remoteId(), l.title(), l.automatic(),
        l.listEntryId(), l.trackerProgress(), l.trackerStatus(), l.totalChapters(), l.lastPushAt(), l.lastSyncAt(),
        "", pull, l.linkedAt());
  }

  /** The link with what the tracker refused, for the profile page. */
  static TrackerLink failed(TrackerLink l, String error) {
    return new TrackerLink(l.userId(), l.tracker(), l.series(), l.remoteId(), l.title(), l.automatic(),
        l.listEntryId(), l.trackerProgress(), l.trackerStatus(), l.totalChapters(), l.lastPushAt(), l.lastSyncAt(),
        error, l.pullOffered(), l.linkedAt());
  }
}
