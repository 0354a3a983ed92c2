package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * Names one job, for confirm, pause, resume and retry.
 *
 * @param jobId the job's id
 */
public record JobRequest(String jobId) {

  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("jobId", jobId);
  }

  public static JobRequest fromJson(Object body) {
    JsonObject json = MessageFields.object(body, "JobRequest");
    MessageFields.requireVersion(json, "JobRequest", VERSION);
    return new JobRequest(MessageFields.operatorString(json, "JobRequest", "jobId"));
  }
}
