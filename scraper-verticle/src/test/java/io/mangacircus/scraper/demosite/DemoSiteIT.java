package io.mangacircus.scraper.demosite;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A real demo site on a free loopback port, seen through the JDK's HTTP client, with and without faults. */
@ExtendWith(VertxExtension.class)
@Tag("realtime")
class DemoSiteIT {

  private static final DemoCatalog CATALOG = SharedDemoCatalog.CATALOG;
  private static final Pattern IMG_SRC = Pattern.compile("<img class=\"page\" src=\"([^\"]+)\" alt=\"Page (\\d+)\">");
  private static final String PAGE_ONE = "/img/circus-nights/c1/001.jpg";

  private final DemoFaults faults = new DemoFaults();
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private DemoSite site;

  @BeforeEach
  void startSite(Vertx vertx, VertxTestContext context) {
    DemoSite.start(vertx, "127.0.0.1", 0, CATALOG, faults).onComplete(context.succeeding(started -> {
      site = started;
      context.completeNow();
    }));
  }

  @AfterEach
  void closeSite(VertxTestContext context) {
    site.close().onComplete(context.succeedingThenComplete());
  }

  @Test
  void siteListensOnTheLoopbackPortItReports() {
    assertThat(site.port()).isPositive();
    assertThat(site.baseUrl()).isEqualTo("http://127.0.0.1:" + site.port());
  }

