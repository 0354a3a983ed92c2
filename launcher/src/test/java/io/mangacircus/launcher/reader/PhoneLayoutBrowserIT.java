package io.mangacircus.launcher.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.DemoSiteExtension;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A phone (390×844 and 360×740, Chromium): the header folds into a menu that still reaches Log out, the theme toggle
 * switches and is remembered, and a library card's unread count drops after a chapter is read. One launcher for all of
 * it; screenshots in {@code target/screenshots/phone-*}.
 */
@Tag("browser")
class PhoneLayoutBrowserIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final String SERIES = "circus-nights";
  private static final Instant PUBLISHED = Instant.parse("2026-11-20T10:00:00Z");

  @TempDir
  Path data;

  @RegisterExtension
  final DemoSiteExtension demo = new DemoSiteExtension(Duration.ZERO);

  private LauncherHarness harness;
  private Browser browser;
  private WebDriver driver;
  private String jobId;
  private ReaderSession admin;


  @BeforeEach
  void start() {
    LibraryFixture library = new LibraryFixture(data);
    library.chapter(SERIES, "Circus Nights", 1, 4, PUBLISHED);
    library.chapter(SERIES, "Circus Nights", 2, 3, PUBLISHED.plusSeconds(60));
    library.chapter("lantern-row", "Lantern Row: A Very Long Title That Would Push A Narrow Card Wider", 1, 3,
        PUBLISHED.plusSeconds(3600));
    String config = new JsonObject().put("reader", new JsonObject().put("initialAdminPassword", ADMIN_PASSWORD))
        .put("scraper", demo.scraperConfig()).encode();
    harness = new LauncherHarness(data, config).startStandard(Mode.ALL);
    admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    assertThat(admin.post("/api/admin/users", new JsonObject().put("username", "reader-with-a-rather-long-name")
        .put("password", "reader-password").put("role", "reader")).statusCode()).isEqualTo(201);
    // A job waiting for confirmation, so that the scraper's queue has a row with buttons.
    var added = admin.post("/api/admin/jobs", new JsonObject().put("source", "demo").put("title", "tightrope-walker")
        .put("autoConfirm", false));
    assertThat(added.statusCode()).isEqualTo(201);
    jobId = new JsonObject(added.body()).getJsonObject("job").getString("id");
    assertThat(admin.put("/api/admin/catalog/collections/favourites", new JsonObject().put("name", "Favourites")
        .put("series", new JsonArray().add(SERIES))).statusCode()).isEqualTo(200);

    browser = new Browser();
    driver = browser.driver();
  }

  @AfterEach
  void stop() throws Exception {
    assertThat(Browser.closeAll(browser, harness)).as("every page stayed within the Content-Security-Policy")
        .isEmpty();
  }

  private WebDriverWait waiting() {
    return browser.waiting(Duration.ofSeconds(10));
  }

  private Object js(String script) {
    return ((JavascriptExecutor) driver).executeScript(script);
  }

  /** A viewport of exactly this size (the window's frame does not count). */
  private void phone(int width, int height) {
    ((org.openqa.selenium.chrome.ChromeDriver) driver).executeCdpCommand("Emulation.setDeviceMetricsOverride",
        Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", false));
  }

  /** "page: 444 px in 390" when the page is wider than the window, else null. */
  private String overflow(String page) {
    long scroll = ((Number) js("return document.documentElement.scrollWidth")).longValue();
    long inner = ((Number) js("return window.innerWidth")).longValue();
    return scroll <= inner ? null : page + ": " + scroll + " px in " + inner;
  }

  private void logIn() {
    driver.manage().deleteAllCookies();
    driver.get(harness.url("/login.html"));
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys("admin");
    driver.findElement(By.id("password")).sendKeys(ADMIN_PASSWORD);
    driver.findElement(By.id("login-button")).click();
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".series-card")));
  }

  private String unreadOf(String series) {
    List<org.openqa.selenium.WebElement> count = driver.findElements(By.cssSelector(
        "[data-shelf='all'] [data-series='" + series + "'] .unread-count"));
    return count.isEmpty() ? "0" : count.get(0).getText().trim();
  }

  @Test
  void onAPhoneTheMenuTheThemeAndTheUnreadCountWork() {
    // That every page, every element of it, fits a 360 px screen is PageWalkBrowserIT's walk; here, what a phone user
    // does with the header and the library.
    phone(390, 844);
    logIn();

    // The header folds into a menu; Log out is reached through it.
    phone(390, 844);
    driver.get(harness.url("/"));
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".series-card")));
    assertThat(driver.findElement(By.id("logout")).isDisplayed()).as("log out is folded away").isFalse();
    driver.findElement(By.id("menu-toggle")).click();
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("logout")));
    assertThat(((Number) js("return document.getElementById('logout').getBoundingClientRect().right")).doubleValue())
        .as("log out lies on the screen").isLessThanOrEqualTo(390);
    browser.screenshot("phone-390-menu-open");
    driver.findElement(By.id("menu-toggle")).click();

    // The theme: switched by the toggle, remembered after a reload.
    String before = (String) js("return document.documentElement.dataset.theme");
    assertThat(before).isIn("light", "dark");
    String other = before.equals("dark") ? "light" : "dark";
    driver.findElement(By.id("theme-toggle")).click();
    assertThat(js("return document.documentElement.dataset.theme")).isEqualTo(other);
    driver.navigate().refresh();
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".series-card")));
    assertThat(js("return document.documentElement.dataset.theme")).as("remembered after a reload").isEqualTo(other);
    browser.screenshot("phone-390-library-" + other);

    // The unread count of a card drops after reading a chapter to its end.
    waiting().until(d -> unreadOf(SERIES).equals("2"));
    driver.get(harness.url("/read.html?series=" + SERIES + "&chapter=chapter-0001"));
    waiting().until(ExpectedConditions.attributeToBe(By.id("reader"), "data-page", "1"));
    driver.findElement(By.tagName("body")).sendKeys(Keys.END);
    waiting().until(ExpectedConditions.attributeToBe(By.id("reader"), "data-saved-page", "4"));
    driver.get(harness.url("/"));
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".series-card")));
    waiting().until(d -> unreadOf(SERIES).equals("1"));
    browser.screenshot("phone-390-library-after-reading");

    // An admin makes a collection from the library page: it becomes a shelf.
    driver.findElement(By.id("collection-new")).click();
    driver.findElement(By.id("collection-name")).sendKeys("Night Shows");
    driver.findElement(By.cssSelector("#collection-series input[value='lantern-row']")).click();
    driver.findElement(By.id("collection-save")).click();
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(
        "[data-shelf='collection-night-shows'] [data-series='lantern-row']")));
    assertThat(overflow("library with its shelves")).isNull();

    // A failed (here: paused) job is dismissed from the scraper console; it leaves the queue.
    var paused = admin.post("/api/admin/jobs/" + jobId + "/pause", new JsonObject());
    assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
    driver.get(harness.url("/admin/scraper.html"));
    waiting().until(ExpectedConditions.elementToBeClickable(By.cssSelector(
        "[data-job='" + jobId + "'][data-state='paused'] button[data-action='dismiss']"))).click();
    waiting().until(ExpectedConditions.alertIsPresent()).accept();
    waiting().until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("[data-job='" + jobId + "']"), 0));
    assertThat(admin.get("/api/admin/jobs").body()).doesNotContain(jobId);

    // At 360 px too, Log out is reachable, and it logs out.
    phone(360, 740);
    driver.findElement(By.id("menu-toggle")).click();
    waiting().until(ExpectedConditions.elementToBeClickable(By.id("logout"))).click();
    waiting().until(d -> d.getCurrentUrl().contains("/login.html"));
  }
}
