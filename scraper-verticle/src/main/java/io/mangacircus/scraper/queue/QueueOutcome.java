package io.mangacircus.scraper.queue;

/**
 * The result of an operator or lane request against the queue: the job as it now is, or why nothing changed.
 *
 * @param job the job after the request (null when it does not exist)
 * @param refusal null when the request was carried out, else why it was refused
 * @param kind what kind of refusal, for the failure code the caller replies with
 */
public record QueueOutcome(Job job, String refusal, Refusal kind) {

  /** Why a request changed nothing. */
  public enum Refusal { NONE, NOT_FOUND, ILLEGAL_TRANSITION, UNKNOWN_SOURCE }

  public static QueueOutcome done(Job job) {
    return new QueueOutcome(job, null, Refusal.NONE);
  }

  public static QueueOutcome refused(Job job, Refusal kind, String why) {
    return new QueueOutcome(job, why, kind);
  }

  public boolean accepted() {
    return refusal == null;
  }
}
