package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.testing.MangaDexApi;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static io.mangacircus.testing.MangaDexApi.journal;
import static io.mangacircus.testing.MangaDexApi.path;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.RequestLimiter;
import io.mangacircus.scraper.source.RequestLine;
import io.mangacircus.scraper.source.Sources;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The MangaDex adapter's own budget, on the real clock against a WireMock MangaDex: it keeps one under every
 * published limit, counted where MangaDex counts, on arrival.
 */
@Tag("realtime")
class MangaDexBudgetIT {

  private final WireMockServer api = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private Vertx vertx;
  private WebClient client;

  @BeforeEach
  void start() {
    api.start();
    vertx = Vertx.vertx();
    client = Sources.client(vertx);
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    api.stop();
  }

  private <T> T await(Supplier<Future<T>> call) {
    Promise<T> done = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> call.get().onComplete(done::handle));
    return MangaDexStubs.await(done.future());
  }

  @Test
  void atMost39AtHomeLookUpsLeaveWithinAMinuteAndThe40thWaitsWithoutBeingSent() {
    for (int c = 1; c <= 40; c++) {
      MangaDexStubs.atHome(api, 20, c);
    }
    MangaDexSource source = new MangaDexSource("md", api.baseUrl(), new MangaDexOptions(false, 500), client,
        new RequestLine(new RequestLimiter(InstantSource.system())), InstantSource.system(), 5_000, 5_000,
        SourceConfig.DEFAULT_CHALLENGE_MARKERS);

    List<FetchOutcome<List<PageRef>>> outcomes = new ArrayList<>();
    for (int c = 1; c <= 40; c++) {
      ChapterInfo chapter = new ChapterInfo(MangaDexStubs.chapterId(20, c), String.valueOf(c), "", "en");
      outcomes.add(await(() -> source.pages(MangaDexStubs.titleId(20), chapter)));
    }

    List<Long> atHome = journal(api).stream().filter(r -> path(r).startsWith("/at-home/server/"))
        .map(r -> r.getLoggedDate().getTime()).toList();
    System.out.println("[MangaDexBudgetIT] " + atHome.size() + " look-ups sent, the 40th: "
        + outcomes.get(39).describe());
    assertThat(atHome).as("one under MangaDex's 40 a minute").hasSize(39);
    assertThat(MangaDexApi.mostWithin(atHome, 60_000)).isLessThanOrEqualTo(39);
    assertThat(outcomes.subList(0, 39)).allSatisfy(o -> assertThat(o.ok()).isTrue());
    assertThat(outcomes.get(39).ok()).isFalse();
    assertThat(outcomes.get(39).describe()).contains("waiting for MangaDex's at-home limit", "nothing sent");
    assertThat(MangaDexApi.spacing(journal(api)).mostInOneSecond()).as("never MangaDex's sixth in a second")
        .isLessThanOrEqualTo(5);
  }
}
