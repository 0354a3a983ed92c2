package io.mangacircus.scraper.source.html;

import io.mangacircus.scraper.pacing.Delays;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.SourceHttp;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.TitleInfo;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;

/**
 * A website read through a {@link HtmlDefinition}: title pages (following the chapter list's pagination), chapter
 * pages and page images, with jsoup over the Vert.x web client. Generalises {@code DemoSource}.
 *
 * <p>Politeness: a request of one adapter starts at least the source's configured page delay after the previous one
 * was answered (so chapter-list pages, a chapter page and its first image are spaced too), HTML answers are read up to 5 MiB and images up to
 * 64 MiB, and a challenge page — served with 200, or with 403/429/503 — is an access refusal, never bypassed.
 */
public final class HtmlSource implements Source {

  /** The most bytes of an HTML page read; a longer one is a parser failure. */
  public static final int MAX_HTML_BYTES = SourceHttp.MAX_DOCUMENT_BYTES;

  private static final String ACCEPT_HTML = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";

  private final String name;
  private final HtmlExtraction extraction;
  private final String baseUrl;
  private final long spacingNanos;
  private final Vertx vertx;
  private final SourceHttp http;
  private final long metadataTimeoutMs;
  private final long pageTimeoutMs;
  private final int maxHtmlBytes;
  private long nextRequestAt = System.nanoTime();

  /**
   * @param baseUrl the site root in use (the source's {@code baseUrl}, else the definition's), without a trailing slash
   * @param challengeMarkers texts that mark an HTML answer as an access challenge (source's and definition's)
   * @param spacingMs the least time between the starts of two requests, ms (the source's configured page delay)
   */
  public HtmlSource(String name, HtmlDefinition definition, String baseUrl, List<String> challengeMarkers,
      long spacingMs, Vertx vertx, WebClient client, long metadataTimeoutMs, long pageTimeoutMs) {
    this(name, definition, baseUrl, spacingMs, vertx, new SourceHttp(client, InstantSource.system(), challengeMarkers),
        metadataTimeoutMs, pageTimeoutMs, MAX_HTML_BYTES);
  }

