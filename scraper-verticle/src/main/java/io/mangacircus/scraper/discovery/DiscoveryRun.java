package io.mangacircus.scraper.discovery;

import io.mangacircus.contracts.DiscoveryFinished;
import io.mangacircus.scraper.follow.Follows;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import io.mangacircus.scraper.queue.QueueOutcome;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One discovery pass: every followed title whose source is configured gets a job that looks for new chapters (in the
 * followed language, with its group preference), unless a job for it is outstanding, unavailable or quarantined. The job runs on the source's own lane (so pacing and the
 * circuit apply); chapters already in the library are not fetched again.
 */
public final class DiscoveryRun {

  /** What a pass did. */
  public record Result(Instant at, int titles, List<String> queued, List<JsonObject> skipped) {

    public JsonObject toJson() {
      return new JsonObject().put("at", at.toString()).put("titles", titles).put("queued", new JsonArray(queued))
          .put("skipped", new JsonArray(skipped));
    }

    /** The event announcing this pass ({@code mc.scraper.discovery.finished}). */
    public DiscoveryFinished event() {
      List<DiscoveryFinished.Queued> jobs = new ArrayList<>();
      for (String entry : queued) {
        // "<jobId> <source>/<titleId>": source names hold no '/', title ids may
        int space = entry.indexOf(' ');
        int slash = entry.indexOf('/', space);
        jobs.add(new DiscoveryFinished.Queued(entry.substring(0, space), entry.substring(space + 1, slash),
            entry.substring(slash + 1)));
      }
      return new DiscoveryFinished(at, titles, jobs, skipped.size());
    }
  }

  private DiscoveryRun() {
  }

  /** Runs a pass over the followed {@code titles}; {@code checked} receives those it queued a job for. */
  public static Result run(Collection<Follows.Entry> titles, JobQueue queue, Set<String> sources, Instant now,
      List<Follows.Entry> checked) {
    List<String> queued = new ArrayList<>();
    List<JsonObject> skipped = new ArrayList<>();
    // One look at the queue per pass: the titles are distinct, so what this pass adds never changes the answer.
    java.util.Map<String, Job> unfinished = new java.util.HashMap<>();
    queue.jobs().stream().filter(j -> j.state() != JobState.DONE).forEach(j -> unfinished.put(j.key(), j));
    for (Follows.Entry title : titles) {
      String name = title.source() + "/" + title.titleId();
      if (!sources.contains(title.source())) {
        skipped.add(skip(name, "source '" + title.source() + "' is not configured"));
        continue;
      }
      Optional<Job> existing = Optional.ofNullable(unfinished.get(Job.key(title.source(), title.titleId())));
      if (existing.isPresent()) {
        skipped.add(skip(name, "job " + existing.get().id() + " is " + existing.get().state().wire()));
        continue;
      }
      QueueOutcome added = queue.addTitle(title.source(), title.titleId(), true, title.language(),
          title.preferredGroups()).outcome();
      if (added.accepted()) {
        queued.add(added.job().id() + " " + name);
        checked.add(title);
      } else {
        skipped.add(skip(name, added.refusal()));
      }
    }
    return new Result(now, titles.size(), queued, skipped);
  }

  private static JsonObject skip(String title, String why) {
    return new JsonObject().put("title", title).put("reason", why);
  }
}
