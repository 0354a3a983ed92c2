package io.mangacircus.launcher.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Debian Chromium driven by Debian's chromedriver (paths set explicitly, so Selenium Manager never downloads
 * anything), with a fresh profile that is removed on close, and screenshots saved under {@code target/screenshots}.
 * It keeps the browser's console messages, so a test can tell whether a page broke the Content-Security-Policy.
 */
public final class Browser implements AutoCloseable {

  /** Where the e2e run leaves its screenshots. */
  public static final Path SCREENSHOTS = Path.of("target", "screenshots");

  private static final String CHROMIUM = "/usr/bin/chromium";
  private static final String CHROMEDRIVER = "/usr/bin/chromedriver";

  private final Path profile;
  private final ChromeDriver driver;
  private final java.util.List<String> consoleSeen = new java.util.ArrayList<>();

  public Browser() {
    for (String binary : new String[] {CHROMIUM, CHROMEDRIVER}) {
      if (!Files.isExecutable(Path.of(binary))) {
        throw new IllegalStateException(binary + " is missing: browser tests need Debian's chromium and "
            + "chromium-driver (apt-get install -y chromium chromium-driver; .ci/run installs them)");
      }
    }
    try {
      profile = Files.createTempDirectory("mc-chromium-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
        "--disable-quic", "--user-data-dir=" + profile, "--window-size=1366,900");
    // The console log is where Chromium reports what the Content-Security-Policy refused.
    options.setCapability("goog:loggingPrefs", java.util.Map.of(org.openqa.selenium.logging.LogType.BROWSER, "ALL"));
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20));
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
  }

  public ChromeDriver driver() {
    return driver;
  }

  /**
   * Every Content-Security-Policy violation the browser reported so far (its console messages naming the policy),
   * across page loads.
   */
  public java.util.List<String> cspViolations() {
    for (org.openqa.selenium.logging.LogEntry entry : driver.manage().logs().get(
        org.openqa.selenium.logging.LogType.BROWSER)) {
      consoleSeen.add(entry.getMessage());
    }
    return consoleSeen.stream().filter(m -> m.contains("Content Security Policy")).toList();
  }

  /**
   * The end of a browser test: closes the browser (when it started) and then the launcher, the launcher even when the
   * browser fails to close, and returns the Content-Security-Policy violations the browser saw before.
   */
  public static java.util.List<String> closeAll(Browser browser, AutoCloseable launcher) throws Exception {
    java.util.List<String> violations = java.util.List.of();
    try {
      if (browser != null) {
        violations = browser.cspViolations();
        browser.close();
      }
    } finally {
      if (launcher != null) {
        launcher.close();
      }
    }
    return violations;
  }

  /** Desktop (1366×900) or phone (390×844) viewport. */
  public void size(int width, int height) {
    driver.manage().window().setSize(new Dimension(width, height));
  }

  /**
   * A wait that asks its condition again when an element went stale: the pages redraw their lists on live events, so
   * an element found just before a redraw is stale, which says nothing about whether the condition holds.
   */
  public WebDriverWait waiting(Duration timeout) {
    WebDriverWait wait = new WebDriverWait(driver, timeout);
    wait.ignoring(StaleElementReferenceException.class);
    return wait;
  }

  /** Saves the viewport as {@code target/screenshots/<name>.png}. */
  public Path screenshot(String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      Path target = SCREENSHOTS.resolve(name + ".png");
      Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      try (var files = Files.walk(profile)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        // a leftover temp profile is harmless
      }
    }
  }
}
