package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.RequestLine;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceHold;
import io.mangacircus.scraper.source.SourceLimits;
import io.mangacircus.scraper.source.TitleHit;
import io.mangacircus.scraper.source.TitleInfo;
import io.mangacircus.scraper.source.TitlePreview;
import io.vertx.core.Future;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;

/**
 * The MangaDex adapter, over its public JSON API: titles and their chapters from the feed ({@link MangaDexFeed}),
 * pages from MangaDex@Home ({@link MangaDexAtHome}), search, previews and covers ({@link MangaDexSearch}), every
 * request under MangaDex's published limits ({@link MangaDexApi}), shared by every adapter of this process that talks
 * to the same API. Does not log in, so it only sees what MangaDex shows anonymously.
 */
public final class MangaDexSource implements Source {

  /** Where MangaDex serves covers for its own API. */
  public static final String UPLOADS_URL = "https://uploads.mangadex.org";

  /** The API root used when a source's {@code baseUrl} is empty. */
  public static final String DEFAULT_BASE_URL = "https://api.mangadex.org";

  /** The lane's status while MangaDex's at-home limit (announced, or our own budget under it) holds requests. */
  public static final String AT_HOME_HOLD = "waiting for MangaDex's at-home limit";
  /** The lane's status while MangaDex's request limit holds requests. */
  public static final String REQUEST_HOLD = "waiting for MangaDex's request limit";

  /** The most bytes of a cover read. */
  public static final int MAX_COVER_BYTES = 2 * 1024 * 1024;

  private final String name;
  private final MangaDexApi api;
  private final MangaDexFeed feed;
  private final MangaDexAtHome atHome;
  private final MangaDexSearch search;

  /**
   * @param apiBaseUrl the API root, e.g. {@code https://api.mangadex.org}
   * @param line the line every request to this API waits in; one per API root in a process
   * @param clock the clock of {@code line}'s limiter
   * @param challengeMarkers texts that mark an HTML answer as an access challenge
   */
  public MangaDexSource(String name, String apiBaseUrl, MangaDexOptions options, WebClient client, RequestLine line,
      InstantSource clock, long metadataTimeoutMs, long pageTimeoutMs, List<String> challengeMarkers) {
    this.name = name;
    String api = normalise(apiBaseUrl);
    String uploadsUrl = options.uploadsUrl() != null ? options.uploadsUrl()
        : api.equals(DEFAULT_BASE_URL) ? UPLOADS_URL : api;
    this.api = new MangaDexApi(name, api, options, client, line, clock, metadataTimeoutMs, challengeMarkers);
    this.feed = new MangaDexFeed(this.api, options);
    this.atHome = new MangaDexAtHome(this.api, options, pageTimeoutMs);
    this.search = new MangaDexSearch(this.api, options, uploadsUrl, metadataTimeoutMs);
  }

  /** The API root a configured {@code baseUrl} stands for ({@link #DEFAULT_BASE_URL} when empty). */
  public static String apiBaseUrl(String configured) {
    return configured == null || configured.isBlank() ? DEFAULT_BASE_URL : normalise(configured);
  }

  private static String normalise(String url) {
    String trimmed = url.trim();
    return trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String titleIdOf(String titleRef) {
    return MangaDexRefs.titleId(titleRef).orElse(titleRef.trim());
  }

  // ---- title --------------------------------------------------------------------------------------------------

  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef) {
    return title(titleRef, Duration.ZERO);
  }

  /**
   * The title and its English feed (today's default), {@code spacing} between requests (the lane's pacing). A title
   * whose manga answer lists its languages without English ends there, after one request. An inspection cut short by a
   * failure is remembered for a while: the next one goes on from the feed page that failed.
   */
  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef, Duration spacing) {
    return title(titleRef, spacing, Wanted.DEFAULT);
  }

  /**
   * The title and its feed in {@code wanted}'s language, one chapter per number by its group preference
   * ({@link io.mangacircus.scraper.source.GroupChoice}), {@code spacing} between requests.
   */
  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef, Duration spacing, Wanted wanted) {
    return feed.title(titleRef, spacing, wanted);
  }

  // ---- search, preview, cover ---------------------------------------------------------------------------------

  @Override
  public boolean canSearch() {
    return true;
  }

  @Override
  public Future<FetchOutcome<List<TitleHit>>> search(String query, int limit) {
    return search.search(query, limit);
  }

  @Override
  public Future<FetchOutcome<TitlePreview>> preview(String titleId) {
    return search.preview(titleId);
  }

  @Override
  public Future<FetchOutcome<PageBytes>> cover(String url) {
    return search.cover(url);
  }

  // ---- pages --------------------------------------------------------------------------------------------------

  @Override
  public Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
    return atHome.pages(titleId, chapter);
  }

  @Override
  public Future<FetchOutcome<PageBytes>> page(PageRef page) {
    return atHome.page(page);
  }

  // ---- limits -------------------------------------------------------------------------------------------------

  @Override
  public Optional<SourceHold> hold() {
    return api.hold();
  }

  @Override
  public void holdUntil(Instant until, String reason) {
    api.holdUntil(until, reason);
  }

  @Override
  public SourceLimits limits() {
    return api.limits();
  }
}
