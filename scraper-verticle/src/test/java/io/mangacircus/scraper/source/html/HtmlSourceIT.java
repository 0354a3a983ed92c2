package io.mangacircus.scraper.source.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.Sources;
import io.mangacircus.scraper.source.TitleInfo;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The HTML adapter against a small Vert.x site on loopback: pagination, spacing, size limit, challenges, charsets. */
@ExtendWith(VertxExtension.class)
@Tag("realtime")
class HtmlSourceIT {

  private static final List<String> MARKERS = List.of("just a moment...", "cf-chl-");

  /** One request as the site saw it. */
  private record Seen(String uri, long atNanos, MultiMap headers) {
  }

  private Vertx vertx;
  private final Map<String, Consumer<HttpServerResponse>> routes = new ConcurrentHashMap<>();
  private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
  private HttpServer server;
  private WebClient client;

  @BeforeEach
  void startSite(Vertx vertx, VertxTestContext context) {
    this.vertx = vertx;
    client = Sources.client(vertx);
    vertx.createHttpServer().requestHandler(request -> {
      seen.add(new Seen(request.uri(), System.nanoTime(), MultiMap.caseInsensitiveMultiMap().addAll(request.headers())));
      Consumer<HttpServerResponse> route = routes.get(request.uri());
      if (route == null) {
        request.response().setStatusCode(404).end("no such page");
      } else {
        route.accept(request.response());
      }
    }).listen(0, "127.0.0.1").onComplete(context.succeeding(started -> {
      server = started;
      context.completeNow();
    }));
  }

  @AfterEach
  void stopSite(VertxTestContext context) {
    client.close();
    server.close().onComplete(context.succeedingThenComplete());
  }

  private String base() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  private void html(String uri, int status, String contentType, byte[] body) {
    routes.put(uri, response -> response.setStatusCode(status).putHeader("Content-Type", contentType)
        .end(Buffer.buffer(body)));
  }

