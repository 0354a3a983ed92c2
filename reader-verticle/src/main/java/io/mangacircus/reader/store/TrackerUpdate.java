package io.mangacircus.reader.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One pending update in the tracker outbox: "bring this user's series on this tracker in step", at most one per
 * (user, tracker, series). It carries no progress: the progress sent is the user's reading when it is delivered, so
 * repeated readings coalesce into the latest.
 *
 * @param due not tried before this
 * @param attempts failed tries so far (for the backoff)
 * @param version raised by every new request for the same (user, tracker, series), so a delivery finishing after a
 *     newer request removes only what it delivered
 * @param lastError what the last try met, empty when none
 */
public record TrackerUpdate(long userId, String tracker, String series, Instant due, int attempts, long version,
    String lastError, Instant createdAt) {

  public TrackerUpdate {
    Objects.requireNonNull(tracker, "tracker");
    Objects.requireNonNull(series, "series");
    Objects.requireNonNull(due, "due");
    lastError = lastError == null ? "" : lastError;
    Objects.requireNonNull(createdAt, "createdAt");
  }
}
