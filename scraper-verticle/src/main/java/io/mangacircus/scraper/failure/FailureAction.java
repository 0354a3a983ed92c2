package io.mangacircus.scraper.failure;

/** What the scraper does about a failure (docs/resilience.md, "The table", column "what the scraper does"). */
public enum FailureAction {
  /** Job to {@code retry_wait} with {@code retryAt}; the checkpoint is kept. */
  RETRY_LATER("job retry_wait"),
  /** Job to {@code quarantined}; partial pages kept. */
  QUARANTINE("job quarantined"),
  /** Job to {@code unavailable}. */
  MARK_UNAVAILABLE("job unavailable"),
  /** The source's lane is paused; the job goes back to the queue without consuming an attempt. */
  PAUSE_LANE("lane paused"),
  /** Every lane is paused; the job is paused. */
  PAUSE_ALL("all downloads paused"),
  /** The job is paused for the operator. */
  PAUSE_JOB("job paused"),
  /** The job is stopped at its next checkpoint and requeued. */
  REQUEUE("job requeued");

  private final String description;

  FailureAction(String description) {
    this.description = description;
  }

  /** How incidents describe the action. */
  public String description() {
    return description;
  }
}
