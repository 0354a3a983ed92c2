package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;
import io.mangacircus.contracts.MessagePart;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * One recorded failure and what was done about it: an entry of {@code mc.scraper.incidents.list} (no {@code v}) and,
 * with {@code v}, the body of {@code mc.scraper.incident.recorded}.
 *
 * @param id incident id
 * @param at when it happened
 * @param kind the failure class ({@code network}, {@code parser}, {@code stall}, ...; docs/resilience.md)
 * @param source the source, or null for system-wide incidents
 * @param jobId the job, or null for lane- or system-wide incidents
 * @param httpStatus the HTTP status when there was one, else null
 * @param message what happened
 * @param action what the scraper did
 * @param resolvedAt when an operator retry or resume cleared it, else null (an open incident)
 */
public record IncidentView(String id, Instant at, String kind, String source, String jobId, Integer httpStatus,
    String message, String action, Instant resolvedAt) implements MessagePart {

  /** The version of the {@code mc.scraper.incident.recorded} event. */
  public static final int VERSION = 1;

  public IncidentView {
    MessageFields.nonBlank(IncidentView.class, "id", id);
    MessageFields.required(IncidentView.class, "at", at);
    MessageFields.nonBlank(IncidentView.class, "kind", kind);
  }

  /** The body of {@code mc.scraper.incident.recorded}: the entry plus {@code v} (last, as it always was). */
  public JsonObject toEvent() {
    return toJson().put("v", VERSION);
  }

  /** Parses a list entry; throws {@link InvalidMessageException} when it does not match the contract. */
  public static IncidentView fromJson(Object body) {
    return MessageJson.read(body, IncidentView.class);
  }

  /** Parses an {@code mc.scraper.incident.recorded} event (checks its {@code v}). */
  public static IncidentView fromEvent(Object body) {
    return fromJson(MessageJson.checkVersion(body, "IncidentRecorded", VERSION));
  }
}
