package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.testing.DaemonPair;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.JarProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon pair as two JVM processes on the clustered event bus: request/reply across them, and a killed scraper. */
@Tag("process") @Tag("cluster")
class ClusterPairIT {

  @TempDir
  Path work;

  @Test
  void readerSeesTheScraperAcrossProcessesNoticesItsDeathAndItsReturn() throws Exception {
    long started = System.nanoTime();
    try (DaemonPair pair = DaemonPair.start(work, Map.of())) {
      JarProcess scraper = pair.scraper();
      JarProcess reader = pair.reader();
      int readerPort = pair.readerPort();
      int scraperHealth = pair.scraperHealthPort();

      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
          .until(() -> HttpProbe.get(readerPort, "/health/ready").status() == 200);
      Duration pairReady = Duration.ofNanos(System.nanoTime() - started);

      // The reader's scraper check is a request/reply answered by the other process.
      Answer scraperOwn = HttpProbe.get(scraperHealth, "/health/ready");
      assertThat(scraperOwn.status()).isEqualTo(200);
      String scraperInstance = scraperOwn.checkData("scraper").getString("instance");
      assertThat(HttpProbe.get(readerPort, "/health/ready").checkData("scraper").getString("instance"))
          .isEqualTo(scraperInstance);
      assertThat(scraperOwn.check("reader")).as("a scraper-only process does not check the reader").isNull();
      System.out.printf("[measure] pair ready after %d ms; idle RSS reader %d KiB, scraper %d KiB%n",
          pairReady.toMillis(), reader.rssKib(), scraper.rssKib());

      scraper.kill();
      long killed = System.nanoTime();
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
          .until(() -> HttpProbe.get(readerPort, "/health/ready").status() == 503);
      Answer down = HttpProbe.get(readerPort, "/health/ready");
      assertThat(down.check("scraper")).isEqualTo("DOWN");
      assertThat(down.check("reader")).isEqualTo("UP");
      System.out.printf("[measure] reader reported scraper DOWN %d ms after SIGKILL%n",
          Duration.ofNanos(System.nanoTime() - killed).toMillis());

      try (JarProcess replacement = pair.startScraper()) {
        long restarted = System.nanoTime();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
            .until(() -> HttpProbe.get(readerPort, "/health/ready").status() == 200);
        assertThat(HttpProbe.get(readerPort, "/health/ready").checkData("scraper").getString("instance"))
            .isNotEqualTo(scraperInstance);
        System.out.printf("[measure] reader ready again %d ms after the new scraper started%n",
            Duration.ofNanos(System.nanoTime() - restarted).toMillis());

        replacement.terminate();
        reader.terminate();
        assertThat(replacement.waitForExit(Duration.ofSeconds(30))).as(replacement.output()).isZero();
        assertThat(reader.waitForExit(Duration.ofSeconds(30))).as(reader.output()).isZero();
      }
    }
  }
}
