package io.mangacircus.launcher.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.reader.trackers.MangaUpdatesFake;
import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.testing.LibraryFixture;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.launcher.testing.SeededReaderDb;
import io.mangacircus.launcher.testing.SeededReaderDb.Account;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The reader in a real browser (Debian Chromium, headless): log in, browse, read with the keyboard, resume. */
@Tag("browser")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReaderBrowserIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final String SERIES = "circus-nights";
  private static final Instant PUBLISHED = Instant.parse("2026-11-20T10:00:00Z");

  @TempDir
  static Path data;

  private LauncherHarness harness;
  private final MangaUpdatesFake mangaupdates = new MangaUpdatesFake();
  private Browser browser;
  private WebDriver driver;

  /**
   * One product and one browser for the class, each test starting from a browser that holds nothing of the one before
   * (no cookie, nothing stored, the desktop size): the tests share the library and never a reader account whose state
   * another test changes (each reads, saves progress and makes app passwords as its own user). A Chromium start is
   * about two seconds of CPU, most of what a short test here costs.
   */
  @BeforeAll
  void startProduct() {
    LibraryFixture library = new LibraryFixture(data);
    Path first = library.chapter(SERIES, "Circus Nights", 1, 6, PUBLISHED);
    try {
      // A downloaded series' metadata comes from its first chapter's ComicInfo.xml.
      Files.writeString(first.resolve("ComicInfo.xml"), "<?xml version=\"1.0\"?><ComicInfo><Series>Circus Nights"
          + "</Series><Writer>Jane Roe</Writer><Genre>Drama</Genre><Year>2019</Year></ComicInfo>");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    library.chapter(SERIES, "Circus Nights", 2, 5, PUBLISHED.plusSeconds(60));
    library.chapter("tightrope-walker", "Tightrope Walker", 1, 4, PUBLISHED.plusSeconds(3600));
    library.chapter("tightrope-walker", "Tightrope Walker", 2, 2, PUBLISHED.plusSeconds(3660));
    library.chapter("tightrope-walker", "Tightrope Walker", 3, 2, PUBLISHED.plusSeconds(3720));
    SeededReaderDb.into(data, Account.admin(ADMIN_PASSWORD), Account.reader("alice", "alice-password"),
        Account.reader("bob", "bob-password"), Account.reader("erin", "erin-password"),
        Account.reader("frank", "frank-password"), Account.reader("grace", "grace-password"),
        Account.reader("hugo", "hugo-password"), Account.reader("ines", "ines-password"),
        Account.reader("jo", "jo-password"));
    mangaupdates.logInAccepts("ines-mu", "ines's mu password", "mu-session-of-ines", 91).profile(91, "ines-on-mu")
        .searchFinds("Tightrope Walker", new MangaUpdatesFake.Series(55, "Tightrope Walker", "2019", "Manga"))
        .notListed(55).acceptsSaves();
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject()
        .put("initialAdminPassword", ADMIN_PASSWORD).put("trackers", new JsonObject().put("mangaupdates",
            new JsonObject().put("enabled", true).put("apiUrl", mangaupdates.baseUrl())
                .put("requestsPerMinute", 600)))).encode()).startStandard(Mode.ALL);
    browser = new Browser();
    driver = browser.driver();
  }

  @BeforeEach
  void forgetThePreviousTest() {
    browser.size(1366, 900);
    driver.get(harness.url("/login.html"));
    driver.manage().deleteAllCookies();
    ((JavascriptExecutor) driver).executeScript("window.localStorage.clear(); window.sessionStorage.clear();");
  }

  @AfterEach
  void noPageBrokeThePolicy() {
    assertThat(browser.cspViolations()).as("every page stayed within the Content-Security-Policy").isEmpty();
  }

  @AfterAll
  void stopProduct() throws Exception {
    Browser.closeAll(browser, harness);
    mangaupdates.close();
  }

  private WebDriverWait waiting() {
    return browser.waiting(Duration.ofSeconds(10));
  }

  private void logIn(String username, String password) {
    driver.manage().deleteAllCookies();
    driver.get(harness.url("/login.html"));
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys(username);
    driver.findElement(By.id("password")).sendKeys(password);
    driver.findElement(By.id("login-button")).click();
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".series-card[data-series-id]")));
  }

  private WebElement reader() {
    return driver.findElement(By.id("reader"));
  }

  private void waitForPage(int page) {
    waiting().until(ExpectedConditions.attributeToBe(By.id("reader"), "data-page", String.valueOf(page)));
  }

  @Test
  void aReaderReadsRightToLeftWithTheKeyboardAndResumesAfterAReload() {
    logIn("alice", "alice-password");
    assertThat(driver.findElements(By.cssSelector(".series-card[data-series-id]"))).hasSize(2);
    assertThat(driver.findElements(By.id("nav-users"))).as("readers see no admin link").isEmpty();
    browser.screenshot("library-desktop");

    driver.findElement(By.cssSelector(".series-card[data-series-id='" + SERIES + "'] a.series-link")).click();
    waiting().until(ExpectedConditions.textToBe(By.id("series-title"), "Circus Nights"));
    assertThat(driver.findElements(By.cssSelector(".chapter-row"))).hasSize(2);
    browser.screenshot("series-desktop");

    driver.findElement(By.id("continue-button")).click();
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("reader")));
    waitForPage(1);
    new Select(driver.findElement(By.id("mode-select"))).selectByValue("rtl");
    waiting().until(ExpectedConditions.attributeToBe(By.id("reader"), "data-mode", "rtl"));
    WebElement body = driver.findElement(By.tagName("body"));
    for (int i = 0; i < 3; i++) {
      body.sendKeys(Keys.ARROW_LEFT);
    }
    waitForPage(4);
    assertThat(driver.findElement(By.id("page-indicator")).getText()).isEqualTo("4 / 6");
    body.sendKeys(Keys.ARROW_RIGHT);
    waitForPage(3);
    body.sendKeys(Keys.ARROW_LEFT);
    waitForPage(4);
    browser.screenshot("reader-desktop");
    waiting().until(ExpectedConditions.attributeToBe(By.id("reader"), "data-saved-page", "4"));

    driver.navigate().refresh();
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("reader")));
    waitForPage(4);
    assertThat(reader().getAttribute("data-mode")).as("the reading mode is remembered").isEqualTo("rtl");
    assertThat(reader().getAttribute("data-chapter")).isEqualTo("chapter-0001");

    ReaderSession api = ReaderSession.login(harness.port(), "alice", "alice-password");
    JsonObject series = new JsonObject(api.get("/api/series/" + SERIES).body());
    assertThat(series.getJsonObject("progress").getInteger("page")).isEqualTo(4);
    JsonObject bobs = new JsonObject(ReaderSession.login(harness.port(), "bob", "bob-password")
        .get("/api/series/" + SERIES).body());
    assertThat(bobs.getValue("progress")).as("bob's progress is his own").isNull();

    logIn("bob", "bob-password");
    driver.get(harness.url("/read.html?series=" + SERIES + "&chapter=chapter-0001"));
    waitForPage(1);
    driver.get(harness.url("/series.html?id=" + SERIES));
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".chapter-row")));
    assertThat(driver.findElement(By.id("series-details")).getText()).contains("Jane Roe (Writer)")
        .contains("Drama").contains("2019");
    assertThat(driver.findElements(By.cssSelector(".chapter-row[data-state='read']"))).isEmpty();
    assertThat(driver.findElement(By.cssSelector(".chapter-row[data-chapter-id='chapter-0002']"))
        .getAttribute("data-state")).isEqualTo("unread");
    assertThat(new JsonObject(api.get("/api/series/" + SERIES).body()).getJsonObject("progress").getInteger("page"))
        .as("bob reading page 1 leaves alice at page 4").isEqualTo(4);
  }

  @Test
  void theEndOfAChapterLeadsIntoTheNextAndMarksItRead() {
    logIn("erin", "erin-password");
    driver.get(harness.url("/read.html?series=" + SERIES + "&chapter=chapter-0001"));
    waitForPage(1);
    WebElement body = driver.findElement(By.tagName("body"));

    body.sendKeys(Keys.END);
    waitForPage(6);
    waiting().until(ExpectedConditions.attributeToBe(By.id("reader"), "data-saved-page", "6"));
    body.sendKeys(Keys.SPACE);
    waiting().until(ExpectedConditions.attributeToBe(By.id("reader"), "data-end", "next"));
    body.sendKeys(Keys.SPACE);
    waiting().until(ExpectedConditions.attributeToBe(By.id("reader"), "data-chapter", "chapter-0002"));
    waitForPage(1);
    body.sendKeys(Keys.ESCAPE);

    waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("series-title")));
    waiting().until(ExpectedConditions.attributeToBe(By.cssSelector(".chapter-row[data-chapter-id='chapter-0001']"),
        "data-state", "read"));
  }

  @Test
  void aReaderAccountCannotOpenAdminPages() {
    logIn("bob", "bob-password");

    driver.get(harness.url("/admin/users.html"));

    waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("forbidden")));
    assertThat(driver.findElements(By.id("users-table"))).isEmpty();
  }

  @Test
  void anAdminCreatesAUserWhoCanThenLogIn() {
    logIn("admin", ADMIN_PASSWORD);
    driver.findElement(By.id("nav-users")).click();
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".user-row[data-username='alice']")));

    driver.findElement(By.id("new-username")).sendKeys("carol");
    driver.findElement(By.id("new-password")).sendKeys("carol-password");
    new Select(driver.findElement(By.id("new-role"))).selectByValue("reader");
    driver.findElement(By.id("create-user")).click();
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".user-row[data-username='carol']")));
    browser.screenshot("users-desktop");

    ReaderSession.login(harness.port(), "carol", "carol-password");
  }

  @Test
  void anAdminLimitsWhatAUserSeesFromTheUsersPage() {
    logIn("admin", ADMIN_PASSWORD);
    driver.get(harness.url("/admin/users.html"));
    WebElement hugo = waiting().until(ExpectedConditions.presenceOfElementLocated(
        By.cssSelector(".user-row[data-username='hugo']")));
    assertThat(hugo.findElement(By.cssSelector(".access")).getText()).isEqualTo("All libraries; no age limit");

    hugo.findElement(By.cssSelector(".change-access")).click();
    WebElement names = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("access-hugo-names")));
    driver.findElement(By.cssSelector("label[for='access-hugo-some']")).click();
    names.sendKeys("downloads");
    new Select(driver.findElement(By.cssSelector("select[id='access-hugo-limit']"))).selectByValue("12");
    browser.screenshot("users-access-form");
    driver.findElement(By.cssSelector(".access-row[data-username='hugo'] .access-save")).click();

    String limited = "downloads; up to 12+, unrated hidden";
    waiting().until(ExpectedConditions.textToBePresentInElementLocated(
        By.cssSelector(".user-row[data-username='hugo'] .access"), limited));
    driver.navigate().refresh();
    waiting().until(ExpectedConditions.textToBePresentInElementLocated(
        By.cssSelector(".user-row[data-username='hugo'] .access"), limited));
  }

  @Test
  void aReaderSetsReadingDefaultsAndChangesTheirOwnPasswordOnTheProfilePage() {
    logIn("jo", "jo-password");
    driver.get(harness.url("/profile.html"));
    waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("reading-defaults-message"),
        "No defaults saved yet"));
    new Select(driver.findElement(By.id("reading-layout"))).selectByValue("double");
    new Select(driver.findElement(By.id("reading-direction"))).selectByValue("ltr");
    new Select(driver.findElement(By.id("reading-offset"))).selectByValue("true");
    driver.findElement(By.id("reading-defaults-save")).click();
    waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("reading-defaults-message"),
        "Reading defaults saved"));
    driver.get(harness.url("/read.html?series=tightrope-walker&chapter=chapter-0001"));
    waiting().until(ExpectedConditions.attributeToBe(By.id("reader"), "data-settings", "ready"));
    assertThat(reader().getAttribute("data-layout-choice") + " " + reader().getAttribute("data-direction") + " "
        + reader().getAttribute("data-offset")).as("a series never set opens with the defaults")
        .isEqualTo("double ltr true");

    driver.get(harness.url("/profile.html"));
    WebElement current = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("own-password-current")));
    current.sendKeys("not-jo-password");
    driver.findElement(By.id("own-password-new")).sendKeys("jo-new-password");
    driver.findElement(By.id("own-password-repeat")).sendKeys("jo-new-password");
    driver.findElement(By.id("own-password-save")).click();
    waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("own-password-error"),
        "That is not your current password."));
    current.clear();
    current.sendKeys("jo-password");
    driver.findElement(By.id("own-password-repeat")).sendKeys("-typo");
    driver.findElement(By.id("own-password-save")).click();
    waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("own-password-error"),
        "The two new passwords differ"));
    driver.findElement(By.id("own-password-repeat")).clear();
    driver.findElement(By.id("own-password-repeat")).sendKeys("jo-new-password");
    driver.findElement(By.id("own-password-save")).click();
    waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("own-password-message"),
        "Password changed"));
    assertThat(driver.findElement(By.id("own-password-new")).getAttribute("value")).as("the form is emptied").isEmpty();

    assertThat(ReaderSession.send(harness.port(), "POST", "/api/login",
        new JsonObject().put("username", "jo").put("password", "jo-password").encode()).statusCode())
        .as("the old password no longer signs in").isEqualTo(401);
    ReaderSession.login(harness.port(), "jo", "jo-new-password");
    driver.navigate().refresh();
    waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("profile-user"), "jo"));
  }

  @Test
  void aReaderMakesAnAppPasswordInTheProfileUsesItInAnAppAndRevokesIt() throws Exception {
    logIn("frank", "frank-password");
    driver.get(harness.url("/series.html?id=" + SERIES));
    WebElement download = waiting().until(ExpectedConditions.presenceOfElementLocated(
        By.cssSelector(".chapter-row[data-chapter-id='chapter-0001'] .download-chapter")));
    assertThat(download.getAttribute("href")).endsWith("/api/series/circus-nights/chapters/chapter-0001.cbz");

    driver.findElement(By.id("whoami")).click();
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("app-password-name")))
        .sendKeys("Kobo and the iPad");
    new Select(driver.findElement(By.id("app-password-scope"))).selectByValue("read+progress");
    driver.findElement(By.id("create-app-password")).click();
    WebElement secretBox = waiting().until(ExpectedConditions.visibilityOfElementLocated(
        By.id("new-app-password-secret")));
    String secret = secretBox.getText();
    assertThat(secret).hasSize(24);
    assertThat(driver.findElement(By.id("new-app-password-scope")).getText()).isEqualTo("Read and sync progress");
    assertThat(driver.findElement(By.cssSelector("tr[data-app-password-id] .last-used")).getText())
        .isEqualTo("never");
    assertThat(driver.findElement(By.cssSelector("tr[data-app-password-id] .app-password-scope")).getText())
        .as("the scope chosen, and that KOReader's sync can use it").contains("Read and sync progress")
        .contains("KOReader sync");
    browser.screenshot("profile-app-password");

    assertThat(opds("frank", secret)).as("the app reads the catalog with it").isEqualTo(200);
    driver.navigate().refresh();
    waiting().until(ExpectedConditions.not(ExpectedConditions.textToBe(
        By.cssSelector("tr[data-app-password-id] .last-used"), "never")));
    assertThat(driver.findElements(By.id("new-app-password-secret")).get(0).getText())
        .as("shown once: not after a reload").isEmpty();

    driver.findElement(By.cssSelector("tr[data-app-password-id] .revoke")).click();
    waiting().until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("tr[data-app-password-id]"), 0));
    assertThat(opds("frank", secret)).as("revoked at once").isEqualTo(401);
  }

  private int opds(String user, String password) throws Exception {
    java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
        java.net.URI.create(harness.url("/opds/v1.2/catalog"))).header("Authorization", "Basic "
            + java.util.Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8))).build();
    return java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build()
        .send(request, java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
  }

}
