package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

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
    String chapterNumber, int page, int pages, int chaptersDone, int chapters) {

  public static final int VERSION = 1;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("jobId", jobId).put("source", source).put("title", title)
        .put("state", state).put("chapterId", chapterId).put("chapterNumber", chapterNumber).put("page", page)
        .put("pages", pages).put("chaptersDone", chaptersDone).put("chapters", chapters);
  }

  public static JobProgress fromJson(Object body) {
    String type = "JobProgress";
    JsonObject json = MessageFields.object(body, type);
    MessageFields.requireVersion(json, type, VERSION);
    return new JobProgress(MessageFields.string(json, type, "jobId"), MessageFields.string(json, type, "source"),
        MessageFields.string(json, type, "title"), MessageFields.string(json, type, "state"),
        MessageFields.optionalString(json, type, "chapterId"), MessageFields.optionalString(json, type, "chapterNumber"),
        (int) MessageFields.number(json, type, "page"), (int) MessageFields.number(json, type, "pages"),
        (int) MessageFields.number(json, type, "chaptersDone"), (int) MessageFields.number(json, type, "chapters"));
  }
}
