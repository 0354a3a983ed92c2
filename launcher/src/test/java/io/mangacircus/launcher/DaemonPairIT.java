package io.mangacircus.launcher;

import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.ok;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.DaemonPair;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.JarProcess;
import io.mangacircus.launcher.testing.OutboundConnections;
import io.mangacircus.launcher.testing.ReaderSession;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The daemon pair as two JVM processes on the clustered event bus, started once and taken through its life in order:
 * request/reply across the processes and the reader's heartbeat; the scraper SIGKILLed, as the reader's readiness,
 * the console's health page and the heartbeat see it; a replacement scraper; the reader stopped alone by the shutdown
 * route; a new reader that joins the running scraper and SIGTERM on both; and the pair scope of the shutdown route.
 * Each step is its own test, so a failed step does not hide the others' results; a step that needs an earlier
 * step's outcome says so in its message.
 */
@TestInstance(Lifecycle.PER_CLASS)
@TestMethodOrder(OrderAnnotation.class)
@Tag("process") @Tag("browser") @Tag("cluster")
class DaemonPairIT {

  private static final String TOKEN = "pair-test-admin-token-01";
  private static final String ADMIN_PASSWORD = "cluster-admin-pass";
  private static final String HEARTBEAT = "/ping/uuid-7";
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration GRACE = Duration.ofSeconds(30);

  private final WireMockServer wm = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private DaemonPair pair;
  private Browser browser;
  private String firstScraperInstance;
  private long startedNanos;
  private long killedNanos;
  private Instant killed;

  @BeforeAll
  void startPair(@TempDir Path work) {
    wm.start();
    wm.stubFor(any(anyUrl()).willReturn(ok()));
    startedNanos = System.nanoTime();
    pair = DaemonPair.start(work, Map.of("MANGACIRCUS_ADMIN_TOKEN", TOKEN, "MANGACIRCUS_ADMIN_PASSWORD", ADMIN_PASSWORD),
        new JsonObject().put("notifications", new JsonObject().put("heartbeat", new JsonObject()
            .put("url", "http://127.0.0.1:" + wm.port() + HEARTBEAT).put("intervalSeconds", 1))));
  }

  @AfterAll
  void stopPair() {
    try {
      if (browser != null) {
        browser.close();
      }
    } finally {
      try {
        if (pair != null) {
          pair.close();
        }
      } finally {
        wm.stop();
      }
    }
  }

  private int readerPort() {
    return pair.readerPort();
  }

  private Answer readiness() {
    return HttpProbe.get(readerPort(), "/health/ready");
  }

  private List<Instant> heartbeats() {
    return wm.findAll(getRequestedFor(urlPathEqualTo(HEARTBEAT))).stream().map(r -> r.getLoggedDate().toInstant())
        .toList();
  }

  private WebDriver loggedInBrowser() {
    assertThat(browser).as("the browser that logged in to the health page (an earlier step)").isNotNull();
    return browser.driver();
  }

  private void requireKilled() {
    assertThat(killed).as("the scraper was SIGKILLed (an earlier step)").isNotNull();
  }

  /** What is left of {@code limit} since the kill, at least a second. */
  private Duration sinceKill(Duration limit) {
    Duration left = limit.minusNanos(System.nanoTime() - killedNanos);
    return left.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : left;
  }

  /** The route as a script calls it: bearer token, no body and no content type. */
  private static HttpResponse<String> shutdownWithToken(int port, String query) {
    return ReaderSession.send(port, "POST", "/api/system/shutdown" + query, null, "Authorization", "Bearer " + TOKEN);
  }

  // ---- both processes up ----------------------------------------------------------------------------------------

