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

  /**
   * As {@link #title(String, java.time.Duration)}, listing the chapters a job wants: those in {@code wanted}'s
   * language, one per chapter number chosen by its group preference ({@link GroupChoice}). Sources whose titles come
   * in one language or without groups ignore it (the job filters by language itself).
   */
  default Future<FetchOutcome<TitleInfo>> title(String titleRef, java.time.Duration spacing, Wanted wanted) {
    return title(titleRef, spacing);
  }

  /**
   * What a job wants of a title.
   *
   * @param language the language code to download
   * @param preferredGroups group ids in order of preference; empty: the first uploaded of each number
   */
  record Wanted(String language, List<String> preferredGroups) {

    /** Today's default: English, no preference. */
    public static final Wanted DEFAULT = new Wanted("en", List.of());

    public Wanted {
      language = language == null ? "en" : language;
      preferredGroups = preferredGroups == null ? List.of() : List.copyOf(preferredGroups);
    }
  }

  /** Whether {@link #search} can find titles by name here. */
  default boolean canSearch() {
    return false;
  }

  /**
   * Titles whose name matches {@code query}, at most {@code limit}, in the source's own order (metadata timeout).
   * Sources that cannot search answer {@link FetchOutcome.NotFound}; callers ask {@link #canSearch()} first.
   */
  default Future<FetchOutcome<List<TitleHit>>> search(String query, int limit) {
    return Future.succeededFuture(new FetchOutcome.NotFound<>("source " + name() + " cannot search"));
  }

  /**
   * A title's details and every chapter in every language (metadata timeout). By default its inspection's chapters
   * with nothing else known; sources that know more (description, groups, cover) say so. Only a source that honours
   * {@link Wanted#preferredGroups} lists groups: the admin's add page offers a group choice exactly when there are some.
   */
  default Future<FetchOutcome<TitlePreview>> preview(String titleId) {
    return title(titleId).map(outcome -> outcome.ok()
        ? new FetchOutcome.Ok<>(TitlePreview.of(outcome.value(), null)) : outcome.<TitlePreview>failure());
  }

  /** A cover's bytes from a URL this source handed out in a search or preview (never one a request names). */
  default Future<FetchOutcome<PageBytes>> cover(String url) {
    return page(new PageRef(1, "cover", url));
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
   * Whether parser failures of several jobs mean the source's markup changed (so the lane pauses, docs/resilience.md, "The table").
   * False for sources whose parser failures are each title's own problem, such as corrupt local archives.
   */
  default boolean parserFailuresAreSystemic() {
    return true;
  }
}