  @Test
  void indexLinksEverySeries() throws Exception {
    HttpResponse<byte[]> index = get("/");

    assertThat(index.statusCode()).isEqualTo(200);
    assertThat(index.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    assertThat(text(index)).contains(
        "<a class=\"series\" href=\"/series/circus-nights\">Circus Nights</a>",
        "<a class=\"series\" href=\"/series/tightrope-walker\">The Tightrope Walker</a>",
        "<a class=\"series\" href=\"/series/lion-tamer\">The Lion Tamer</a>");
  }

  @Test
  void theDemoSourceSearchesTheSitesSearchPageByTitle(Vertx vertx, VertxTestContext context) {
    io.vertx.ext.web.client.WebClient client = io.mangacircus.scraper.source.Sources.client(vertx);
    io.mangacircus.scraper.source.demo.DemoSource source = new io.mangacircus.scraper.source.demo.DemoSource("demo",
        site.baseUrl(), new io.mangacircus.scraper.source.SourceHttp(client, java.time.InstantSource.system(),
            java.util.List.of()), 5_000, 5_000);

    assertThat(source.canSearch()).isTrue();
    source.search("The", 20).compose(found -> source.search("nothing like it", 20).map(none -> {
      context.verify(() -> {
        assertThat(found.value()).extracting(hit -> hit.titleId())
            .containsExactly("tightrope-walker", "lion-tamer");
        assertThat(found.value().get(1).chapterCount()).isEqualTo(3);
        assertThat(found.value().get(1).url()).isEqualTo(site.baseUrl() + "/series/lion-tamer");
        assertThat(none.value()).isEmpty();
      });
      return null;
    })).onComplete(context.succeedingThenComplete());
  }

  @Test
  void seriesPageListsChaptersWithIdNumberAndLanguage() throws Exception {
    String html = text(get("/series/lion-tamer"));

    assertThat(html).startsWith("<html><head><title>The Lion Tamer</title></head><body>"
        + "<h1 class=\"series-title\">The Lion Tamer</h1><p class=\"description\">");
    assertThat(html).contains("<ul class=\"chapters\">"
        + "<li class=\"chapter\" data-id=\"c1\" data-number=\"1\" data-lang=\"en\">"
        + "<a href=\"/series/lion-tamer/chapter/c1\">Chapter 1: The Cage</a></li>"
        + "<li class=\"chapter\" data-id=\"c2\" data-number=\"2\" data-lang=\"en\">"
        + "<a href=\"/series/lion-tamer/chapter/c2\">Chapter 2: The Roar</a></li>"
        + "<li class=\"chapter\" data-id=\"c2-fr\" data-number=\"2\" data-lang=\"fr\">"
        + "<a href=\"/series/lion-tamer/chapter/c2-fr\">Chapter 2: Le Rugissement</a></li>"
        + "</ul></body></html>");
    assertThat(text(get("/series/circus-nights"))).contains("acrobats &amp; clowns").doesNotContain("acrobats & clowns");
  }

  @Test
  void chapterPageListsOneNumberedImagePerPage() throws Exception {
    List<String> sources = imageSources("/series/circus-nights/chapter/c4");

    assertThat(sources).hasSize(24);
    assertThat(sources.get(0)).isEqualTo("/img/circus-nights/c4/001.jpg");
    assertThat(sources.get(23)).isEqualTo("/img/circus-nights/c4/024.jpg");
    assertThat(imageSources("/series/tightrope-walker/chapter/c2")).hasSize(14).first()
        .isEqualTo("/img/tightrope-walker/c2/001.png");
  }

  @Test
  void imagesAreServedWithTheirContentTypeAndExactLength() throws Exception {
    HttpResponse<byte[]> jpeg = get("/img/lion-tamer/c2-fr/012.jpg");
    HttpResponse<byte[]> png = get("/img/tightrope-walker/c3/020.png");

    assertThat(jpeg.statusCode()).isEqualTo(200);
    assertThat(jpeg.headers().firstValue("Content-Type")).contains("image/jpeg");
    assertThat(jpeg.headers().firstValueAsLong("Content-Length")).hasValue(jpeg.body().length);
    assertThat(jpeg.body()).isEqualTo(CATALOG.pageImage("lion-tamer", "c2-fr", 12));
    assertThat(png.headers().firstValue("Content-Type")).contains("image/png");
    assertThat(png.headers().firstValueAsLong("Content-Length")).hasValue(png.body().length);
    for (byte[] body : List.of(jpeg.body(), png.body())) {
      BufferedImage image = ImageIO.read(new ByteArrayInputStream(body));
      assertThat(new int[] {image.getWidth(), image.getHeight()}).containsExactly(800, 1200);
    }
  }

  @Test
  void wrongExtensionUnknownPageChapterOrSeriesIsNotFound() throws Exception {
    for (String path : List.of("/img/circus-nights/c1/001.png", "/img/circus-nights/c1/013.jpg",
        "/img/circus-nights/c1/000.jpg", "/img/circus-nights/c1/1.jpg", "/img/circus-nights/c9/001.jpg",
        "/img/juggler/c1/001.jpg", "/series/juggler", "/series/lion-tamer/chapter/c9", "/nowhere")) {
      HttpResponse<byte[]> answer = get(path);
      assertThat(answer.statusCode()).as(path).isEqualTo(404);
      assertThat(answer.headers().firstValue("Content-Type")).as(path)
          .hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    }
  }

  @Test
  void onlyGetIsAnswered() throws Exception {
    assertThat(send(request("/").POST(HttpRequest.BodyPublishers.noBody())).statusCode()).isEqualTo(405);
    assertThat(send(request(PAGE_ONE).DELETE()).statusCode()).isEqualTo(405);
    assertThat(send(request("/nowhere").POST(HttpRequest.BodyPublishers.noBody())).statusCode()).isEqualTo(404);
  }

  @Test
  void requestsAreCountedExactlyPerPathWhateverTheAnswer() throws Exception {
    faults.failNext("/img/lion-tamer/", 1, 503);
    get("/series/circus-nights");
    get("/series/circus-nights");
    get(PAGE_ONE);
    get("/img/circus-nights/c1/099.jpg");
    get("/img/lion-tamer/c1/001.jpg");
    get("/img/lion-tamer/c1/001.jpg");

    assertThat(site.requests("/series/circus-nights")).isEqualTo(2);
    assertThat(site.requests(PAGE_ONE)).isEqualTo(1);
    assertThat(site.requests("/series/lion-tamer")).isZero();
    assertThat(site.imageRequests()).isEqualTo(4);
    assertThat(site.requestCounts()).isEqualTo(Map.of("/series/circus-nights", 2L, PAGE_ONE, 1L,
        "/img/circus-nights/c1/099.jpg", 1L, "/img/lion-tamer/c1/001.jpg", 2L));
  }

  @Test
  void slowPagesDelaysImagesButNotHtml() throws Exception {
    get(PAGE_ONE);
    faults.slowPages(Duration.ofMillis(1500));

    long start = System.nanoTime();
    CompletableFuture<HttpResponse<byte[]>> image = http.sendAsync(request(PAGE_ONE).build(), BodyHandlers.ofByteArray());
    assertThat(get("/series/circus-nights/chapter/c1").statusCode()).isEqualTo(200);
    assertThat(image).isNotDone();
    await().atMost(Duration.ofSeconds(10)).until(image::isDone);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
    assertThat(image.get().statusCode()).isEqualTo(200);

    // Lifting the delay: with a five-minute delay set and then cleared, an answer within the request's
    // ten-second timeout proves the delay is off, with no tight bound that a loaded machine could miss.
    faults.slowPages(Duration.ofMinutes(5));
    faults.slowPages(Duration.ZERO);
    assertThat(get(PAGE_ONE).statusCode()).isEqualTo(200);
  }

  @Test
  void hungPathIsNeverAnsweredUntilCleared() throws Exception {
    faults.hang(PAGE_ONE);

    assertThatThrownBy(() -> send(request(PAGE_ONE).timeout(Duration.ofSeconds(1))))
        .isInstanceOf(HttpTimeoutException.class);
    assertThat(site.requests(PAGE_ONE)).isEqualTo(1);
    assertThat(get("/img/circus-nights/c1/002.jpg").statusCode()).isEqualTo(200);

    faults.clear();
    assertThat(get(PAGE_ONE).statusCode()).isEqualTo(200);
  }

  @Test
  void failNextAnswersTheStatusCountTimesThenServesNormally() throws Exception {
    faults.failNext("/img/circus-nights/", 2, 500);

    for (int i = 0; i < 2; i++) {
      HttpResponse<byte[]> failed = get(PAGE_ONE);
      assertThat(failed.statusCode()).isEqualTo(500);
      assertThat(failed.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
      assertThat(text(failed)).contains("500 Internal Server Error");
    }
    assertThat(get(PAGE_ONE).headers().firstValue("Content-Type")).contains("image/jpeg");
  }

  @Test
  void rateLimitedHtmlPageSaysWhenToRetry() throws Exception {
    faults.failNext("/series/", 1, 429);

    HttpResponse<byte[]> limited = get("/series/circus-nights");
    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(limited.headers().firstValue("Retry-After")).contains("1");
    assertThat(get("/series/circus-nights").statusCode()).isEqualTo(200);
    assertThat(get("/series/circus-nights").headers().firstValue("Retry-After")).isEmpty();
  }

  @Test
  void truncatedImageIsTheFirstHalfWithAMatchingLength() throws Exception {
    byte[] full = CATALOG.pageImage("circus-nights", "c1", 1);
    faults.truncateNext("/img/", 1);

    HttpResponse<byte[]> truncated = get(PAGE_ONE);
    byte[] body = truncated.body();
    assertThat(truncated.statusCode()).isEqualTo(200);
    assertThat(truncated.headers().firstValue("Content-Type")).contains("image/jpeg");
    assertThat(truncated.headers().firstValueAsLong("Content-Length")).hasValue(full.length / 2);
    assertThat(body).hasSize(full.length / 2).isEqualTo(Arrays.copyOf(full, full.length / 2));
    assertThat(Arrays.copyOfRange(body, body.length - 2, body.length)).isNotEqualTo(new byte[] {(byte) 0xFF, (byte) 0xD9});
    assertThat(get(PAGE_ONE).body()).isEqualTo(full);
  }

  @Test
  void resetClosesTheConnectionWithoutSendingAByte() throws Exception {
    faults.resetNext("/img/", 1);

    try (Socket socket = new Socket("127.0.0.1", site.port())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(("GET " + PAGE_ONE + " HTTP/1.1\r\nHost: demo\r\n\r\n").getBytes(UTF_8));
      assertThat(socket.getInputStream().readAllBytes()).isEmpty();
    }
    assertThat(site.requests(PAGE_ONE)).isEqualTo(1);
    assertThat(get(PAGE_ONE).statusCode()).isEqualTo(200);
  }

  @Test
  void resetTwiceIsAnIOExceptionForTheJdkClientWhichRetriesOnce() throws Exception {
    faults.resetNext("/series/", 2);

    assertThatThrownBy(() -> get("/series/lion-tamer")).isInstanceOf(IOException.class);
    assertThat(site.requests("/series/lion-tamer")).isEqualTo(2);
    assertThat(get("/series/lion-tamer").statusCode()).isEqualTo(200);
  }

  @Test
  void htmlInsteadOfImageIsA200HtmlPage() throws Exception {
    faults.htmlInsteadOfImageNext("/img/tightrope-walker/", 1);

    HttpResponse<byte[]> answer = get("/img/tightrope-walker/c1/001.png");
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    assertThat(text(answer)).startsWith("<html>").contains("Something went wrong");
    assertThat(get("/img/tightrope-walker/c1/001.png").headers().firstValue("Content-Type")).contains("image/png");
  }

  @Test
  void changedPageListAddsOneServedPageAndKeepsTheOthers() throws Exception {
    String chapter = "/series/circus-nights/chapter/c3";
    byte[] firstPage = get("/img/circus-nights/c3/001.jpg").body();
    assertThat(imageSources(chapter)).hasSize(10);
    assertThat(get("/img/circus-nights/c3/011.jpg").statusCode()).isEqualTo(404);

    faults.changePageList("circus-nights", "c3");

    assertThat(imageSources(chapter)).hasSize(11).last().isEqualTo("/img/circus-nights/c3/011.jpg");
    HttpResponse<byte[]> added = get("/img/circus-nights/c3/011.jpg");
    assertThat(added.statusCode()).isEqualTo(200);
    assertThat(ImageIO.read(new ByteArrayInputStream(added.body())).getHeight()).isEqualTo(1200);
    assertThat(get("/img/circus-nights/c3/001.jpg").body()).isEqualTo(firstPage);
    assertThat(imageSources("/series/circus-nights/chapter/c2")).hasSize(18);
  }

  @Test
  void clearRestoresNormalBehaviour() throws Exception {
    faults.slowPages(Duration.ofSeconds(30));
    faults.hang(PAGE_ONE);
    faults.failNext("/", 5, 503);
    faults.resetNext("/", 5);
    faults.truncateNext("/", 5);
    faults.htmlInsteadOfImageNext("/", 5);
    faults.changePageList("circus-nights", "c1");

    faults.clear();

    assertThat(imageSources("/series/circus-nights/chapter/c1")).hasSize(12);
    HttpResponse<byte[]> image = send(request(PAGE_ONE).timeout(Duration.ofSeconds(10)));
    assertThat(image.statusCode()).isEqualTo(200);
    assertThat(image.body()).isEqualTo(CATALOG.pageImage("circus-nights", "c1", 1));
  }

  private List<String> imageSources(String chapterPath) throws Exception {
    Matcher img = IMG_SRC.matcher(text(get(chapterPath)));
    List<String> sources = new ArrayList<>();
    while (img.find()) {
      assertThat(img.group(2)).isEqualTo(String.valueOf(sources.size() + 1));
      sources.add(img.group(1));
    }
    return sources;
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(site.baseUrl() + path)).timeout(Duration.ofSeconds(10));
  }

  private HttpResponse<byte[]> get(String path) throws IOException, InterruptedException {
    return send(request(path));
  }

  private HttpResponse<byte[]> send(HttpRequest.Builder request) throws IOException, InterruptedException {
    return http.send(request.build(), BodyHandlers.ofByteArray());
  }

  private static String text(HttpResponse<byte[]> response) {
    return new String(response.body(), UTF_8);
  }
}
