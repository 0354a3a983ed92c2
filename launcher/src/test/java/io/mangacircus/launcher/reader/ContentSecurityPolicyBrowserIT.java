package io.mangacircus.launcher.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.testing.LibraryFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Content-Security-Policy in a real browser: every page works under it without a violation, and the browser
 * does enforce it (an inline script is refused and reported), so "no violation" in the other browser tests means
 * something.
 */
@Tag("browser")
class ContentSecurityPolicyBrowserIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final String SERIES = "circus-nights";

  @TempDir
  Path data;

  private LauncherHarness harness;
  private Browser browser;
  private WebDriver driver;

  @BeforeEach
  void start() {
    new LibraryFixture(data).chapter(SERIES, "Circus Nights", 1, 3, Instant.parse("2026-11-20T10:00:00Z"));
    harness = LauncherHarness.withAdminPassword(data, ADMIN_PASSWORD).startStandard(Mode.ALL);
    browser = new Browser();
    driver = browser.driver();
  }

  @AfterEach
  void stop() throws Exception {
    Browser.closeAll(browser, harness);
  }

  private WebDriverWait waiting() {
    return browser.waiting(Duration.ofSeconds(15));
  }

  @Test
  void everyPageWorksUnderThePolicyAndAnInlineScriptIsRefused() {
    driver.get(harness.url("/login.html"));
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys("admin");
    driver.findElement(By.id("password")).sendKeys(ADMIN_PASSWORD);
    driver.findElement(By.id("login-button")).click();
    waiting().until(ExpectedConditions.urlToBe(harness.url("/")));
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("a[href*='" + SERIES + "']")));

    driver.get(harness.url("/series.html?id=" + SERIES));
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".chapter-row")));
    driver.get(harness.url("/read.html?series=" + SERIES + "&chapter=chapter-0001"));
    waiting().until(d -> (Boolean) ((JavascriptExecutor) d).executeScript(
        "const img = document.querySelector('img'); return !!img && img.complete && img.naturalWidth > 0;"));
    driver.get(harness.url("/admin/users.html"));
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".user-row")));
    // The console's SockJS WebSocket to the same host and port is allowed by connect-src 'self'.
    driver.get(harness.url("/admin/scraper.html"));
    waiting().until(ExpectedConditions.textToBe(By.id("bus-state"), "live"));
    driver.get(harness.url("/admin/health.html"));
    waiting().until(ExpectedConditions.textToBe(By.id("scraper-status"), "Scraper: running"));

    assertThat(browser.cspViolations()).as("no page broke the policy").isEmpty();

    Object ran = ((JavascriptExecutor) driver).executeScript(
        "window.inlineRan = false; const s = document.createElement('script');"
            + "s.textContent = 'window.inlineRan = true'; document.body.append(s); return window.inlineRan;");
    assertThat(ran).as("an inline script does not run").isEqualTo(false);
    waiting().until(d -> !browser.cspViolations().isEmpty());
    assertThat(browser.cspViolations()).anySatisfy(m -> assertThat(m).contains("inline script"));
  }
}