  @Test
  @Order(1)
  void theReadersScraperCheckIsARequestReplyAnsweredByTheOtherProcess() {
    await().atMost(START).pollInterval(Duration.ofMillis(100)).until(() -> readiness().status() == 200);
    Duration pairReady = Duration.ofNanos(System.nanoTime() - startedNanos);

    Answer scraperOwn = HttpProbe.get(pair.scraperHealthPort(), "/health/ready");
    assertThat(scraperOwn.status()).isEqualTo(200);
    firstScraperInstance = scraperOwn.checkData("scraper").getString("instance");
    assertThat(readiness().checkData("scraper").getString("instance")).isEqualTo(firstScraperInstance);
    assertThat(scraperOwn.check("reader")).as("a scraper-only process does not check the reader").isNull();
    System.out.printf("[measure] pair ready after %d ms; idle RSS reader %d KiB, scraper %d KiB%n",
        pairReady.toMillis(), pair.reader().rssKib(), pair.scraper().rssKib());
  }

  @Test
  @Order(2)
  void theReaderSendsTheHeartbeatAndTheScraperProcessSendsNoneOfItsOwn() throws Exception {
    HttpProbe.awaitReady(readerPort());
    await().atMost(Duration.ofSeconds(30)).until(() -> heartbeats().size() >= 3);
    assertThat(OutboundConnections.of(pair.scraper().pid())).as("the scraper process sends no heartbeat of its own")
        .noneMatch(c -> c.contains(Integer.toHexString(wm.port()).toUpperCase()));
  }

