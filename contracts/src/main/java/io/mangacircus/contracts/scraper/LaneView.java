package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;
import io.mangacircus.contracts.MessagePart;
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
 * @param limits what the source's request limits are doing now; null in a lane command's reply
 */
public record LaneView(Coverage coverage, String source, String type, boolean paused, String circuit,
    String pauseReason, long pageDelayMs, long chapterDelayMs, Limits limits) implements MessagePart {

  public LaneView {
    MessageFields.nonBlank(LaneView.class, "source", source);
    MessageFields.nonBlank(LaneView.class, "type", type);
    MessageFields.nonBlank(LaneView.class, "circuit", circuit);
  }

  /**
   * A source's request limits now (docs/resilience.md, "Limits").
   *
   * @param holdUntil no request leaves before this instant (a hold the source named or our budget set), or null
   * @param holdReason why, e.g. {@code waiting for MangaDex's at-home limit}, or null
   * @param holdsWaited holds waited out since start (none of them a failure)
   * @param refused requests the source answered 429 since start
   * @param rateLimitRps requests a second the adapter allows itself now (lowered after a 429); null when it keeps none
   * @param configuredRps the most it ever allows itself; null when it keeps none
   */
  public record Limits(Instant holdUntil, String holdReason, long holdsWaited, long refused, Double rateLimitRps,
      Double configuredRps) {
  }

  /**
   * A source's coverage.
   *
   * @param titles titles of the source with a job
   * @param chaptersFound chapters its titles' last inspections listed
   * @param chaptersPublished chapters published
   * @param lastContactAt the last successful contact with the source since this start, or null
   */
  public record Coverage(long titles, long chaptersFound, long chaptersPublished, Instant lastContactAt) {
  }

  /** Parses a lane view; throws {@link InvalidMessageException} when it does not match the contract. */
  public static LaneView fromJson(Object body) {
    return MessageJson.read(body, LaneView.class);
  }
}
