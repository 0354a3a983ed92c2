package io.mangacircus.launcher.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.DemoSiteExtension;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.SeededReaderDb;
import io.mangacircus.launcher.testing.SeededReaderDb.Account;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The admin console in a real browser (Debian Chromium, headless) against the demo site: add a title, confirm it,
 * watch its progress bar move over the event-bus bridge, pause and resume it; the health page, with a service blocked
 * by a corrupt state file and its retry start; a reader is refused.
 */
@Tag("browser")
class ConsoleBrowserIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";

  @TempDir
  Path data;

  @RegisterExtension
  final DemoSiteExtension demo = new DemoSiteExtension(Duration.ZERO);

  private LauncherHarness harness;
  private Browser browser;
  private WebDriver driver;

  @BeforeEach
  void start() throws Exception {
    // Pacing small but not zero, so that progress is visible in the browser.
    JsonObject scraper = demo.scraperConfig();
    scraper.getJsonObject("sources").getJsonObject("demo").put("pageDelayMs", 300).put("chapterDelayMs", 0);
    String config = new JsonObject()
        .put("reader", new JsonObject().put("initialAdminPassword", ADMIN_PASSWORD))
        .put("scraper", scraper).encode();
    SeededReaderDb.into(data, Account.admin(ADMIN_PASSWORD), Account.reader("kid", "kid-password"));
    harness = new LauncherHarness(data, config).startStandard(Mode.ALL);
    browser = new Browser();
    driver = browser.driver();
  }

  @AfterEach
  void stop() throws Exception {
    assertThat(Browser.closeAll(browser, harness)).as("every page stayed within the Content-Security-Policy")
        .isEmpty();
  }

  private WebDriverWait waiting(int seconds) {
    return browser.waiting(Duration.ofSeconds(seconds));
  }

  /** Clicks a queue row's button; when a reload redrew the row between finding and clicking, finds it again. */
  private void clickWhenDrawn(By button) {
    waiting(10).until(d -> {
      d.findElement(button).click();
      return true;
    });
  }

  private void logInTo(String path, String username, String password) {
    driver.manage().deleteAllCookies();
    driver.get(harness.url("/login.html?next=" + path));
    waiting(10).until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys(username);
    driver.findElement(By.id("password")).sendKeys(password);
    driver.findElement(By.id("login-button")).click();
    // The login page's own address names the target in `next`: wait until the browser has left it.
    waiting(10).until(d -> !d.getCurrentUrl().contains("/login.html"));
    assertThat(driver.getCurrentUrl()).isEqualTo(harness.url(path));
  }

  private String job(String state) {
    return "tr.job-row[data-state='" + state + "']";
  }

  private int progressOf(String state) {
    String now = driver.findElement(By.cssSelector(job(state) + " .progress-bar")).getAttribute("aria-valuenow");
    return Integer.parseInt(now);
  }

  @Test
  void anAdminAddsConfirmsWatchesPausesAndResumesADownload() {
    logInTo("/admin/scraper.html", "admin", ADMIN_PASSWORD);
    waiting(10).until(ExpectedConditions.textToBe(By.id("bus-state"), "live"));
    waiting(10).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-lane='demo']")));

    driver.findElement(By.id("add-title")).sendKeys("tightrope-walker");
    driver.findElement(By.id("add-submit")).click();
    waiting(10).until(ExpectedConditions.textMatches(By.id("scraper-message"), java.util.regex.Pattern.compile("done")));
    // Inspection (metadata only) makes it ready; then the operator confirms the download.
    waiting(20).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(job("ready"))));
    clickWhenDrawn(By.cssSelector(job("ready") + " button[data-action='confirm']"));
    waiting(20).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(job("active"))));

    // The bar moves with published progress events (the page itself reloads only every 15 s).
    waiting(20).until(d -> progressOf("active") > 0
        || !d.findElements(By.cssSelector(job("active") + " .job-progress-text")).isEmpty()
        && d.findElement(By.cssSelector(job("active") + " .job-progress-text")).getText().contains("page 2"));
    String before = driver.findElement(By.cssSelector(job("active") + " .job-progress-text")).getText();
    waiting(20).until(d -> !d.findElement(By.cssSelector(job("active") + " .job-progress-text")).getText()
        .equals(before));
    browser.screenshot("console-scraper");

    clickWhenDrawn(By.cssSelector(job("active") + " button[data-action='pause']"));
    waiting(20).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(job("paused"))));
    assertThat(driver.findElement(By.id("scraper-message")).getText()).contains("Pause", "done");
    // The retry dialog says what a retry resets and keeps; cancelling it changes nothing.
    clickWhenDrawn(By.cssSelector(job("paused") + " button[data-action='retry']"));
    waiting(5).until(ExpectedConditions.visibilityOfElementLocated(By.id("retry-dialog")));
    assertThat(driver.findElement(By.id("retry-dialog")).getText()).contains("resets", "keeps", "validated page");
    driver.findElement(By.id("retry-cancel")).click();
    waiting(5).until(ExpectedConditions.invisibilityOfElementLocated(By.id("retry-dialog")));
    assertThat(driver.findElements(By.cssSelector(job("paused")))).hasSize(1);
    clickWhenDrawn(By.cssSelector(job("paused") + " button[data-action='resume']"));
    waiting(20).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(job("active"))));

    // Pacing per source, changed from the page. What the admin types survives the table's redraws (live events, and
    // here a pause of the lane) until it is saved.
    By pageDelay = By.cssSelector("tr[data-lane='demo'] .pacing-page");
    waiting(10).until(d -> {
      org.openqa.selenium.WebElement input = d.findElement(pageDelay);
      input.clear();
      input.sendKeys("200");
      return "200".equals(input.getAttribute("value"));
    });
    clickWhenDrawn(By.xpath("//tr[@data-lane='demo']//button[text()='Pause lane']"));
    waiting(10).until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("tr[data-lane='demo']"),
        "paused"));
    assertThat(driver.findElement(pageDelay).getAttribute("value")).as("typed before the redraw").isEqualTo("200");
    clickWhenDrawn(By.xpath("//tr[@data-lane='demo']//button[text()='Save pacing']"));
    waiting(10).until(ExpectedConditions.textToBe(By.id("scraper-message"), "Pacing of demo: done."));
    clickWhenDrawn(By.xpath("//tr[@data-lane='demo']//button[text()='Resume lane']"));
    waiting(10).until(d -> !d.findElement(By.cssSelector("tr[data-lane='demo']")).getText().contains("paused"));
    waiting(10).until(d -> "200".equals(d.findElement(By.cssSelector("tr[data-lane='demo'] .pacing-page"))
        .getAttribute("value")));

    // A refused action answers with the error code's meaning: a second confirm of a running job.
    Object refused = ((JavascriptExecutor) driver).executeAsyncScript(
        "const done = arguments[arguments.length - 1];"
            + "import('/js/bus.js').then(m => { const b = m.openBus({ onState: (open) => { if (!open) return;"
            + "  b.request('JOBS_CONFIRM', { jobId: 'no-such-job' }).then(() => done('ok'), e => done(e.message));"
            + "}}); });");
    assertThat(String.valueOf(refused)).startsWith("Not found");

    driver.get(harness.url("/admin/health.html"));
    waiting(10).until(ExpectedConditions.textToBe(By.id("scraper-status"), "Scraper: running"));
    waiting(10).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".checkpoint")));
    waiting(10).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#supervisors-table td.supervisor-state")));
    assertThat(driver.findElement(By.id("library-status")).getText()).startsWith("Library:");
    assertThat(driver.findElement(By.id("yield-status")).getText()).isEqualTo("Memory: fine");
    assertThat(driver.findElement(By.cssSelector("#supervisors-table tr[data-status='up'] .supervisor-state"))
        .getText()).isEqualTo("running");
    waiting(15).until(ExpectedConditions.textToBePresentInElementLocated(By.id("memory-source"),
        "Memory readings: host /proc/meminfo"));
    assertThat(driver.findElement(By.cssSelector("#circuits [data-source='demo']")).getText())
        .isEqualTo("demo · source OK · downloads running");
    browser.screenshot("console-health");
  }

  @Test
  void aReaderIsRefusedTheConsoleAndTheBridge() {
    logInTo("/", "kid", "kid-password");
    assertThat(driver.findElements(By.id("nav-scraper"))).isEmpty();
    driver.get(harness.url("/admin/scraper.html"));
    assertThat(driver.findElement(By.id("forbidden")).getText()).contains("for admins");
    driver.get(harness.url("/admin/health.html"));
    assertThat(driver.findElement(By.id("forbidden")).getText()).contains("for admins");
    driver.get(harness.url("/"));
    Object status = ((JavascriptExecutor) driver).executeAsyncScript(
        "const done = arguments[arguments.length - 1];"
            + "fetch('/eventbus/info', { credentials: 'same-origin' }).then(r => done(r.status), e => done(String(e)));");
    assertThat(status).isEqualTo(403L);
    Object socket = ((JavascriptExecutor) driver).executeAsyncScript(
        "const done = arguments[arguments.length - 1];"
            + "const ws = new WebSocket(`ws://${location.host}/eventbus/websocket`);"
            + "ws.onopen = () => { ws.close(); done('open'); }; ws.onerror = () => done('refused');");
    assertThat(socket).isEqualTo("refused");
  }

  @Test
  void theHealthPageShowsABlockedScraperAsASentenceAndItsRetryStartBringsItUpOnceTheFileIsRepaired()
      throws Exception {
    harness.stopLauncher();
    Path queue = data.resolve("scraper/queue.json");
    java.nio.file.Files.createDirectories(queue.getParent());
    java.nio.file.Files.write(queue, new byte[] {'{', '"', 's', 0, 0, 0});
    harness.startStandard(Mode.ALL);

    logInTo("/admin/health.html", "admin", ADMIN_PASSWORD);
    String blocked = "#supervisors-table tr[data-service='scraper'][data-status='blocked']";
    waiting(15).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(blocked)));
    String why = driver.findElement(By.cssSelector(blocked + " .supervisor-reason")).getText();
    assertThat(why).contains("corrupt state file " + queue + ": is not valid JSON").doesNotContain("Exception");
    browser.screenshot("health-blocked");

    java.nio.file.Files.writeString(queue, "{\"schema\":2,\"jobs\":[],\"lanes\":{},\"incidents\":[]}");
    String node = driver.findElement(By.cssSelector(blocked + " td")).getText();
    driver.findElement(By.cssSelector(blocked + " button[data-action='retry-start']")).click();

    waiting(30).until(ExpectedConditions.textToBePresentInElementLocated(By.id("health-message"),
        "The scraper was started again"));
    // The button names the launcher of its row, so that with several readers it reaches the blocked one.
    Object sent = ((JavascriptExecutor) driver).executeScript("return performance.getEntriesByType('resource')"
        + ".map(e => e.name).find(n => n.includes('/api/admin/services/scraper/start'))");
    assertThat(sent).asString().endsWith("/api/admin/services/scraper/start?node="
        + java.net.URLEncoder.encode(node, java.nio.charset.StandardCharsets.UTF_8));
    waiting(15).until(ExpectedConditions.presenceOfElementLocated(
        By.cssSelector("#supervisors-table tr[data-service='scraper'][data-status='up']")));
    waiting(15).until(ExpectedConditions.textToBe(By.id("scraper-status"), "Scraper: running"));
  }
}
