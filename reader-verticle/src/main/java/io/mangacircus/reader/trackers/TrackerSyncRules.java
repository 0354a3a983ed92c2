package io.mangacircus.reader.trackers;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Decides, for one user's series on one tracker, whether to push our progress, pull the tracker's, wait, or do
 * nothing. Follows Mihon (mihonapp/mihon, {@code app/src/main/java/eu/kanade/}): {@code domain/track/interactor/
 * TrackChapter.kt} sends only a chapter beyond the tracker's {@code lastChapterRead}, so a list never goes back;
 * {@code domain/track/interactor/SyncChapterProgressWithTrack.kt} marks local chapters read up to a tracker that is
 * ahead; {@code tachiyomi/data/track/anilist/Anilist.kt} (and the same {@code update(track, didReadChapter)} in
 * {@code kitsu/Kitsu.kt}, {@code myanimelist/MyAnimeList.kt}, {@code mangaupdates/MangaUpdates.kt}) leaves a
 * COMPLETED entry alone, marks it COMPLETED when the progress equals a known total, else READING unless REREADING.
 * Scores and dates are never decided here. No I/O, no Vert.x; the caller keeps when it last pushed.
 */
public final class TrackerSyncRules {

  /** At most one push per series, tracker and user in this time; a later change waits and the latest state wins. */
  public static final Duration COALESCE = Duration.ofMinutes(1);

  private final InstantSource clock;

  public TrackerSyncRules(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * The one thing to do now.
   *
   * @param ours the user's completed chapters of the series
   * @param tracker the tracker's entry as last fetched
   * @param lastPush when a push for this user, tracker and series last went out, or null when none has
   */
  public SyncDecision decide(SeriesReading ours, TrackerEntry tracker, Instant lastPush) {
    OptionalInt read = ours.wholeChapters();
    if (tracker.progress() > read.orElse(0)) {
      // never lower a list: the user read further elsewhere, so our chapters may follow it instead
      return new SyncDecision.Pull(tracker.progress());
    }
    if (read.isEmpty() || read.getAsInt() == tracker.progress()) {
      return new SyncDecision.Nothing();
    }
    Instant now = clock.instant();
    if (lastPush != null) {
      Instant next = lastPush.plus(COALESCE);
      if (now.isBefore(next)) {
        return new SyncDecision.Wait(next);
      }
    }
    return new SyncDecision.Push(read.getAsInt(), status(tracker, read.getAsInt()));
  }

  /**
   * The status sent with a progress: a completed entry stays completed (a reread of a finished series is the user's
   * call on the tracker); reaching the known total completes it (Mihon compares equality, we take "at least" so a
   * bonus chapter past the count still completes); else reading, unless the user marked a reread.
   */
  private static TrackerStatus status(TrackerEntry tracker, int progress) {
    if (tracker.status() == TrackerStatus.COMPLETED || tracker.finishedAt(progress)) {
      return TrackerStatus.COMPLETED;
    }
    return tracker.status() == TrackerStatus.REREADING ? TrackerStatus.REREADING : TrackerStatus.READING;
  }
}
