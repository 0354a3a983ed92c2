package io.mangacircus.launcher.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.RouterSlot;
import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.LauncherHarness;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser while no scraper runs (a launcher with the reader only): the event-bus bridge itself
 * opens, but the scraper badge follows the health page's reachability and never says "live".
 */
@Tag("browser")
class ScraperUnreachableBrowserIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";

  @TempDir
  Path data;

  private LauncherHarness harness;
  private Browser browser;
  private WebDriver driver;

  @BeforeEach
  void start() {
    harness = LauncherHarness.withAdminPassword(data, ADMIN_PASSWORD);
    RouterSlot slot = new RouterSlot();
    harness.start(slot, harness.realReader(slot));
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

  @Test
  void theScraperBadgeIsNotLiveWhileTheHealthPageSaysTheScraperIsUnreachable() {
    driver.get(harness.url("/login.html?next=/admin/scraper.html"));
    waiting(10).until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys("admin");
    driver.findElement(By.id("password")).sendKeys(ADMIN_PASSWORD);
    driver.findElement(By.id("login-button")).click();
    waiting(10).until(ExpectedConditions.urlToBe(harness.url("/admin/scraper.html")));

    // The bridge itself is open: its requests reach the reader, which finds no scraper to answer them.
    waiting(15).until(ExpectedConditions.textMatches(By.id("scraper-message"),
        java.util.regex.Pattern.compile("scraper is unreachable")));
    waiting(15).until(ExpectedConditions.attributeToBe(By.id("bus-state"), "data-state", "unreachable"));
    assertThat(driver.findElement(By.id("bus-state")).getText()).isEqualTo("scraper unreachable");
    browser.screenshot("console-scraper-unreachable");

    driver.get(harness.url("/admin/health.html"));
    waiting(10).until(ExpectedConditions.textToBe(By.id("scraper-status"), "Scraper: not answering"));
  }
}
