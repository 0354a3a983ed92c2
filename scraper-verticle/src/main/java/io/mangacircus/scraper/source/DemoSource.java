package io.mangacircus.scraper.source;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
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
  private final WebClient client;
  private final long metadataTimeoutMs;
  private final long pageTimeoutMs;
  private final List<String> challengeMarkers;

  /**
   * @param baseUrl the site root without a trailing slash, e.g. {@code http://127.0.0.1:41234}
   * @param challengeMarkers texts that mark an HTML answer as an access challenge
   */
  public DemoSource(String name, String baseUrl, WebClient client, long metadataTimeoutMs, long pageTimeoutMs,
      List<String> challengeMarkers) {
    this.challengeMarkers = List.copyOf(challengeMarkers);
    this.name = name;
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.client = client;
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
    HttpRequest<Buffer> request = client.getAbs(page.url()).timeout(pageTimeoutMs);
    return request.send().<FetchOutcome<PageBytes>>map(response -> {
      FetchOutcome<PageBytes> failure = HttpOutcomes.ofStatus(response, "page " + page.index());
      if (failure != null) {
        return failure;
      }
      Buffer body = response.body();
      String type = HttpOutcomes.mediaType(response);
      if (type.startsWith("text/html")) {
        var marker = HttpOutcomes.challengeMarker(response.bodyAsString(), challengeMarkers);
        if (marker.isPresent()) {
          return new FetchOutcome.AccessDenied<>(200, "page " + page.index() + " answered a challenge page (marker '"
              + marker.get() + "')");
        }
      }
      return new FetchOutcome.Ok<>(new PageBytes(type, body == null ? new byte[0] : body.getBytes()));
    }).otherwise(error -> HttpOutcomes.ofTransportError(error, "page " + page.index()));
  }

  private <T> Future<FetchOutcome<T>> html(String url, String what, Function<Document, FetchOutcome<T>> parse) {
    return client.getAbs(url).timeout(metadataTimeoutMs).send().<FetchOutcome<T>>map(response -> {
      FetchOutcome<T> failure = HttpOutcomes.ofStatus(response, what);
      if (failure != null) {
        return failure;
      }
      HttpResponse<Buffer> ok = response;
      String body = ok.bodyAsString();
      var marker = HttpOutcomes.challengeMarker(body, challengeMarkers);
      if (marker.isPresent()) {
        return new FetchOutcome.AccessDenied<>(200, what + " answered a challenge page (marker '" + marker.get() + "')");
      }
      return parse.apply(Jsoup.parse(body == null ? "" : body, url));
    }).otherwise(error -> HttpOutcomes.ofTransportError(error, what));
  }
}
