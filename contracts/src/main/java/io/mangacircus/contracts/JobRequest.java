package io.mangacircus.contracts;

/**
 * Names one job, for confirm, pause, resume and retry.
 *
 * @param jobId the job's id
 */
public record JobRequest(String jobId) implements Message {

  public static final int VERSION = 1;

  public JobRequest {
    MessageFields.operatorText(JobRequest.class, "jobId", jobId);
  }

  public static JobRequest fromJson(Object body) {
    return MessageJson.read(body, JobRequest.class, VERSION);
  }
}