  private void html(String uri, String body) {
    html(uri, 200, "text/html; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
  }

  private static HtmlDefinition definition(Consumer<JsonObject> change) {
    JsonObject json = HtmlDefinitionsTest.minimal();
    change.accept(json);
    return HtmlDefinitions.parse(json.encode().getBytes(StandardCharsets.UTF_8), "test.json");
  }

  private HtmlSource source(HtmlDefinition definition, long spacingMs) {
    return new HtmlSource("site", definition, base(), MARKERS, spacingMs, vertx, client, 10_000, 10_000);
  }

  private static String listPage(String next, int... chapters) {
    StringBuilder html = new StringBuilder("<html><body><h1>Paged Title</h1><div id=\"chapters\">");
    for (int chapter : chapters) {
      html.append("<a href=\"/chapters/c").append(chapter).append("\">").append(chapter).append("</a>");
    }
    html.append("</div>");
    if (next != null) {
      html.append("<nav><a rel=\"next\" href=\"").append(next).append("\">Next</a></nav>");
    }
    return html.append("</body></html>").toString();
  }

  private static HtmlDefinition paged(int maxPages) {
    return definition(json -> json.getJsonObject("chapters").put("order", "newest-first")
        .put("pagination", new JsonObject().put("next", "a[rel=next]").put("maxPages", maxPages)));
  }

  @Test
  void aPaginatedChapterListIsReadPageByPageWithRequestsSpacedByThePageDelay(VertxTestContext context) {
    html("/manga/7", listPage("?page=2", 5, 4));
    html("/manga/7?page=2", listPage("/manga/7?page=3#top", 3, 2));
    html("/manga/7?page=3", listPage("/manga/7", 1));

    verify(context, source(paged(5), 300).title(base() + "/manga/7"), outcome -> {
      assertThat(outcome.ok()).as(outcome.describe()).isTrue();
      assertThat(outcome.value().title()).isEqualTo("Paged Title");
      assertThat(outcome.value().chapters()).extracting(ChapterInfo::id).containsExactly("c1", "c2", "c3", "c4", "c5");
      assertThat(seen).extracting(Seen::uri).as("the last page's link back to the first is not followed")
          .containsExactly("/manga/7", "/manga/7?page=2", "/manga/7?page=3");
      for (int i = 1; i < seen.size(); i++) {
        assertThat(TimeUnit.NANOSECONDS.toMillis(seen.get(i).atNanos() - seen.get(i - 1).atNanos()))
            .as("spacing before request %d", i + 1).isGreaterThanOrEqualTo(300);
      }
      assertThat(seen.get(0).headers().get("User-Agent")).isEqualTo(Sources.USER_AGENT);
    });
  }

  @Test
  void aChapterListLongerThanMaxPagesIsAParserFailure(VertxTestContext context) {
    html("/manga/7", listPage("?page=2", 3));
    html("/manga/7?page=2", listPage("?page=3", 2));
    html("/manga/7?page=3", listPage(null, 1));

    verify(context, source(paged(2), 0).title("7"), outcome -> {
      assertThat(outcome).isInstanceOf(FetchOutcome.ParseError.class);
      assertThat(outcome.describe()).contains("goes on after 2 pages (chapters.pagination.maxPages)");
      assertThat(seen).hasSize(2);
    });
  }

  @Test
  void anHtmlAnswerOverFiveMebibytesIsAParserFailureWhetherItsLengthIsAnnouncedOrNot(VertxTestContext context) {
    byte[] big = ("<h1>x</h1>" + "<p>filler</p>".repeat(HtmlSource.MAX_HTML_BYTES / 13 + 10))
        .getBytes(StandardCharsets.UTF_8);
    html("/manga/big", 200, "text/html", big);
    routes.put("/manga/endless", response -> {
      response.setChunked(true).putHeader("Content-Type", "text/html");
      Buffer chunk = Buffer.buffer("<p>more</p>".repeat(6_000));
      for (int i = 0; i < 120; i++) {
        response.write(chunk);
      }
      response.end();
    });
    HtmlSource source = source(definition(json -> { }), 0);

    verify(context, titles(source, "big", "endless"), outcomes -> outcomes.forEach((title, outcome) -> {
      assertThat(outcome).as(title).isInstanceOf(FetchOutcome.ParseError.class);
      assertThat(outcome.describe()).isEqualTo("parse error: title " + title + " (/manga/" + title
          + ") is larger than 5 MiB; it was not read further");
    }));
  }

  @Test
  void aChallengePageIsAnAccessRefusalWhetherServedWith200Or503(VertxTestContext context) {
    String challenge = "<html><head><title>Just a moment...</title></head><body>checking</body></html>";
    html("/manga/ok-status", challenge);
    html("/manga/unavailable-status", 503, "text/html", challenge.getBytes(StandardCharsets.UTF_8));
    html("/manga/plain-503", 503, "text/html", "<h1>down for maintenance</h1>".getBytes(StandardCharsets.UTF_8));
    html("/manga/gone", 404, "text/html", challenge.getBytes(StandardCharsets.UTF_8));
    HtmlSource source = source(definition(json -> { }), 0);

    verify(context, titles(source, "ok-status", "unavailable-status", "plain-503", "gone", "absent",
        "../../etc/passwd"), outcomes -> {
          assertThat(outcomes.get("ok-status")).isEqualTo(new FetchOutcome.AccessDenied<>(200,
              "title ok-status answered a challenge page (marker 'just a moment...')"));
          assertThat(outcomes.get("unavailable-status")).isEqualTo(new FetchOutcome.AccessDenied<>(503,
              "title unavailable-status answered a challenge page (marker 'just a moment...')"));
          assertThat(outcomes.get("plain-503")).as("a 5xx without a marker stays a server error")
              .isInstanceOf(FetchOutcome.ServerError.class);
          assertThat(outcomes.get("gone")).as("a marker on a 404 page does not make it a challenge")
              .isInstanceOf(FetchOutcome.NotFound.class);
          assertThat(outcomes.get("absent")).isInstanceOf(FetchOutcome.NotFound.class);
          assertThat(outcomes.get("../../etc/passwd")).isInstanceOf(FetchOutcome.NotFound.class);
          assertThat(seen).extracting(Seen::uri).as("an unusable id is never requested")
              .doesNotContain("/manga/../../etc/passwd", "/etc/passwd");
        });
  }

  @Test
  void linksOfARedirectedTitlePageAreRelativeToWhereItLanded(VertxTestContext context) {
    routes.put("/manga/7", response -> response.setStatusCode(301).putHeader("Location", "/manga/7/full-name").end());
    html("/manga/7/full-name", listPage("?page=2", 2));
    html("/manga/7/full-name?page=2", listPage(null, 1));

    verify(context, source(paged(5), 0).title("7"), outcome -> {
      assertThat(outcome.ok()).as(outcome.describe()).isTrue();
      assertThat(outcome.value().chapters()).extracting(ChapterInfo::id).containsExactly("c1", "c2");
      assertThat(seen).extracting(Seen::uri).containsExactly("/manga/7", "/manga/7/full-name",
          "/manga/7/full-name?page=2");
    });
  }

  @Test
  void theDeclaredCharsetIsUsed(VertxTestContext context) {
    html("/manga/latin", 200, "text/html; charset=ISO-8859-1", listPage(null, 1).replace("Paged Title", "Élan Vital")
        .getBytes(StandardCharsets.ISO_8859_1));

    verify(context, source(definition(json -> { }), 0).title("latin"),
        outcome -> assertThat(outcome.value().title()).isEqualTo("Élan Vital"));
  }

  @Test
  void pagesAreListedFromTheChapterPageAndFetchedWithTheSiteAsReferer(VertxTestContext context) {
    html("/chapters/c1", "<div><img class=\"js-page\" data-src=\"/img/1.png\"><img class=\"js-page\" src=\"/img/2.png\">"
        + "</div>");
    byte[] png = {(byte) 0x89, 'P', 'N', 'G'};
    routes.put("/img/1.png", response -> response.putHeader("Content-Type", "image/png").end(Buffer.buffer(png)));
    routes.put("/img/2.png", response -> response.putHeader("Content-Type", "text/html")
        .end("<title>Just a moment...</title>"));
    HtmlSource source = source(definition(json -> { }), 0);

    List<FetchOutcome<PageBytes>> fetched = new ArrayList<>();
    Future<List<PageRef>> listed = source.pages("7", new ChapterInfo("c1", "1", "", "en")).map(FetchOutcome::value);
    Future<List<PageRef>> both = listed.compose(pages -> source.page(pages.get(0)).compose(first -> {
      fetched.add(first);
      return source.page(pages.get(1));
    }).map(second -> {
      fetched.add(second);
      return pages;
    }));

    verify(context, both, pages -> {
      assertThat(pages).extracting(PageRef::url).containsExactly(base() + "/img/1.png", base() + "/img/2.png");
      assertThat(fetched.get(0).value().bytes()).isEqualTo(png);
      assertThat(fetched.get(0).value().contentType()).isEqualTo("image/png");
      assertThat(seen.stream().filter(s -> s.uri().equals("/img/1.png")).findFirst().orElseThrow().headers()
          .get("Referer")).isEqualTo(base() + "/");
      assertThat(fetched.get(1)).isInstanceOf(FetchOutcome.AccessDenied.class);
    });
  }

  /** The titles fetched one after the other, each outcome under its id. */
  private static Future<Map<String, FetchOutcome<TitleInfo>>> titles(HtmlSource source, String... ids) {
    Map<String, FetchOutcome<TitleInfo>> outcomes = new LinkedHashMap<>();
    Future<Void> chain = Future.succeededFuture();
    for (String id : ids) {
      chain = chain.compose(v -> source.title(id).map(outcome -> {
        outcomes.put(id, outcome);
        return null;
      }));
    }
    return chain.map(v -> outcomes);
  }

  @Test
  void aSiteListingChaptersInSeveralLanguagesPreviewsEachOfThemAcrossItsListPages(VertxTestContext context) {
    html("/manga/7", "<h1>Lune</h1><div id=chapters><a href=\"/chapters/1\" data-lang=\"en\">1</a>"
        + "<a href=\"/chapters/1-fr\" data-lang=\"fr\">1</a></div><a rel=next href=\"?page=2\">Next</a>");
    html("/manga/7?page=2", "<h1>Lune</h1><div id=chapters><a href=\"/chapters/2-br\" data-lang=\"pt-BR\">2</a>"
        + "</div>");
    HtmlDefinition multilingual = definition(json -> json.getJsonObject("chapters")
        .put("language", new JsonObject().put("attribute", "data-lang"))
        .put("pagination", new JsonObject().put("next", "a[rel=next]")));

    verify(context, source(multilingual, 0).preview("7"), outcome -> {
      assertThat(outcome.ok()).as(outcome.describe()).isTrue();
      assertThat(outcome.value().languages()).as("the Add titles page's language choice")
          .containsExactly("en", "fr", "pt-br");
      assertThat(outcome.value().chapters()).extracting(c -> c.info().id() + "@" + c.info().language())
          .containsExactly("1@en", "1-fr@fr", "2-br@pt-br");
    });
  }

  /** Runs the checks on the future's result in the test context, and completes it once they pass. */
  private static <T> void verify(VertxTestContext context, Future<T> result, Consumer<T> checks) {
    result.onComplete(context.succeeding(value -> context.verify(() -> {
      checks.accept(value);
      context.completeNow();
    })));
  }
}
