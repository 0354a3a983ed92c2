package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonObject;

/**
 * The reply of {@code mc.scraper.jobs.add}: {@code {created, supersededJobId, v, job}}. The reader answers 201 when
 * {@code created}, else 200 (docs/api.md).
 *
 * @param created whether a new job was created (false: the title's outstanding job is returned)
 * @param supersededJobId the finished job of the same title the new job replaced, else null
 * @param job the new job, or the outstanding one
 */
public record JobAddedReply(boolean created, String supersededJobId, JobView job) {

  public static final int VERSION = 1;

  private static final String TYPE = "JobAddedReply";

  public JsonObject toJson() {
    return new JsonObject().put("created", created).put("supersededJobId", supersededJobId).put("v", VERSION)
        .put("job", job.toJson());
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static JobAddedReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    MessageFields.requireVersion(json, TYPE, VERSION);
    return new JobAddedReply(MessageFields.bool(json, TYPE, "created"),
        MessageFields.optionalString(json, TYPE, "supersededJobId"),
        JobView.fromJson(MessageFields.object(json, TYPE, "job")));
  }
}
