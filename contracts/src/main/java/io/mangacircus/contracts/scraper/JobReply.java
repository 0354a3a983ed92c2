package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.Message;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;

/**
 * The reply of a job command ({@code mc.scraper.jobs.confirm}, {@code .pause}, {@code .resume}, {@code .retry}):
 * {@code {v, job}}, the job after the change.
 *
 * @param job the job
 */
public record JobReply(JobView job) implements Message {

  public static final int VERSION = 1;

  public JobReply {
    MessageFields.required(JobReply.class, "job", job);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static JobReply fromJson(Object body) {
    return MessageJson.read(body, JobReply.class, VERSION);
  }
}
