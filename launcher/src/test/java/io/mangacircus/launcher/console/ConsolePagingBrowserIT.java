package io.mangacircus.launcher.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.DemoSiteExtension;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.ReaderSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A long queue (250 jobs) in the real jar: {@code GET /api/admin/jobs} answers pages with their totals and refuses a
 * bad page with 400, and the scraper console draws one page of 50 rows, turns to the next and back, and filters by
 * state. One product, one queue and one browser serve both tests (filling the queue is the slow part); each test
 * resumes the jobs it paused, so the other finds all 250 pending again.
 */
@Tag("browser")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsolePagingBrowserIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final int JOBS = 250;

  @TempDir
  static Path data;

  @RegisterExtension
  static final DemoSiteExtension demo = new DemoSiteExtension(Duration.ZERO);

  private LauncherHarness harness;
  private Browser browser;
  private WebDriver driver;
  private ReaderSession admin;
  private final List<String> pausedByTheTest = new ArrayList<>();

  @BeforeAll
  void start() throws Exception {
    String config = new JsonObject()
        .put("reader", new JsonObject().put("initialAdminPassword", ADMIN_PASSWORD))
        .put("scraper", demo.scraperConfig()).encode();
    harness = new LauncherHarness(data, config).startStandard(Mode.ALL);
    admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    // The lane is paused first, so the 250 jobs stay as they were added (pending) while the page is looked at.
    assertThat(admin.post("/api/admin/lanes/demo/pause", new JsonObject()).statusCode()).isEqualTo(200);
    for (int i = 0; i < JOBS; i++) {
      HttpResponse<String> added = admin.post("/api/admin/jobs", new JsonObject().put("source", "demo")
          .put("title", String.format("title-%03d", i)).put("autoConfirm", false));
      assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
    }
    browser = new Browser();
    driver = browser.driver();
  }

  @BeforeEach
  void forgetThePreviousTest() {
    driver.get(harness.url("/login.html"));
    driver.manage().deleteAllCookies();
    ((JavascriptExecutor) driver).executeScript("window.localStorage.clear(); window.sessionStorage.clear();");
  }

  @AfterEach
  void checkThePolicyAndResumeJobs() throws Exception {
    try {
      assertThat(browser.cspViolations()).as("every page stayed within the Content-Security-Policy").isEmpty();
    } finally {
      for (String id : pausedByTheTest) {
        assertThat(admin.post("/api/admin/jobs/" + id + "/resume", new JsonObject()).statusCode()).isEqualTo(200);
      }
      pausedByTheTest.clear();
    }
  }

  @AfterAll
  void stop() throws Exception {
    Browser.closeAll(browser, harness);
  }

  /** Pauses a job and remembers it, so the test after this one finds it pending again. */
  private int pause(String jobId) {
    int status = admin.post("/api/admin/jobs/" + jobId + "/pause", new JsonObject()).statusCode();
    if (status == 200) {
      pausedByTheTest.add(jobId);
    }
    return status;
  }

  @Test
  void theAdminJobsListAnswersPagesWithTotalsAndRefusesABadPage() {
    HttpResponse<String> page = admin.get("/api/admin/jobs?page=2&size=100");
    assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
    JsonObject second = new JsonObject(page.body());
    assertThat(second.getInteger("total")).isEqualTo(JOBS);
    assertThat(second.getInteger("page")).isEqualTo(2);
    assertThat(second.getInteger("size")).isEqualTo(100);
    JsonArray jobs = second.getJsonArray("jobs");
    assertThat(jobs).hasSize(100);
    assertThat(jobs.getJsonObject(0).getString("titleId")).isEqualTo("title-100");
    assertThat(second.getJsonObject("counts").getInteger("pending")).isEqualTo(JOBS);

    String firstId = new JsonObject(admin.get("/api/admin/jobs?page=1&size=1").body()).getJsonArray("jobs")
        .getJsonObject(0).getString("id");
    assertThat(pause(firstId)).isEqualTo(200);
    JsonObject paused = new JsonObject(admin.get("/api/admin/jobs?state=paused&page=1&size=10").body());
    assertThat(paused.getInteger("total")).isEqualTo(1);
    assertThat(paused.getJsonArray("jobs").getJsonObject(0).getString("id")).isEqualTo(firstId);
    assertThat(new JsonObject(admin.get("/api/admin/jobs").body()).getJsonArray("jobs"))
        .as("without page and size, every job as before paging").hasSize(JOBS);

    HttpResponse<String> tooBig = admin.get("/api/admin/jobs?page=1&size=500");
    assertThat(tooBig.statusCode()).isEqualTo(400);
    assertThat(new JsonObject(tooBig.body()).getString("message")).contains("'size' must be from 1 to 200");
    assertThat(admin.get("/api/admin/jobs?state=sleeping").statusCode()).isEqualTo(400);
  }

  @Test
  void theConsoleDrawsOnePageTurnsToTheNextAndFiltersByState() {
    List<String> pausedIds = new JsonObject(admin.get("/api/admin/jobs?page=3&size=2").body()).getJsonArray("jobs")
        .stream().map(j -> ((JsonObject) j).getString("id")).toList();
    pausedIds.forEach(id -> assertThat(pause(id)).isEqualTo(200));

    driver.manage().deleteAllCookies();
    driver.get(harness.url("/login.html?next=/admin/scraper.html"));
    waiting(10).until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys("admin");
    driver.findElement(By.id("password")).sendKeys(ADMIN_PASSWORD);
    driver.findElement(By.id("login-button")).click();
    waiting(10).until(ExpectedConditions.textToBe(By.id("bus-state"), "live"));
    waiting(15).until(d -> d.findElement(By.id("queue-page")).getText().startsWith("Page 1 of 5"));

    assertThat(rows()).hasSize(50);
    assertThat(firstTitle()).isEqualTo("title-000");
    assertThat(driver.findElement(By.id("queue-prev")).isEnabled()).isFalse();
    assertThat(driver.findElement(By.id("queue-page")).getText()).contains("jobs 1–50 of 250");
    browser.screenshot("console-paged");

    driver.findElement(By.id("queue-next")).click();
    waiting(10).until(d -> "title-050".equals(firstTitle()));
    assertThat(rows()).hasSize(50);
    assertThat(driver.findElement(By.id("queue-page")).getText()).startsWith("Page 2 of 5");
    driver.findElement(By.id("queue-prev")).click();
    waiting(10).until(d -> "title-000".equals(firstTitle()));

    new Select(driver.findElement(By.id("queue-state"))).selectByValue("paused");
    waiting(10).until(d -> rowAttributes("data-job").equals(pausedIds));
    assertThat(rowAttributes("data-state")).containsExactly("paused", "paused");
    assertThat(driver.findElement(By.id("queue-page")).getText()).startsWith("Page 1 of 1");
    assertThat(driver.findElement(By.id("queue-next")).isEnabled()).isFalse();
    assertThat(new Select(driver.findElement(By.id("queue-state"))).getFirstSelectedOption().getText())
        .isEqualTo("Paused (2)");
  }

  private List<WebElement> rows() {
    return driver.findElements(By.cssSelector("#queue tr.job-row"));
  }

  /** One attribute of every row, read in one script (the queue may be redrawn between two element look-ups). */
  @SuppressWarnings("unchecked")
  private List<String> rowAttributes(String name) {
    return (List<String>) ((JavascriptExecutor) driver).executeScript(
        "return Array.from(document.querySelectorAll('#queue tr.job-row')).map(r => r.getAttribute(arguments[0]));",
        name);
  }

  private String firstTitle() {
    return (String) ((JavascriptExecutor) driver).executeScript(
        "const t = document.querySelector('#queue tr.job-row .job-title'); return t ? t.textContent.trim() : null;");
  }

  private WebDriverWait waiting(int seconds) {
    return browser.waiting(Duration.ofSeconds(seconds));
  }
}
