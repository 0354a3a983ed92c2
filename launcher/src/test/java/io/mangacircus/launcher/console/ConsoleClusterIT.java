package io.mangacircus.launcher.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.testing.DaemonPair;
import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The health page of the daemon pair (two JVMs on the clustered bus) while the scraper process is SIGKILLed and replaced. */
@Tag("process") @Tag("browser") @Tag("cluster")
class ConsoleClusterIT {

  private static final String ADMIN_PASSWORD = "cluster-admin-pass";

  @TempDir
  Path work;

  @Test
  void theHealthPageShowsAKilledScraperUnreachableWithinTenSecondsAndItsReplacementReachable() throws Exception {
    try (DaemonPair pair = DaemonPair.start(work, Map.of("MANGACIRCUS_ADMIN_PASSWORD", ADMIN_PASSWORD));
        Browser browser = new Browser()) {
      JarProcess scraper = pair.scraper();
      JarProcess reader = pair.reader();
      int readerPort = pair.readerPort();
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
          .until(() -> HttpProbe.get(readerPort, "/health/ready").status() == 200);
      WebDriver driver = browser.driver();
      String base = "http://127.0.0.1:" + readerPort;
      driver.get(base + "/login.html?next=/admin/health.html");
      WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(15));
      wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys("admin");
      driver.findElement(By.id("password")).sendKeys(ADMIN_PASSWORD);
      driver.findElement(By.id("login-button")).click();
      wait.until(d -> !d.getCurrentUrl().contains("/login.html"));
      wait.until(ExpectedConditions.textToBe(By.id("scraper-status"), "Scraper: reachable"));
      // Both launchers are listed: the reader's process and the scraper's.
      wait.until(d -> d.findElements(By.cssSelector("#supervisors-table tr[data-service='scraper']")).size() == 1
          && d.findElements(By.cssSelector("#supervisors-table tr[data-service='reader']")).size() == 1);

      scraper.kill();
      long killed = System.nanoTime();
      new WebDriverWait(driver, Duration.ofSeconds(10))
          .until(ExpectedConditions.textToBe(By.id("scraper-status"), "Scraper: unreachable"));
      System.out.printf("[measure] health page showed the scraper unreachable %d ms after SIGKILL%n",
          Duration.ofNanos(System.nanoTime() - killed).toMillis());
      assertThat(driver.findElement(By.id("yield-status")).getText()).contains("unknown");
      // The dead process's launcher falls silent: its last published state is no longer shown as current.
      // The table is redrawn on every status event: a row found just before a redraw goes stale, so look again.
      new WebDriverWait(driver, Duration.ofSeconds(20))
          .ignoring(org.openqa.selenium.StaleElementReferenceException.class).until(d -> d.findElement(
          By.cssSelector("#supervisors-table tr[data-service='scraper'] .supervisor-state")).getText()
          .contains("not heard from"));
      browser.screenshot("console-health-scraper-unreachable");

      try (JarProcess replacement = pair.startScraper()) {
        new WebDriverWait(driver, Duration.ofSeconds(60))
            .until(ExpectedConditions.textToBe(By.id("scraper-status"), "Scraper: reachable"));
        assertThat(driver.findElement(By.id("scraper-detail")).getText()).startsWith("instance");
        replacement.terminate();
        assertThat(replacement.waitForExit(Duration.ofSeconds(30))).as(replacement.output()).isZero();
      }
      reader.terminate();
      assertThat(reader.waitForExit(Duration.ofSeconds(30))).as(reader.output()).isZero();
    }
  }
}
