package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.Message;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;

/**
 * The reply of {@code mc.scraper.jobs.add}: {@code {v, created, supersededJobId, job}}. The reader answers 201 when
 * {@code created}, else 200 (docs/api.md).
 *
 * @param created whether a new job was created (false: the title's outstanding job is returned)
 * @param supersededJobId the finished job of the same title the new job replaced, else null
 * @param job the new job, or the outstanding one
 */
public record JobAddedReply(boolean created, String supersededJobId, JobView job) implements Message {

  public static final int VERSION = 1;

  public JobAddedReply {
    MessageFields.required(JobAddedReply.class, "job", job);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static JobAddedReply fromJson(Object body) {
    return MessageJson.read(body, JobAddedReply.class, VERSION);
  }
}