  /** As above over a source's HTTP pipeline, with an HTML size limit. */
  public HtmlSource(String name, HtmlDefinition definition, String baseUrl, long spacingMs, Vertx vertx,
      SourceHttp http, long metadataTimeoutMs, long pageTimeoutMs, int maxHtmlBytes) {
    this.name = name;
    this.extraction = new HtmlExtraction(definition);
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.spacingNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, spacingMs));
    this.vertx = vertx;
    this.http = http;
    this.metadataTimeoutMs = metadataTimeoutMs;
    this.pageTimeoutMs = pageTimeoutMs;
    this.maxHtmlBytes = maxHtmlBytes;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String titleIdOf(String titleRef) {
    return extraction.titleIdOf(titleRef);
  }

  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef) {
    String id = extraction.titleIdOf(titleRef);
    if (!HtmlExtraction.usableId(id)) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>("'" + titleRef + "' is not a title id or title URL of "
          + "source " + name));
    }
    return listPages(id, extraction.titleUrl(baseUrl, id), 1, null, new ArrayList<>(), new HashSet<>());
  }

  /** Reads chapter-list pages one after the other, as long as there is a next page not read yet. */
  private Future<FetchOutcome<TitleInfo>> listPages(String id, String url, int page, String title,
      List<ChapterInfo> chapters, Set<String> seen) {
    seen.add(url);
    String what = page == 1 ? "title " + id : "chapter list page " + page + " of " + id;
    return html(url, what, document -> extraction.listPage(document, baseUrl)).compose(outcome -> {
      if (!outcome.ok()) {
        return Future.succeededFuture(outcome.failure());
      }
      HtmlExtraction.ListPage listed = outcome.value();
      String name = title == null ? listed.title() : title;
      chapters.addAll(listed.chapters());
      String next = listed.next() == null ? null : withoutFragment(listed.next());
      if (next == null || seen.contains(next)) {
        return Future.succeededFuture(extraction.titleInfo(id, name, chapters));
      }
      var pagination = extraction.definition().chapters().pagination();
      if (page >= pagination.maxPages()) {
        return Future.succeededFuture(new FetchOutcome.ParseError<>("the chapter list of " + id + " goes on after "
            + pagination.maxPages() + " pages (chapters.pagination.maxPages); next would be " + next));
      }
      return listPages(id, next, page + 1, name, chapters, seen);
    });
  }

  /** Whether the definition has a {@code search} block. */
  @Override
  public boolean canSearch() {
    return extraction.definition().search() != null;
  }

  /** The definition's search results page for {@code query}, read with its {@code search} selectors. */
  @Override
  public Future<FetchOutcome<List<io.mangacircus.scraper.source.TitleHit>>> search(String query, int limit) {
    if (!canSearch()) {
      return Source.super.search(query, limit);
    }
    return html(extraction.searchUrl(baseUrl, query), "search for '" + query + "'",
        document -> extraction.searchResults(document, baseUrl, limit));
  }

  @Override
  public Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
    if (!HtmlExtraction.usableId(titleId) || !HtmlExtraction.usableId(chapter.id())) {
      return Future.succeededFuture(new FetchOutcome.ParseError<>("chapter '" + chapter.id() + "' of '" + titleId
          + "' has an id that cannot go into a URL"));
    }
    String url = extraction.chapterUrl(baseUrl, titleId, chapter.id());
    return html(url, "chapter " + chapter.number() + " of " + titleId, extraction::pages);
  }

  @Override
  public Future<FetchOutcome<PageBytes>> page(PageRef page) {
    String what = "page " + page.index();
    return turn().compose(v -> {
      HttpRequest<Buffer> request = http.request(page.url(), pageTimeoutMs);
      if (extraction.definition().pages().referer()) {
        request.putHeader("Referer", baseUrl + "/");
      }
      return http.send(request, SourceHttp.MAX_IMAGE_BYTES);
    }).transform(ar -> {
      answered();
      FetchOutcome<HttpResponse<Buffer>> answer = http.outcome(ar, SourceHttp.MAX_IMAGE_BYTES, what, false);
      return Future.succeededFuture(answer.ok() ? new FetchOutcome.Ok<>(new PageBytes(
          SourceHttp.mediaType(answer.value()), SourceHttp.bytes(answer.value()))) : answer.<PageBytes>failure());
    });
  }

  // ---- HTML ---------------------------------------------------------------------------------------------------

  private <T> Future<FetchOutcome<T>> html(String url, String what, Function<Document, FetchOutcome<T>> parse) {
    return turn().compose(v -> http.send(http.request(url, metadataTimeoutMs).putHeader("Accept", ACCEPT_HTML),
            maxHtmlBytes))
        .transform(ar -> {
          answered();
          return Future.succeededFuture(htmlOutcome(ar, url, what, parse));
        });
  }

  private <T> FetchOutcome<T> htmlOutcome(AsyncResult<HttpResponse<Buffer>> ar, String url, String what,
      Function<Document, FetchOutcome<T>> parse) {
    String where = ar.failed() ? what + " (" + path(url) + ")" : what;
    FetchOutcome<HttpResponse<Buffer>> answer = http.outcome(ar, maxHtmlBytes, where, true);
    if (!answer.ok()) {
      return answer.failure();
    }
    HttpResponse<Buffer> response = answer.value();
    // After a redirect, relative links are relative to where the page really is.
    String location = url;
    for (String redirect : response.followedRedirects() == null ? List.<String>of() : response.followedRedirects()) {
      location = HtmlExtraction.resolve(location, redirect).map(URI::toString).orElse(location);
    }
    return parse.apply(Jsoup.parse(SourceHttp.text(response), location));
  }

  // ---- pacing -------------------------------------------------------------------------------------------------

  /**
   * Completes when the next request may start: at least the spacing after the previous one started and after its
   * answer arrived, so the site sees its requests at least that far apart. Measured with the monotonic clock, so a
   * wall-clock jump never shortens it.
   */
  private Future<Void> turn() {
    long wait;
    synchronized (this) {
      long now = System.nanoTime();
      wait = Math.max(0, nextRequestAt - now);
      nextRequestAt = Math.max(now, nextRequestAt) + spacingNanos;
    }
    return Delays.after(vertx, (wait + 999_999) / 1_000_000);
  }

  /** Marks the end of a request (answer, error or timeout): the next one starts at least the spacing later. */
  private synchronized void answered() {
    nextRequestAt = Math.max(nextRequestAt, System.nanoTime() + spacingNanos);
  }

  // ---- helpers ------------------------------------------------------------------------------------------------

  private static String withoutFragment(String url) {
    int hash = url.indexOf('#');
    return hash < 0 ? url : url.substring(0, hash);
  }

  private static String path(String url) {
    try {
      URI uri = new URI(url);
      return uri.getRawQuery() == null ? uri.getRawPath() : uri.getRawPath() + "?" + uri.getRawQuery();
    } catch (URISyntaxException e) {
      return url;
    }
  }

}
