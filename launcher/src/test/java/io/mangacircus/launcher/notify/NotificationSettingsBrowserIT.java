package io.mangacircus.launcher.notify;

import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.ok;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.testing.LibraryFixture;
import io.mangacircus.launcher.testing.SeededReaderDb;
import io.mangacircus.launcher.testing.SeededReaderDb.Account;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Notifications in a real browser (Debian Chromium, headless), WireMock standing in for ntfy: an admin adds a
 * destination on the Settings page, presses the test button and sees the answer, the secret never shown again; a
 * reader turns on alerts for a series on its page and says where they go in the profile.
 */
@Tag("browser")
class NotificationSettingsBrowserIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final String SERIES = "circus-nights";

  @TempDir
  Path data;

  private final WireMockServer wm = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private LauncherHarness harness;
  private Browser browser;
  private WebDriver driver;

  @BeforeEach
  void start() {
    wm.start();
    wm.stubFor(any(anyUrl()).willReturn(ok()));
    new LibraryFixture(data).chapter(SERIES, "Circus Nights", 1, 3, Instant.parse("2026-11-20T10:00:00Z"));
    SeededReaderDb.into(data, Account.admin(ADMIN_PASSWORD), Account.reader("alice", "alice-password"));
    // WireMock stands in for alice's ntfy server on the loopback address, which readers may use only when allowed.
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject()
        .put("initialAdminPassword", ADMIN_PASSWORD)).put("notifications", new JsonObject()
        .put("readerAlertAllowedHosts", new JsonArray().add("127.0.0.1"))
        .put("publicUrl", "https://manga.example.org")).encode()).startStandard(Mode.ALL);
    browser = new Browser();
    driver = browser.driver();
  }

  @AfterEach
  void stop() throws Exception {
    try {
      assertThat(Browser.closeAll(browser, harness)).as("every page stayed within the Content-Security-Policy")
          .isEmpty();
    } finally {
      wm.stop();
    }
  }

  private WebDriverWait waiting() {
    return browser.waiting(Duration.ofSeconds(15));
  }

  private void logInTo(String path, String username, String password) {
    driver.manage().deleteAllCookies();
    driver.get(harness.url("/login.html?next=" + path));
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys(username);
    driver.findElement(By.id("password")).sendKeys(password);
    driver.findElement(By.id("login-button")).click();
    waiting().until(d -> !d.getCurrentUrl().contains("/login.html"));
  }

  private void type(String id, String text) {
    driver.findElement(By.id(id)).clear();
    driver.findElement(By.id(id)).sendKeys(text);
  }

  @Test
  void anAdminAddsAnNtfyDestinationPressesTheTestButtonAndSeesTheAnswerWithTheSecretsNeverShownAgain() {
    logInTo("/admin/settings.html", "admin", ADMIN_PASSWORD);
    waiting().until(ExpectedConditions.textMatches(By.id("notifications-summary"),
        java.util.regex.Pattern.compile("Nothing is configured")));
    assertThat(driver.findElement(By.id("test-button")).isEnabled()).isFalse();
    assertThat(driver.findElement(By.cssSelector("#destinations-table tbody")).getText())
        .as("the empty table says what to do").startsWith("No destinations yet. Press “Add a destination”");
    // Number inputs look like the text inputs beside them (border, height, background), not the browser's default.
    for (String property : List.of("border-top-color", "min-height", "background-color", "border-radius")) {
      assertThat(driver.findElement(By.id("heartbeat-interval")).getCssValue(property)).as(property)
          .isEqualTo(driver.findElement(By.id("heartbeat-url")).getCssValue(property));
    }

    driver.findElement(By.id("add-destination")).click();
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("destination-form")));
    type("dest-name", "phone");
    new Select(driver.findElement(By.id("dest-type"))).selectByValue("ntfy");
    type("dest-url", "http://127.0.0.1:" + wm.port() + "/ntfy");
    type("dest-topic", "browser-topic");
    type("dest-token", "tk_browser_secret");
    assertThat(driver.findElements(By.cssSelector("#dest-events input[name='event']:checked"))).hasSize(7);
    driver.findElement(By.cssSelector("#dest-events input[value='memory-yield']")).click();
    driver.findElement(By.id("save-destination")).click();

    waiting().until(ExpectedConditions.textToBe(By.id("settings-message"), "Saved phone."));
    String row = driver.findElement(By.cssSelector("tr[data-name='phone']")).getText();
    assertThat(row).contains("ntfy", "set", "this page").doesNotContain("memory-yield");
    assertThat(driver.findElement(By.cssSelector("#notifications-summary a")).getAttribute("href"))
        .as("the public URL is a link").isEqualTo("https://manga.example.org/");
    assertThat(driver.getPageSource()).doesNotContain("browser-topic", "tk_browser_secret");
    browser.screenshot("settings-destination-added");

    driver.findElement(By.id("test-button")).click();
    waiting().until(ExpectedConditions.textToBe(By.cssSelector("tr[data-name='phone'] .test-answer"), "OK: HTTP 200"));
    assertThat(driver.findElement(By.id("settings-message")).getText()).isEqualTo("All 1 answered.");
    List<LoggedRequest> sent = wm.findAll(postRequestedFor(urlPathEqualTo("/ntfy/browser-topic")));
    assertThat(sent).singleElement().satisfies(r -> {
      assertThat(r.getHeader("Title")).isEqualTo("MangaCircus test message");
      assertThat(r.getHeader("Authorization")).isEqualTo("Bearer tk_browser_secret");
    });

    // A refused value is told on the page and changes nothing.
    driver.findElement(By.id("add-destination")).click();
    type("dest-name", "hook");
    new Select(driver.findElement(By.id("dest-type"))).selectByValue("webhook");
    type("dest-url", "hooks.example.org/no-scheme");
    driver.findElement(By.id("save-destination")).click();
    waiting().until(ExpectedConditions.textToBe(By.id("settings-message"), "Url must be an http(s) address"));
    assertThat(driver.findElements(By.cssSelector("tr[data-name]"))).hasSize(1);
  }

  @Test
  void aReaderTurnsOnAlertsForASeriesOnItsPageAndSetsWhereTheyGoInTheProfile() {
    logInTo("/series.html?id=" + SERIES, "alice", "alice-password");
    waiting().until(ExpectedConditions.elementToBeClickable(By.id("alert-toggle")));
    assertThat(driver.findElement(By.id("alert-toggle")).getAttribute("aria-pressed")).isEqualTo("false");
    assertThat(driver.findElement(By.id("alert-hint")).isDisplayed()).as("no place for alerts yet").isTrue();

    driver.findElement(By.id("alert-toggle")).click();
    waiting().until(ExpectedConditions.attributeToBe(By.id("alert-toggle"), "aria-pressed", "true"));
    ReaderSession alice = ReaderSession.login(harness.port(), "alice", "alice-password");
    assertThat(new JsonObject(alice.get("/api/me/alerts").body()).getJsonArray("series")).containsExactly(SERIES);

    driver.findElement(By.cssSelector("#alert-hint a")).click();
    waiting().until(ExpectedConditions.textMatches(By.id("alerts-status"),
        java.util.regex.Pattern.compile("go nowhere yet")));
    waiting().until(ExpectedConditions.textToBe(By.cssSelector("#alerts-series li a"), "Circus Nights"));
    type("alerts-url", "http://127.0.0.1:" + wm.port() + "/ntfy");
    type("alerts-topic", "alice-topic");
    driver.findElement(By.id("alerts-save")).click();
    waiting().until(ExpectedConditions.textToBe(By.id("alerts-message"), "Saved."));
    assertThat(driver.findElement(By.id("alerts-status")).getText()).startsWith("Alerts go to an ntfy topic");
    assertThat(driver.getPageSource()).doesNotContain("alice-topic");
    browser.screenshot("profile-alerts");

    driver.get(harness.url("/series.html?id=" + SERIES));
    waiting().until(ExpectedConditions.attributeToBe(By.id("alert-toggle"), "aria-pressed", "true"));
    assertThat(driver.findElement(By.id("alert-hint")).isDisplayed()).isFalse();
    driver.findElement(By.id("alert-toggle")).click();
    waiting().until(ExpectedConditions.attributeToBe(By.id("alert-toggle"), "aria-pressed", "false"));
    assertThat(new JsonObject(alice.get("/api/me/alerts").body()).getJsonArray("series")).isEmpty();
  }
}
