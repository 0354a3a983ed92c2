package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonObject;

/**
 * The reply of a job command ({@code mc.scraper.jobs.confirm}, {@code .pause}, {@code .resume}, {@code .retry}):
 * {@code {v, job}}, the job after the change.
 *
 * @param job the job
 */
public record JobReply(JobView job) {

  public static final int VERSION = 1;

  private static final String TYPE = "JobReply";

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("job", job.toJson());
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static JobReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    MessageFields.requireVersion(json, TYPE, VERSION);
    return new JobReply(JobView.fromJson(MessageFields.object(json, TYPE, "job")));
  }
}
