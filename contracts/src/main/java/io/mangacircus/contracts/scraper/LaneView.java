package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * One source lane as the operator sees it: an entry of {@code mc.scraper.lanes.list} and the {@code lane} of a lane
 * command's reply. It carries no {@code v}: the reply around it does.
 *
 * @param coverage what the scraper knows of the source; null in a lane command's reply (the field is then null)
 * @param source source name
 * @param type the source's type ({@code html}, {@code mangadex}, ...)
 * @param paused whether the lane is paused
 * @param circuit the source's circuit: {@code closed}, {@code half_open} or {@code open}
 * @param pauseReason why it is paused, else null
 * @param pageDelayMs effective delay between page fetches, ms
 * @param chapterDelayMs effective delay between chapters, ms
 */
public record LaneView(Coverage coverage, String source, String type, boolean paused, String circuit,
    String pauseReason, long pageDelayMs, long chapterDelayMs) {

  private static final String TYPE = "LaneView";

  /**
   * A source's coverage.
   *
   * @param titles titles of the source with a job
   * @param chaptersFound chapters its titles' last inspections listed
   * @param chaptersPublished chapters published
   * @param lastContactAt the last successful contact with the source since this start, or null
   */
  public record Coverage(long titles, long chaptersFound, long chaptersPublished, Instant lastContactAt) {

    public JsonObject toJson() {
      return new JsonObject().put("titles", titles).put("chaptersFound", chaptersFound)
          .put("chaptersPublished", chaptersPublished)
          .put("lastContactAt", lastContactAt == null ? null : lastContactAt.toString());
    }

    /** Parses a lane's {@code coverage}; throws {@link InvalidMessageException} when it does not match. */
    public static Coverage fromJson(Object body) {
      String type = "LaneView.Coverage";
      JsonObject json = MessageFields.object(body, type);
      return new Coverage(MessageFields.number(json, type, "titles"), MessageFields.number(json, type, "chaptersFound"),
          MessageFields.number(json, type, "chaptersPublished"),
          MessageFields.optionalInstant(json, type, "lastContactAt"));
    }
  }

  public JsonObject toJson() {
    return new JsonObject().put("coverage", coverage == null ? null : coverage.toJson()).put("source", source)
        .put("type", type).put("paused", paused).put("circuit", circuit).put("pauseReason", pauseReason)
        .put("pageDelayMs", pageDelayMs).put("chapterDelayMs", chapterDelayMs);
  }

  /** Parses a lane view; throws {@link InvalidMessageException} when it does not match the contract. */
  public static LaneView fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    JsonObject coverage = MessageFields.optionalObject(json, TYPE, "coverage");
    return new LaneView(coverage == null ? null : Coverage.fromJson(coverage), MessageFields.string(json, TYPE, "source"),
        MessageFields.string(json, TYPE, "type"), MessageFields.bool(json, TYPE, "paused"),
        MessageFields.string(json, TYPE, "circuit"), MessageFields.optionalString(json, TYPE, "pauseReason"),
        MessageFields.number(json, TYPE, "pageDelayMs"), MessageFields.number(json, TYPE, "chapterDelayMs"));
  }
}
