package io.mangacircus.reader.trackers;

/**
 * A tracker list entry's status in the words every tracker has (AniList's, which Mihon's trackers map to); each
 * tracker client maps its own names to these.
 */
public enum TrackerStatus {
  PLAN_TO_READ,
  READING,
  COMPLETED,
  ON_HOLD,
  DROPPED,
  REREADING
}
