package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * Names one job, for confirm, pause, resume and retry.
 *
 * @param jobId the job's id
 */
public record JobRequest(String jobId) {

  public static final int VERSION = 1;

  public JobRequest {
    MessageFields.operatorText(JobRequest.class, "jobId", jobId);
  }

  public JsonObject toJson() {
    return MessageJson.write(this, VERSION);
  }

  public static JobRequest fromJson(Object body) {
    return MessageJson.read(body, JobRequest.class, VERSION);
  }
}
