package io.mangacircus.scraper.queue;

import io.mangacircus.scraper.failure.Failure;
import io.mangacircus.scraper.failure.FailureAction;
import io.mangacircus.scraper.failure.Incident;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * The incident history: the last {@link #MAX_INCIDENTS} failures and what was done about each, kept in
 * {@code queue.json} beside the jobs, and which of them an operator's retry or resume has cleared.
 */
public final class IncidentStore {

  /** Incidents kept in {@code queue.json}; older ones are dropped. */
  public static final int MAX_INCIDENTS = 200;

  private final QueueJournal journal;
  private final ArrayDeque<Incident> incidents = new ArrayDeque<>();

  IncidentStore(QueueJournal journal, List<Incident> loaded) {
    this.journal = journal;
    incidents.addAll(loaded);
  }

  /** Records an incident and its {@code events.log} line; listeners are told. */
  public Incident record(Failure failure, String source, String jobId, FailureAction action) {
    return journal.locked(() -> {
      Instant now = journal.clock().instant();
      Incident incident = new Incident("i-" + UUID.randomUUID().toString().substring(0, 8), now, failure.kind(),
          source, jobId, failure.httpStatus(), failure.message(), action.description(), null);
      incidents.addLast(incident);
      while (incidents.size() > MAX_INCIDENTS) {
        incidents.removeFirst();
      }
      journal.commit("incident", new JsonObject().put("id", incident.id())
          .put("failure", new JsonObject().put("kind", failure.kind().wire()).put("httpStatus", failure.httpStatus())
              .put("message", failure.message()))
          .put("source", source).put("jobId", jobId).put("action", action.description()));
      journal.tell(listener -> listener.incidentRecorded(incident));
      return incident;
    });
  }

  /** The kept incidents, oldest first. */
  public List<Incident> list() {
    return journal.locked(() -> List.copyOf(incidents));
  }

  /** Incidents nobody has cleared yet. */
  public long open() {
    return journal.locked(() -> incidents.stream().filter(Incident::open).count());
  }

  /** Clears the open incidents {@code which} selects; saved with the caller's next commit. Under the lock. */
  void resolve(Predicate<Incident> which) {
    Instant now = journal.clock().instant();
    List<Incident> updated = incidents.stream().map(i -> i.open() && which.test(i) ? i.resolved(now) : i).toList();
    incidents.clear();
    incidents.addAll(updated);
  }

  /** The incidents as saved. Under the lock. */
  List<Incident> snapshot() {
    return List.copyOf(incidents);
  }
}
