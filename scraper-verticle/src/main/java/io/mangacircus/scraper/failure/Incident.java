package io.mangacircus.scraper.failure;

import java.time.Instant;

/**
 * One recorded failure and what was done about it; the queue keeps the last 200.
 *
 * @param id incident id
 * @param at when it happened
 * @param kind the failure class
 * @param source the source, or null for system-wide incidents
 * @param jobId the job, or null for lane- or system-wide incidents
 * @param httpStatus the HTTP status when there was one, else null
 * @param message what happened
 * @param action what the scraper did
 * @param resolvedAt when an operator retry or resume cleared it, else null (an open incident)
 */
public record Incident(String id, Instant at, FailureKind kind, String source, String jobId, Integer httpStatus,
    String message, String action, Instant resolvedAt) {

  public Incident resolved(Instant when) {
    return new Incident(id, at, kind, source, jobId, httpStatus, message, action, when);
  }

  public boolean open() {
    return resolvedAt == null;
  }
}
