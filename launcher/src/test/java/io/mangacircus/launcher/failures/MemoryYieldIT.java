package io.mangacircus.launcher.failures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.logging.RedactingAppender;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.DemoSiteExtension;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.scraper.demosite.DemoFaults;
import io.mangacircus.scraper.demosite.DemoSite;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Host memory readings fed to a real launcher: downloads yield at the high watermark and come back after it. */
class MemoryYieldIT {

  private static final String TOKEN = "memory-yield-token-01234";

  @TempDir
  Path data;

  private final AtomicReference<Double> usedPercent = new AtomicReference<>(50.0);
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private RedactingAppender redacting;
  private Vertx siteVertx;
  private DemoSite site;
  private LauncherHarness harness;

  @BeforeEach
  void start() throws Exception {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    redacting = (RedactingAppender) context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("REDACT");
    logs.setContext(context);
    logs.start();
    redacting.addAppender(logs);
    siteVertx = Vertx.vertx();
    DemoFaults faults = new DemoFaults();
    faults.slowPages(Duration.ofMillis(60));
    site = DemoSite.start(siteVertx, "127.0.0.1", 0, DemoSiteExtension.sharedCatalog(), faults).toCompletionStage()
        .toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    redacting.detachAppender(logs);
    if (harness != null) {
      harness.close();
    }
    siteVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private long lines(String text) {
    return logs.list.stream().filter(e -> e.getFormattedMessage().contains(text)).count();
  }

  @Test
  void highMemoryPausesDownloadsAtACheckpointWithoutAnAttemptAndTheyResumeAfterTheCooldown() throws Exception {
    String config = new JsonObject()
        .put("reader", new JsonObject().put("adminToken", TOKEN))
        .put("memory", new JsonObject().put("pollSeconds", 1).put("highWatermarkPct", 92).put("lowWatermarkPct", 80)
            .put("cooldownSeconds", 2))
        .put("scraper", new JsonObject().put("claimPollMs", 50).put("recovery", new JsonObject().put("delayMs", 0))
            .put("sources", new JsonObject().put("demo", new JsonObject().put("type", "demo")
                .put("baseUrl", site.baseUrl()).put("pageDelayMs", 0).put("chapterDelayMs", 0)))).encode();
    harness = new LauncherHarness(data, config).memInfo(() -> OptionalDouble.of(usedPercent.get()))
        .startStandard(Mode.ALL);
    AdminApi admin = new AdminApi(harness.port(), TOKEN);
    String id = admin.post("/api/admin/jobs", new JsonObject().put("source", "demo").put("title", "circus-nights")
        .put("autoConfirm", true)).json().getJsonObject("job").getString("id");
    await().atMost(Duration.ofSeconds(30)).until(() -> site.imageRequests() >= 3);

    usedPercent.set(95.0);
    await().atMost(Duration.ofSeconds(10)).until(() -> lines("idle: memory yield") == 1);
    long requestsWhileYielding = site.imageRequests();
    JsonObject yielded = job(admin, id);
    assertThat(yielded.getString("state")).isEqualTo("pending");
    assertThat(yielded.getInteger("attempts")).isZero();
    assertThat(yielded.getInteger("interruptions")).isPositive();
    usedPercent.set(85.0);
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
        .until(() -> "pending".equals(job(admin, id).getString("state")));
    assertThat(site.imageRequests()).as("between the watermarks nothing resumes").isEqualTo(requestsWhileYielding);
    assertThat(lines("idle: memory yield")).as("the idle reason is logged once, not every poll").isEqualTo(1);

    usedPercent.set(50.0);
    await().atMost(Duration.ofSeconds(60)).until(() -> "done".equals(job(admin, id).getString("state")));
    assertThat(lines("[MEMORY] memory 95% used (")).isEqualTo(1);
    assertThat(lines("[YIELD] downloads may resume")).isEqualTo(1);
    assertThat(Files.readString(data.resolve("scraper/events.log"))).contains("\"type\":\"downloads.yield\"");
    assertThat(job(admin, id).getInteger("attempts")).isZero();
  }

  private static JsonObject job(AdminApi admin, String id) {
    return admin.get("/api/admin/jobs").json().getJsonArray("jobs").stream().map(JsonObject.class::cast)
        .filter(j -> j.getString("id").equals(id)).findFirst().orElseThrow();
  }
}
