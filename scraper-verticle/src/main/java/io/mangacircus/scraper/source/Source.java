package io.mangacircus.scraper.source;

import io.vertx.core.Future;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A place titles come from. Every call completes with a {@link FetchOutcome}; the returned future never fails for
 * outside-world reasons (only for bugs).
 */
public interface Source {

  /** The configured name, e.g. {@code demo}. */
  String name();

  /** The title id a reference names: the id itself, or the id inside a title URL of this source. */
  default String titleIdOf(String titleRef) {
    return titleRef.trim();
  }

  /** Title metadata (metadata timeout, 30 s by default). {@code titleRef} is a title id or a title URL. */
  Future<FetchOutcome<TitleInfo>> title(String titleRef);

  /**
   * As {@link #title(String)}, for a lane's inspection: when it takes several requests, each waits {@code spacing}
   * after the previous one (the lane's pacing), on top of the source's own limits. Sources that read a title in one
   * request ignore it.
   */
  default Future<FetchOutcome<TitleInfo>> title(String titleRef, java.time.Duration spacing) {
    return title(titleRef);
  }

  /** The page manifest of one chapter (metadata timeout). */
  Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter);

  /** One page's bytes (page timeout, 60 s by default). The body is not validated here. */
  Future<FetchOutcome<PageBytes>> page(PageRef page);

  /** The hold in force for this source's requests, if any. */
  default Optional<SourceHold> hold() {
    return Optional.empty();
  }

  /** Sends nothing before {@code until} (a hold kept in {@code queue.json}, given back after a restart). */
  default void holdUntil(Instant until, String reason) {
  }

  /** What the source's request limits are doing now (lane status, {@code /metrics}). */
  default SourceLimits limits() {
    return SourceLimits.NONE;
  }

  /**
   * Whether parser failures of several jobs mean the source's markup changed (so the lane pauses, docs/architecture.md §5).
   * False for sources whose parser failures are each title's own problem, such as corrupt local archives.
   */
  default boolean parserFailuresAreSystemic() {
    return true;
  }
}
