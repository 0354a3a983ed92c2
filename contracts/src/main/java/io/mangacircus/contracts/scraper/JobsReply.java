package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The reply of {@code mc.scraper.jobs.list}: {@code {v, jobs:[JobView]}}, in the order the jobs were added.
 *
 * @param jobs every job
 */
public record JobsReply(List<JobView> jobs) {

  public static final int VERSION = 1;

  private static final String TYPE = "JobsReply";

  public JobsReply {
    jobs = List.copyOf(jobs);
  }

  public JsonObject toJson() {
    JsonArray list = new JsonArray();
    jobs.forEach(job -> list.add(job.toJson()));
    return new JsonObject().put("v", VERSION).put("jobs", list);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static JobsReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    MessageFields.requireVersion(json, TYPE, VERSION);
    List<JobView> jobs = new ArrayList<>();
    for (Object entry : MessageFields.array(json, TYPE, "jobs")) {
      jobs.add(JobView.fromJson(entry));
    }
    return new JobsReply(jobs);
  }
}
