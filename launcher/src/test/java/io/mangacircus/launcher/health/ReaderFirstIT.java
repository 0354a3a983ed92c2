package io.mangacircus.launcher.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.launcher.RouterSlot;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In {@code all} mode the reader comes up first and serves while the scraper is still loading (a long queue, a big
 * staging area), and {@code /health/ready} stays 503 until the scraper's start is done.
 */
class ReaderFirstIT {

  @TempDir
  Path data;

  /**
   * A scraper stand-in that loads slowly: it answers its ping from the start of its deploy (as the real scraper
   * does) and finishes its start only when the test says so; it notes whether the reader was serving when its start
   * began.
   */
  static final class SlowScraper extends VerticleBase {
    final RouterSlot readerRoutes;
    final CompletableFuture<Boolean> readerServingAtStart = new CompletableFuture<>();
    final AtomicReference<Promise<Void>> loaded = new AtomicReference<>();

    SlowScraper(RouterSlot readerRoutes) {
      this.readerRoutes = readerRoutes;
    }

    @Override
    public Future<?> start() {
      readerServingAtStart.complete(readerRoutes.router() != null);
      String instance = UUID.randomUUID().toString();
      Promise<Void> done = Promise.promise();
      return vertx.eventBus().consumer(Addresses.pingOf("scraper"),
              m -> m.reply(new PingReply("scraper", instance, System.currentTimeMillis()).toJson())).completion()
          .compose(v -> {
            loaded.set(done);
            return done.future();
          });
    }
  }

  @Test
  void theReaderServesWhileTheScraperIsStillLoadingAndReadinessWaitsForTheScraper() throws Exception {
    try (LauncherHarness h = LauncherHarness.withAdminPassword(data, "reader-first-pw")) {
      RouterSlot slot = new RouterSlot();
      SlowScraper scraper = new SlowScraper(slot);
      Future<String> launcher = h.startInBackground(slot, h.realReader(slot), h.spec("scraper", () -> scraper));

      await().atMost(Duration.ofSeconds(30)).until(() -> scraper.loaded.get() != null);
      assertThat(scraper.readerServingAtStart.get())
          .as("the scraper's start begins only once the reader is up").isTrue();
      assertThat(HttpProbe.get(h.port(), "/login.html").status()).isEqualTo(200);
      Answer ready = HttpProbe.get(h.port(), "/health/ready");
      assertThat(ready.status()).as("not ready while the scraper is still starting").isEqualTo(503);
      assertThat(ready.check("supervisor")).isEqualTo("DOWN");
      assertThat(ready.checkData("supervisor").getString("reason")).isEqualTo("starting: scraper");
      assertThat(launcher.isComplete()).isFalse();

      scraper.loaded.get().complete();
      LauncherHarness.await(launcher);
      HttpProbe.awaitReady(h.port());
      assertThat(HttpProbe.get(h.port(), "/health/ready").check("scraper")).isEqualTo("UP");
    }
  }
}
