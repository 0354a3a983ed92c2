package io.mangacircus.contracts;

/**
 * Published on {@link Addresses#SCRAPER_JOB_PROGRESS}: where a job is.
 *
 * @param jobId the job
 * @param source source name
 * @param title human title
 * @param state the job's state
 * @param chapterId the chapter being worked on, or null
 * @param chapterNumber its number, or null
 * @param page validated pages of that chapter so far
 * @param pages pages in that chapter
 * @param chaptersDone published chapters of the job
 * @param chapters chapters of the job
 */
public record JobProgress(String jobId, String source, String title, String state, String chapterId,
    String chapterNumber, int page, int pages, int chaptersDone, int chapters) implements Message {

  public static final int VERSION = 1;

  /** The title is the source's text as it is, so it is not checked; the ids and the state are the scraper's own. */
  public JobProgress {
    MessageFields.nonBlank(JobProgress.class, "jobId", jobId);
    MessageFields.nonBlank(JobProgress.class, "source", source);
    MessageFields.nonBlank(JobProgress.class, "state", state);
  }

  public static JobProgress fromJson(Object body) {
    return MessageJson.read(body, JobProgress.class, VERSION);
  }
}