  @Test
  @Order(3)
  void theHealthPageListsTheReachableScraperAndBothProcessesLaunchers() {
    HttpProbe.awaitReady(readerPort());
    browser = new Browser();
    WebDriver driver = browser.driver();
    driver.get("http://127.0.0.1:" + readerPort() + "/login.html?next=/admin/health.html");
    WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(15));
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys("admin");
    driver.findElement(By.id("password")).sendKeys(ADMIN_PASSWORD);
    driver.findElement(By.id("login-button")).click();
    wait.until(d -> !d.getCurrentUrl().contains("/login.html"));
    wait.until(ExpectedConditions.textToBe(By.id("scraper-status"), "Scraper: running"));
    // Both launchers are listed: the reader's process and the scraper's.
    wait.until(d -> d.findElements(By.cssSelector("#supervisors-table tr[data-service='scraper']")).size() == 1
        && d.findElements(By.cssSelector("#supervisors-table tr[data-service='reader']")).size() == 1);
  }

  // ---- the scraper SIGKILLed ------------------------------------------------------------------------------------

  @Test
  @Order(4)
  void aKilledScraperIsReportedDownByTheReaderWithinTenSeconds() {
    HttpProbe.awaitReady(readerPort());
    pair.scraper().kill();
    killedNanos = System.nanoTime();
    killed = Instant.now();
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
        .until(() -> readiness().status() == 503);
    Answer down = readiness();
    assertThat(down.check("scraper")).isEqualTo("DOWN");
    assertThat(down.check("reader")).isEqualTo("UP");
    System.out.printf("[measure] reader reported scraper DOWN %d ms after SIGKILL%n",
        Duration.ofNanos(System.nanoTime() - killedNanos).toMillis());
  }

  @Test
  @Order(5)
  void theHealthPageShowsTheKilledScraperUnreachableWithinTenSecondsAndItsLauncherSilent() {
    requireKilled();
    WebDriver driver = loggedInBrowser();
    new WebDriverWait(driver, sinceKill(Duration.ofSeconds(10)))
        .until(ExpectedConditions.textToBe(By.id("scraper-status"), "Scraper: not answering"));
    System.out.printf("[measure] health page showed the scraper unreachable at most %d ms after SIGKILL%n",
        Duration.ofNanos(System.nanoTime() - killedNanos).toMillis());
    assertThat(driver.findElement(By.id("yield-status")).getText()).contains("unknown");
    // The dead process's launcher falls silent: its last published state is no longer shown as current.
    // The table is redrawn on every status event: a row found just before a redraw goes stale, so look again.
    new WebDriverWait(driver, Duration.ofSeconds(20)).ignoring(StaleElementReferenceException.class)
        .until(d -> d.findElement(By.cssSelector("#supervisors-table tr[data-service='scraper'] .supervisor-state"))
            .getText().contains("not heard from"));
    browser.screenshot("console-health-scraper-unreachable");
  }

  @Test
  @Order(6)
  void theReadersHeartbeatStopsWithinOneIntervalOfTheKill() {
    requireKilled();
    await().atMost(Duration.ofSeconds(30)).until(() -> readiness().status() == 503);
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6)).until(() -> readiness().status() == 503);
    // The last ping may have left before the kill was noticed (the readiness check itself waits for the ping to time
    // out, health.checkTimeoutMs); none comes after one interval plus that check.
    assertThat(heartbeats()).as("no heartbeat once the scraper is gone")
        .allMatch(at -> at.isBefore(killed.plusSeconds(1).plusMillis(2_000)));
    assertThat(pair.reader().output()).contains("[NOTIFY] heartbeat paused").doesNotContain("uuid-7");
  }

  // ---- a replacement scraper ------------------------------------------------------------------------------------

  @Test
  @Order(7)
  void theReaderSeesAReplacementScraperWithANewInstance() {
    requireKilled();
    JarProcess replacement = pair.startScraper();
    long restarted = System.nanoTime();
    await().atMost(START).pollInterval(Duration.ofMillis(100)).until(() -> readiness().status() == 200);
    assertThat(replacement.isAlive()).isTrue();
    assertThat(readiness().checkData("scraper").getString("instance")).isNotEqualTo(firstScraperInstance);
    System.out.printf("[measure] reader ready again %d ms after the new scraper started%n",
        Duration.ofNanos(System.nanoTime() - restarted).toMillis());
  }

  @Test
  @Order(8)
  void theHealthPageShowsTheReplacementScraperReachable() {
    WebDriver driver = loggedInBrowser();
    new WebDriverWait(driver, START).until(ExpectedConditions.textToBe(By.id("scraper-status"), "Scraper: running"));
    assertThat(driver.findElement(By.id("scraper-detail")).getText()).startsWith("instance");
  }

  // ---- stops ----------------------------------------------------------------------------------------------------

  @Test
  @Order(9)
  void theProcessScopeOfTheShutdownRouteStopsOnlyTheReadersProcess() {
    JarProcess scraper = pair.scraper();
    JarProcess reader = pair.reader();
    HttpProbe.awaitReady(readerPort());

    assertThat(shutdownWithToken(readerPort(), "").statusCode()).isEqualTo(202);

    assertThat(reader.waitForExit(GRACE)).as(reader.output()).isZero();
    assertThat(scraper.isAlive()).isTrue();
    assertThat(HttpProbe.get(pair.scraperHealthPort(), "/health/ready").status()).as("the scraper keeps running")
        .isEqualTo(200);
  }

  @Test
  @Order(10)
  void aNewReaderJoinsTheRunningScraperAndBothStopOnSigtermWithExitZero() {
    JarProcess scraper = pair.scraper();
    String scraperInstance = HttpProbe.get(pair.scraperHealthPort(), "/health/ready").checkData("scraper")
        .getString("instance");
    JarProcess reader = pair.startReader();
    await().atMost(START).pollInterval(Duration.ofMillis(100)).until(() -> readiness().status() == 200);
    assertThat(readiness().checkData("scraper").getString("instance")).isEqualTo(scraperInstance);

    scraper.terminate();
    reader.terminate();
    assertThat(scraper.waitForExit(GRACE)).as(scraper.output()).isZero();
    assertThat(reader.waitForExit(GRACE)).as(reader.output()).isZero();
  }

  @Test
  @Order(11)
  void thePairScopeOfTheShutdownRouteStopsBothProcessesWithExitZero() {
    JarProcess scraper = pair.startScraper();
    JarProcess reader = pair.startReader();
    HttpProbe.awaitReady(readerPort());

    HttpResponse<String> answer = shutdownWithToken(readerPort(), "?scope=pair");

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
    assertThat(new JsonObject(answer.body()).getString("scope")).isEqualTo("pair");
    assertThat(scraper.waitForExit(GRACE)).as(scraper.output()).isZero();
    assertThat(reader.waitForExit(GRACE)).as(reader.output()).isZero();
    assertThat(scraper.output()).contains("stop requested by the admin token (for the pair)", "stopped cleanly");
    assertThat(reader.output()).contains("stop requested by the admin token over HTTP", "stopped cleanly");
  }
}
