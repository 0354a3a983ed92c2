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
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Debian Chromium driven by Debian's chromedriver (paths set explicitly, so Selenium Manager never downloads
 * anything), with a fresh profile that is removed on close, and screenshots saved under {@code target/screenshots}.
 */
public final class Browser implements AutoCloseable {

  /** Where the e2e run leaves its screenshots. */
  public static final Path SCREENSHOTS = Path.of("target", "screenshots");

  private static final String CHROMIUM = "/usr/bin/chromium";
  private static final String CHROMEDRIVER = "/usr/bin/chromedriver";

  private final Path profile;
  private final ChromeDriver driver;

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
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20));
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
  }

  public ChromeDriver driver() {
    return driver;
  }

  /** Desktop (1366×900) or phone (390×844) viewport. */
  public void size(int width, int height) {
    driver.manage().window().setSize(new Dimension(width, height));
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
