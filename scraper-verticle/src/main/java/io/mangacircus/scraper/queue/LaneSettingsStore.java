package io.mangacircus.scraper.queue;

import io.mangacircus.scraper.failure.FailureAction;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The lanes' run-time settings (paused and why, pacing set by the operator), kept in {@code queue.json} so they
 * survive a restart, and the memory-pressure yield, which does not: whether and how fast each lane may work.
 */
public final class LaneSettingsStore {

  private final QueueJournal journal;
  private final Set<String> sources;
  private final IncidentStore incidents;
  private final Map<String, LaneSettings> lanes = new HashMap<>();
  private volatile String yieldReason;

  LaneSettingsStore(QueueJournal journal, Set<String> sources, IncidentStore incidents,
      Map<String, LaneSettings> loaded) {
    this.journal = journal;
    this.sources = sources;
    this.incidents = incidents;
    lanes.putAll(loaded);
  }

  /** The run-time settings of a source's lane. */
  public LaneSettings lane(String source) {
    return journal.locked(() -> current(source));
  }

  /** Pauses a source's lane: its active job stops at the next checkpoint and nothing new is claimed. */
  public void pause(String source, String why) {
    update(source, s -> s.paused(why), new JsonObject().put("paused", true).put("reason", why));
  }

  /** Resumes a lane and clears the incidents that paused it (and those that paused every lane). */
  public void resume(String source) {
    journal.locked(() -> {
      incidents.resolve(i -> source.equals(i.source()) && i.jobId() == null
          || source.equals(i.source()) && FailureAction.PAUSE_LANE.description().equals(i.action())
          || FailureAction.PAUSE_ALL.description().equals(i.action()));
      update(source, LaneSettings::resumed, new JsonObject().put("paused", false));
    });
  }

  /** Pauses every lane (storage failures): nothing downloads until the operator resumes the lanes. */
  public void pauseAll(String why) {
    journal.locked(() -> {
      for (String source : sources) {
        lanes.put(source, current(source).paused(why));
      }
      journal.commit("lane.settings", new JsonObject().put("source", "*").put("paused", true).put("reason", why));
    });
  }

  /** Changes a lane's pacing at run time; null keeps the configured default. */
  public void pacing(String source, Long pageDelayMs, Long chapterDelayMs) {
    update(source, s -> s.withPacing(pageDelayMs, chapterDelayMs),
        new JsonObject().put("pageDelayMs", pageDelayMs).put("chapterDelayMs", chapterDelayMs));
  }

  /**
   * No request to the source before {@code until}: kept in {@code queue.json}, so neither an operator's resume nor a
   * restart sends sooner; the lane claims nothing until then. A hold that ends sooner than the one in force changes
   * nothing.
   */
  public void hold(String source, Instant until, String why) {
    journal.locked(() -> {
      LaneSettings now = current(source);
      if (now.holdUntil() == null || until.isAfter(now.holdUntil())) {
        update(source, s -> s.held(until, why), new JsonObject().put("holdUntil", until.toString())
            .put("holdReason", why));
      }
    });
  }

  /** Memory-pressure yield (not persisted): while set, no lane claims work and active jobs stop. Null lifts it. */
  public void yieldDownloads(String reason) {
    yieldReason = reason;
  }

  /** Why downloads yield right now, or null. */
  public String yieldReason() {
    return yieldReason;
  }

  /** Whether a source's lane may claim work at {@code now}: not paused, no yield, no hold. Under the lock. */
  boolean mayClaim(String source, Instant now) {
    LaneSettings lane = current(source);
    return !lane.paused() && yieldReason == null && !lane.holding(now);
  }

  private void update(String source, UnaryOperator<LaneSettings> change, JsonObject event) {
    journal.locked(() -> {
      lanes.put(source, change.apply(current(source)));
      journal.commit("lane.settings", event.put("source", source));
    });
  }

  private LaneSettings current(String source) {
    return lanes.getOrDefault(source, LaneSettings.defaults());
  }

  /** The settings as saved. Under the lock. */
  Map<String, LaneSettings> snapshot() {
    return Map.copyOf(lanes);
  }
}
