package io.mangacircus.scraper.source.suwayomi;

import static io.mangacircus.scraper.source.suwayomi.SuwayomiFake.LANG;
import static io.mangacircus.scraper.source.suwayomi.SuwayomiFake.MANGA;
import static io.mangacircus.scraper.source.suwayomi.SuwayomiFake.SOURCE_ID;
import static io.mangacircus.scraper.source.suwayomi.SuwayomiFake.STACK_MARK;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.RequestLines;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceTypes;
import io.mangacircus.scraper.source.Sources;
import io.mangacircus.scraper.source.TitleHit;
import io.mangacircus.scraper.source.TitleInfo;
import io.mangacircus.scraper.source.TitlePreview;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The Suwayomi bridge on its own against a fake Suwayomi server on loopback ({@link SuwayomiFake}, one for the class):
 * search, preview, title, page lists and pages, basic auth, and each way the server or the site behind it says no.
 */
class SuwayomiSourceIT {

  private static final String PASSWORD = "br1dge-Secret";
  private static final ChapterInfo CHAPTER_1 = new ChapterInfo(String.valueOf(SuwayomiFake.chapterId(MANGA, 1)), "1",
      "Chapitre 1", LANG);

  private static SuwayomiFake fake;
  private static Vertx vertx;
  private static WebClient client;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    fake = new SuwayomiFake();
    vertx = Vertx.vertx();
    client = Sources.client(vertx);
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    fake.stop();
  }

  @BeforeEach
  void resetFake() {
    fake.reset();
  }

  private static ScraperConfig config(long timeoutSeconds, SourceConfig source) {
    return new ScraperConfig(0, true, 120, 50, timeoutSeconds, timeoutSeconds, new ScraperConfig.Recovery(50, 0),
        new ScraperConfig.Demo(false, 0, "circus-nights"), Map.of("bridge", source),
        new ScraperConfig.Failures(300, 2, 100, 3, 300, 2, 60), new ScraperConfig.Stall(30, 900, 180));
  }

  private Source bridge(String baseUrl, Map<String, Object> extra, long timeoutSeconds) {
    Map<String, Object> options = new HashMap<>(Map.of("sourceId", SOURCE_ID));
    options.putAll(extra);
    SourceConfig source = new SourceConfig("suwayomi", baseUrl, 0, 0, SourceConfig.DEFAULT_CHALLENGE_MARKERS,
        options);
    return SourceTypes.resolve("bridge", source, dir).create(vertx, client, InstantSource.system(),
        config(timeoutSeconds, source), new RequestLines(InstantSource.system()));
  }

  private Source bridge() {
    return bridge(fake.baseUrl(), Map.of(), 30);
  }

  /** Calls the adapter on a Vert.x context, as a lane does, and waits for the outcome. */
  private static <T> T await(Supplier<Future<T>> call) {
    Promise<T> done = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> call.get().onComplete(done::handle));
    try {
      return done.future().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("operation did not complete: " + e, e);
    }
  }

  // ---- what works ------------------------------------------------------------------------------------------------

  @Test
  void aSearchFindsTheSourcesMangasWithCoversServedByTheServer() {
    Source bridge = bridge();
    assertThat(bridge.canSearch()).isTrue();

    FetchOutcome<List<TitleHit>> found = await(() -> bridge.search("pont", 10));

    assertThat(found.ok()).as("%s", found).isTrue();
    assertThat(found.value()).singleElement().satisfies(hit -> {
      assertThat(hit.titleId()).isEqualTo(String.valueOf(MANGA));
      assertThat(hit.title()).isEqualTo("Le Pont");
      assertThat(hit.status()).isEqualTo("ongoing");
      assertThat(hit.coverUrl()).isEqualTo(fake.baseUrl() + "/api/v1/manga/" + MANGA + "/thumbnail");
    });
    FetchOutcome<PageBytes> cover = await(() -> bridge.cover(found.value().get(0).coverUrl()));
    assertThat(cover.value().bytes()).isEqualTo(fake.page(MANGA, 0, 0));
    assertThat(await(() -> bridge.cover("http://elsewhere.example/x.png"))).as("only the server's own paths")
        .isInstanceOf(FetchOutcome.NotFound.class);
  }

  @Test
  void aPreviewListsTheChaptersInReadingOrderWithTheirNumbersLanguageAndUploadDates() {
    FetchOutcome<TitlePreview> preview = await(() -> bridge().preview(String.valueOf(MANGA)));

    assertThat(preview.ok()).as("%s", preview).isTrue();
    TitlePreview p = preview.value();
    assertThat(p.title()).isEqualTo("Le Pont");
    assertThat(p.description()).isEqualTo("Un pont entre deux rives.");
    assertThat(p.tags()).containsExactly("Drame", "Aventure");
    assertThat(p.chapters()).extracting(c -> c.info().id()).containsExactly(String.valueOf(MANGA * 1000 + 1),
        String.valueOf(MANGA * 1000 + 2), String.valueOf(MANGA * 1000 + 3));
    assertThat(p.chapters()).extracting(c -> c.info().number()).containsExactly("1", "1.5", "3");
    assertThat(p.chapters()).extracting(c -> c.info().language()).containsOnly(LANG);
    assertThat(p.chapters().get(0).publishedAt()).isEqualTo(Instant.ofEpochMilli(1_700_000_000_000L));
    assertThat(p.languages()).containsExactly(LANG);
  }

  @Test
  void aTitleIsReadInTheLanguageOfItsSuwayomiSourceWithItsMetadata() {
    FetchOutcome<TitleInfo> title = await(() -> bridge().title(String.valueOf(MANGA), Duration.ZERO,
        new Source.Wanted(LANG, List.of())));

    assertThat(title.ok()).as("%s", title).isTrue();
    assertThat(title.value().languages()).containsExactly(LANG);
    assertThat(title.value().chapters()).hasSize(3);
    assertThat(title.value().rating()).isEqualTo(AgeRating.UNRATED);
    assertThat(title.value().metadata().summary()).isEqualTo("Un pont entre deux rives.");
    assertThat(title.value().metadata().authors()).extracting(a -> a.name()).containsExactly("Une Autrice");
    assertThat(bridge().titleIdOf(fake.baseUrl() + "/manga/" + MANGA)).as("a web UI link names its manga")
        .isEqualTo(String.valueOf(MANGA));
  }

  @Test
  void aMangaOfAnotherSuwayomiSourceIsNotOneOfThisSourcesTitles() {
    FetchOutcome<TitleInfo> title = await(() -> bridge().title(String.valueOf(SuwayomiFake.OTHER_SOURCES_MANGA)));

    assertThat(title).isInstanceOf(FetchOutcome.NotFound.class);
    assertThat(title.describe()).contains("belongs to Suwayomi source");
  }

  @Test
  void pagesAreFetchedRightAfterThePageListThatMakesTheServerServeThem() {
    Source bridge = bridge();
    String path = fake.baseUrl() + "/api/v1/manga/" + MANGA + "/chapter/1/page/0";
    assertThat(await(() -> bridge.page(new PageRef(1, "x", path)))).as("before fetchChapterPages, as Suwayomi")
        .isInstanceOf(FetchOutcome.NotFound.class);

    FetchOutcome<List<PageRef>> pages = await(() -> bridge.pages(String.valueOf(MANGA), CHAPTER_1));

    assertThat(pages.ok()).as("%s", pages).isTrue();
    assertThat(pages.value()).extracting(PageRef::url).containsExactly(path,
        fake.baseUrl() + "/api/v1/manga/" + MANGA + "/chapter/1/page/1");
    for (PageRef page : pages.value()) {
      FetchOutcome<PageBytes> bytes = await(() -> bridge.page(page));
      assertThat(bytes.value().contentType()).isEqualTo("image/png");
      assertThat(bytes.value().bytes()).isEqualTo(fake.page(MANGA, 1, page.index() - 1));
    }
  }

  @Test
  void aServerUnderASubpathIsAskedThere() {
    FetchOutcome<List<TitleHit>> found = await(() -> bridge(fake.baseUrl() + "/manga/", Map.of(), 30)
        .search("pont", 10));

    assertThat(found).as("the fake serves nothing under /manga: the request went there").isNotInstanceOf(
        FetchOutcome.Ok.class);
    assertThat(fake.journal()).extracting(SuwayomiFake.Exchange::path).containsExactly("/manga/api/graphql");
  }

  // ---- authentication --------------------------------------------------------------------------------------------

  @Test
  void basicAuthIsSentWithEveryRequestAndThePasswordIsNeverLogged() throws Exception {
    fake.requireBasicAuth("reader", PASSWORD);
    Files.writeString(dir.resolve("suwayomi.password"), PASSWORD + "\n");
    // Our lines and the HTTP client's (the fake's own WireMock logging is not MangaCircus's).
    List<Logger> loggers = List.of((Logger) LoggerFactory.getLogger("io.mangacircus"),
        (Logger) LoggerFactory.getLogger("io.vertx"), (Logger) LoggerFactory.getLogger("io.netty"));
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    loggers.forEach(logger -> logger.addAppender(lines));
    try {
      Source bridge = bridge(fake.baseUrl(), Map.of("auth", "basic", "username", "reader",
          "passwordFile", "suwayomi.password"), 30);
      assertThat(await(() -> bridge.search("pont", 10)).ok()).isTrue();
      List<PageRef> pages = await(() -> bridge.pages(String.valueOf(MANGA), CHAPTER_1)).value();
      assertThat(await(() -> bridge.page(pages.get(0))).value().bytes()).isEqualTo(fake.page(MANGA, 1, 0));
      fake.uninstall();
      assertThat(await(() -> bridge.search("pont", 10))).isInstanceOf(FetchOutcome.Held.class);

      FetchOutcome<List<TitleHit>> anonymous = await(() -> bridge().search("pont", 10));
      assertThat(anonymous).isInstanceOfSatisfying(FetchOutcome.AccessDenied.class,
          a -> assertThat(a.status()).isEqualTo(401));
      assertThat(anonymous.describe()).doesNotContain(PASSWORD);
    } finally {
      loggers.forEach(logger -> logger.detachAppender(lines));
    }
    assertThat(lines.list).as("something was logged").isNotEmpty();
    assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).allSatisfy(line -> assertThat(line)
        .doesNotContain(PASSWORD).doesNotContain(java.util.Base64.getEncoder().encodeToString(
            ("reader:" + PASSWORD).getBytes(java.nio.charset.StandardCharsets.UTF_8))));
  }

  // ---- refusals and failures -------------------------------------------------------------------------------------

  @Test
  void aCloudflareChallengeOfTheSiteIsAnAccessRefusalWithoutTheStackTrace() {
    fake.sourceThrows("Cloudflare bypass currently disabled");

    FetchOutcome<List<TitleHit>> found = await(() -> bridge().search("pont", 10));

    assertThat(found).isInstanceOf(FetchOutcome.AccessDenied.class);
    assertThat(found.describe()).contains("Cloudflare").doesNotContain(STACK_MARK).doesNotContain("\r\n");
  }

  @Test
  void theSitesHttpErrorsAreMappedByStatus() {
    fake.sourceThrows("HTTP error 403");
    assertThat(await(() -> bridge().title(String.valueOf(MANGA)))).isInstanceOf(FetchOutcome.AccessDenied.class);
    fake.sourceThrows("HTTP error 502");
    assertThat(await(() -> bridge().pages(String.valueOf(MANGA), CHAPTER_1)))
        .isInstanceOfSatisfying(FetchOutcome.ServerError.class, s -> assertThat(s.status()).isEqualTo(502));
  }

  @Test
  void anUninstalledSourceHoldsTheBridgeWithAReasonAndSendsNothingMore() {
    fake.uninstall();
    Source bridge = bridge();

    FetchOutcome<TitleInfo> title = await(() -> bridge.title(String.valueOf(MANGA)));

    assertThat(title).isInstanceOfSatisfying(FetchOutcome.Held.class, h -> assertThat(h.reason())
        .isEqualTo("source " + SOURCE_ID + " is not installed on the Suwayomi server"));
    int sent = fake.journal().size();
    assertThat(await(() -> bridge.search("pont", 10))).isInstanceOf(FetchOutcome.Held.class);
    assertThat(fake.journal()).as("nothing sent during the hold").hasSize(sent);
    assertThat(bridge.hold()).hasValueSatisfying(h -> assertThat(h.reason()).contains("not installed"));

    assertThat(await(() -> bridge().search("pont", 10))).as("a fetch's NullPointerException says the same")
        .isInstanceOfSatisfying(FetchOutcome.Held.class, h -> assertThat(h.reason()).contains("not installed"));
  }

  @Test
  void aMissingPageIsNotFound() {
    fake.missingPage(MANGA, 1, 1);
    Source bridge = bridge();
    List<PageRef> pages = await(() -> bridge.pages(String.valueOf(MANGA), CHAPTER_1)).value();

    assertThat(await(() -> bridge.page(pages.get(1)))).isInstanceOf(FetchOutcome.NotFound.class);
  }

  @Test
  void a429HoldsTheBridgeForItsRetryAfter() {
    fake.refuseEvery(1, 7);
    Source bridge = bridge();

    FetchOutcome<List<TitleHit>> found = await(() -> bridge.search("pont", 10));

    assertThat(found).isInstanceOfSatisfying(FetchOutcome.RateLimited.class,
        r -> assertThat(r.retryAfter()).isEqualTo(Duration.ofSeconds(7)));
    assertThat(await(() -> bridge.search("pont", 10))).isInstanceOf(FetchOutcome.Held.class);
    assertThat(fake.journal()).hasSize(1);
    assertThat(bridge.limits().refused()).isEqualTo(1);
  }

  @Test
  void slowAnswersTimeOutAsNetworkErrors() {
    fake.slow(2_500);

    FetchOutcome<List<TitleHit>> found = await(() -> bridge(fake.baseUrl(), Map.of(), 1).search("pont", 10));

    assertThat(found).isInstanceOf(FetchOutcome.NetworkError.class);
    assertThat(found.describe()).contains("timed out");
  }

  @Test
  void aServerThatIsDownIsANetworkError() {
    SuwayomiFake down = new SuwayomiFake();
    String baseUrl = down.baseUrl();
    down.stop();

    FetchOutcome<List<TitleHit>> found = await(() -> bridge(baseUrl, Map.of(), 30).search("pont", 10));

    assertThat(found).isInstanceOf(FetchOutcome.NetworkError.class);
  }
}
