package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One job as the operator sees it: an entry of {@code mc.scraper.jobs.list} and the {@code job} of a job command's
 * reply (docs/api.md, {@code GET /api/admin/jobs}). It carries no {@code v}: the reply around it does.
 *
 * @param id the job
 * @param source source name
 * @param titleId the source's title id
 * @param title human title (the title id until inspection)
 * @param state the job's state ({@code pending}, {@code active}, ...)
 * @param inspected whether metadata was read
 * @param confirmed whether the download may start
 * @param attempts failed attempts that count against the limit
 * @param interruptions stops that were the system's own doing
 * @param reason why it is paused, waiting, unavailable or quarantined, else null
 * @param retryAt when a {@code retry_wait} job becomes pending again, else null
 * @param createdAt when it was added
 * @param updatedAt last change
 * @param chapters chapters of the job
 * @param chaptersPublished chapters published so far
 * @param chaptersFailed chapters that failed
 * @param chapterList its chapters in reading order
 * @param progress where a lane is in it in this process, or null (then the field is absent)
 */
public record JobView(String id, String source, String titleId, String title, String state, boolean inspected,
    boolean confirmed, int attempts, int interruptions, String reason, Instant retryAt, Instant createdAt,
    Instant updatedAt, int chapters, long chaptersPublished, long chaptersFailed, List<ChapterView> chapterList,
    Progress progress) {

  private static final String TYPE = "JobView";

  public JobView {
    chapterList = List.copyOf(chapterList);
  }

  /**
   * One chapter of a job.
   *
   * @param id the source's chapter id
   * @param number chapter number as the source writes it
   * @param title chapter title, may be empty
   * @param stage its stage ({@code planned}, {@code fetching}, ..., {@code published}, {@code failed})
   * @param pages page count, 0 until known
   * @param reason why it failed, else null
   */
  public record ChapterView(String id, String number, String title, String stage, int pages, String reason) {

    public JsonObject toJson() {
      return new JsonObject().put("id", id).put("number", number).put("title", title).put("stage", stage)
          .put("pages", pages).put("reason", reason);
    }

    /** Parses one entry of {@code chapterList}; throws {@link InvalidMessageException} when it does not match. */
    public static ChapterView fromJson(Object body) {
      String type = "ChapterView";
      JsonObject json = MessageFields.object(body, type);
      return new ChapterView(MessageFields.string(json, type, "id"), MessageFields.text(json, type, "number"),
          MessageFields.text(json, type, "title"), MessageFields.string(json, type, "stage"),
          (int) MessageFields.number(json, type, "pages"), MessageFields.optionalString(json, type, "reason"));
    }
  }

  /**
   * The chapter a lane is on and how far it got.
   *
   * @param chapterId the chapter, or null
   * @param chapterNumber its number, or null
   * @param page validated pages of that chapter so far
   * @param pages pages in that chapter
   */
  public record Progress(String chapterId, String chapterNumber, int page, int pages) {

    public JsonObject toJson() {
      return new JsonObject().put("chapterId", chapterId).put("chapterNumber", chapterNumber).put("page", page)
          .put("pages", pages);
    }

    /** Parses a job's {@code progress}; throws {@link InvalidMessageException} when it does not match. */
    public static Progress fromJson(Object body) {
      String type = "JobView.Progress";
      JsonObject json = MessageFields.object(body, type);
      return new Progress(MessageFields.optionalString(json, type, "chapterId"),
          MessageFields.optionalString(json, type, "chapterNumber"), (int) MessageFields.number(json, type, "page"),
          (int) MessageFields.number(json, type, "pages"));
    }
  }

  public JsonObject toJson() {
    JsonArray list = new JsonArray();
    chapterList.forEach(chapter -> list.add(chapter.toJson()));
    JsonObject json = new JsonObject().put("id", id).put("source", source).put("titleId", titleId)
        .put("title", title).put("state", state).put("inspected", inspected).put("confirmed", confirmed)
        .put("attempts", attempts).put("interruptions", interruptions).put("reason", reason)
        .put("retryAt", retryAt == null ? null : retryAt.toString()).put("createdAt", createdAt.toString())
        .put("updatedAt", updatedAt.toString()).put("chapters", chapters).put("chaptersPublished", chaptersPublished)
        .put("chaptersFailed", chaptersFailed).put("chapterList", list);
    if (progress != null) {
      json.put("progress", progress.toJson());
    }
    return json;
  }

  /** Parses a job view; throws {@link InvalidMessageException} when it does not match the contract. */
  public static JobView fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    List<ChapterView> chapters = new ArrayList<>();
    for (Object entry : MessageFields.array(json, TYPE, "chapterList")) {
      chapters.add(ChapterView.fromJson(entry));
    }
    JsonObject progress = MessageFields.optionalObject(json, TYPE, "progress");
    return new JobView(MessageFields.string(json, TYPE, "id"), MessageFields.string(json, TYPE, "source"),
        MessageFields.string(json, TYPE, "titleId"), MessageFields.string(json, TYPE, "title"),
        MessageFields.string(json, TYPE, "state"), MessageFields.bool(json, TYPE, "inspected"),
        MessageFields.bool(json, TYPE, "confirmed"), (int) MessageFields.number(json, TYPE, "attempts"),
        (int) MessageFields.number(json, TYPE, "interruptions"), MessageFields.optionalString(json, TYPE, "reason"),
        MessageFields.optionalInstant(json, TYPE, "retryAt"), MessageFields.instant(json, TYPE, "createdAt"),
        MessageFields.instant(json, TYPE, "updatedAt"), (int) MessageFields.number(json, TYPE, "chapters"),
        MessageFields.number(json, TYPE, "chaptersPublished"), MessageFields.number(json, TYPE, "chaptersFailed"),
        chapters, progress == null ? null : Progress.fromJson(progress));
  }
}
