package io.mangacircus.contracts.scraper;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;
import io.mangacircus.contracts.MessagePart;
import java.time.Instant;
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
    @JsonInclude(JsonInclude.Include.NON_NULL) Progress progress) implements MessagePart {

  public JobView {
    MessageFields.nonBlank(JobView.class, "id", id);
    MessageFields.required(JobView.class, "source", source);
    MessageFields.required(JobView.class, "titleId", titleId);
    MessageFields.nonBlank(JobView.class, "state", state);
    MessageFields.required(JobView.class, "createdAt", createdAt);
    MessageFields.required(JobView.class, "updatedAt", updatedAt);
    chapterList = MessageFields.list(JobView.class, "chapterList", chapterList);
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

    public ChapterView {
      MessageFields.required(ChapterView.class, "id", id);
      MessageFields.nonBlank(ChapterView.class, "stage", stage);
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
  }

  /** Parses a job view; throws {@link InvalidMessageException} when it does not match the contract. */
  public static JobView fromJson(Object body) {
    return MessageJson.read(body, JobView.class);
  }
}
