package io.mangacircus.scraper.source.demo;

import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceHttp;
import io.mangacircus.scraper.source.TitleInfo;
import io.vertx.core.Future;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;

/**
 * The built-in demo site's adapter: HTML pages parsed with jsoup ({@code h1.series-title}, {@code li.chapter},
 * {@code div.pages img.page}). Also the model for HTML sources in general.
 */
public final class DemoSource implements Source {

  private final String name;
  private final String baseUrl;
  private final SourceHttp http;
  private final long metadataTimeoutMs;
  private final long pageTimeoutMs;

  /** @param baseUrl the site root without a trailing slash, e.g. {@code http://127.0.0.1:41234} */
  public DemoSource(String name, String baseUrl, SourceHttp http, long metadataTimeoutMs, long pageTimeoutMs) {
    this.name = name;
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.http = http;
    this.metadataTimeoutMs = metadataTimeoutMs;
    this.pageTimeoutMs = pageTimeoutMs;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String titleIdOf(String titleRef) {
    return titleId(titleRef);
  }

  /** The title id in a reference: the id itself, or the last segment of a {@code .../series/<id>} URL. */
  static String titleId(String titleRef) {
    String ref = titleRef.trim();
    int series = ref.indexOf("/series/");
    if (series >= 0) {
      ref = ref.substring(series + "/series/".length());
      int end = ref.indexOf('/');
      ref = end < 0 ? ref : ref.substring(0, end);
    }
    return ref;
  }

  @Override
  public Future<FetchOutcome<TitleInfo>> title(String titleRef) {
    String id = titleId(titleRef);
    if (!id.matches("[A-Za-z0-9._-]{1,100}")) {
      return Future.succeededFuture(new FetchOutcome.NotFound<>("title '" + titleRef + "' is not a demo title id"));
    }
    String url = baseUrl + "/series/" + id;
    return html(url, "title " + id, document -> {
      Element heading = document.selectFirst("h1.series-title");
      if (heading == null) {
        return new FetchOutcome.ParseError<>(url + ": selector 'h1.series-title' matched nothing");
      }
      List<ChapterInfo> chapters = new ArrayList<>();
      for (Element item : document.select("ul.chapters li.chapter")) {
        String chapterId = item.attr("data-id");
        String number = item.attr("data-number");
        if (chapterId.isEmpty() || number.isEmpty()) {
          return new FetchOutcome.ParseError<>(url + ": a 'li.chapter' lacks data-id or data-number");
        }
        Element link = item.selectFirst("a");
        chapters.add(new ChapterInfo(chapterId, number, link == null ? "" : link.text(), item.attr("data-lang")));
      }
      return new FetchOutcome.Ok<>(new TitleInfo(id, heading.text(), chapters));
    });
  }

  /** The demo site has a search page. */
  @Override
  public boolean canSearch() {
    return true;
  }

  /** {@code /search?q=…}: one {@code li.result} per title, with its chapter count. */
  @Override
  public Future<FetchOutcome<List<io.mangacircus.scraper.source.TitleHit>>> search(String query, int limit) {
    String url = baseUrl + "/search?q=" + java.net.URLEncoder.encode(query, java.nio.charset.StandardCharsets.UTF_8);
    return html(url, "search for '" + query + "'", document -> {
      List<io.mangacircus.scraper.source.TitleHit> hits = new ArrayList<>();
      for (Element item : document.select("ul.results li.result")) {
        String id = item.attr("data-id");
        Element link = item.selectFirst("a");
        if (id.isEmpty() || link == null) {
          return new FetchOutcome.ParseError<>(url + ": a 'li.result' lacks data-id or its link");
        }
        if (hits.size() < limit) {
          String count = item.attr("data-chapters");
          hits.add(new io.mangacircus.scraper.source.TitleHit(id, link.text(), List.of(), null, null, List.of("en"),
              count.matches("\\d{1,6}") ? Integer.valueOf(count) : null, null, baseUrl + "/series/" + id));
        }
      }
      return new FetchOutcome.Ok<>(hits);
    });
  }

  @Override
  public Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
    String url = baseUrl + "/series/" + titleId + "/chapter/" + chapter.id();
    return html(url, "chapter " + chapter.id() + " of " + titleId, document -> {
      Elements images = document.select("div.pages img.page");
      if (images.isEmpty()) {
        return new FetchOutcome.ParseError<>(url + ": selector 'div.pages img.page' matched nothing");
      }
      List<PageRef> pages = new ArrayList<>();
      for (Element image : images) {
        String src = image.attr("src");
        if (src.isEmpty()) {
          return new FetchOutcome.ParseError<>(url + ": an 'img.page' has no src");
        }
        String absolute = URI.create(url).resolve(src).toString();
        String path = URI.create(absolute).getPath();
        pages.add(new PageRef(pages.size() + 1, path.substring(path.lastIndexOf('/') + 1), absolute));
      }
      return new FetchOutcome.Ok<>(pages);
    });
  }

  @Override
  public Future<FetchOutcome<PageBytes>> page(PageRef page) {
    String what = "page " + page.index();
    return http.get(http.request(page.url(), pageTimeoutMs), SourceHttp.MAX_IMAGE_BYTES, what, false)
        .map(answer -> answer.ok() ? new FetchOutcome.Ok<>(new PageBytes(SourceHttp.mediaType(answer.value()),
            SourceHttp.bytes(answer.value()))) : answer.<PageBytes>failure());
  }

  private <T> Future<FetchOutcome<T>> html(String url, String what, Function<Document, FetchOutcome<T>> parse) {
    return http.get(http.request(url, metadataTimeoutMs), SourceHttp.MAX_DOCUMENT_BYTES, what, true)
        .map(answer -> answer.ok() ? parse.apply(Jsoup.parse(SourceHttp.text(answer.value()), url))
            : answer.<T>failure());
  }
}
