package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.SeededReaderDb;
import io.mangacircus.launcher.testing.SeededReaderDb.Account;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * Walks every page in both themes at desktop (1366×900) and phone (360×740) size: axe-core finds no serious or
 * critical accessibility violation (colour contrast included), and on the phone no visible element lies past the
 * screen's edges (elements inside a container that scrolls sideways on purpose excepted).
 */
// In the launcher's own package: failsafe runs classes alphabetically, and this long walk started first does not
// leave one JVM working alone at the end (see the root pom's side-by-side execution).
@Tag("browser")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PageWalkBrowserIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final String SERIES = "circus-nights";
  private static final Instant PUBLISHED = Instant.parse("2026-11-20T10:00:00Z");
  private static final int[][] SIZES = {{1366, 900}, {360, 740}};
  private static final String[] THEMES = {"light", "dark"};

  /**
   * Every visible element whose box leaves [0, width], as "tag#id.class: left..right", unless an ancestor scrolls or
   * clips sideways (a strip meant to be scrolled; a title cut with an ellipsis), plus the document's own width.
   */
  private static final String OFF_SCREEN = """
      const width = arguments[0];
      const found = [];
      const clipped = (el) => {
        for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
          const x = getComputedStyle(p).overflowX;
          if (x !== 'visible') return true;
        }
        return false;
      };
      const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
          + (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
      for (const el of document.body.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width < 2 || r.height < 2) continue;
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden' || style.display === 'none' || el.closest('[hidden]')) continue;
        if (r.left < -0.5 || r.right > width + 0.5) {
          if (!clipped(el)) found.push(name(el) + ': ' + Math.round(r.left) + '..' + Math.round(r.right));
        }
      }
      const scroll = document.documentElement.scrollWidth;
      if (scroll > width) found.push('document: ' + scroll + ' px wide');
      return found.slice(0, 8);
      """;

  /** axe-core's serious and critical violations, as "rule-id (impact): target, target…". */
  private static final String AXE_RUN = """
      const done = arguments[arguments.length - 1];
      axe.run(document, {resultTypes: ['violations']}).then((results) => done(results.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 4)
              .map((n) => n.target.join(' ')).join(', ') + (v.nodes.length > 4 ? ' …' : ''))),
          (error) => done(['axe failed: ' + error]));
      """;

  @TempDir
  static Path data;

  private LauncherHarness harness;
  private Browser browser;
  private ChromeDriver driver;
  private String axeSource;

  /** Each page, and what shows that it has drawn its data. */
  private final Map<String, String> adminPages = new LinkedHashMap<>();
  private final Map<String, String> readerPages = new LinkedHashMap<>();

  @BeforeAll
  void startProduct() {
    LibraryFixture library = new LibraryFixture(data);
    library.chapter(SERIES, "Circus Nights", 1, 4, PUBLISHED);
    library.chapter(SERIES, "Circus Nights", 2, 3, PUBLISHED.plusSeconds(60));
    library.chapter("lantern-row", "Lantern Row: A Very Long Title That Would Push A Narrow Card Wider", 1, 3,
        PUBLISHED.plusSeconds(3600));
    SeededReaderDb.into(data, Account.admin(ADMIN_PASSWORD),
        Account.reader("reader-with-a-rather-long-name", "reader-password"));
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject()
        .put("initialAdminPassword", ADMIN_PASSWORD)).encode()).startStandard(Mode.ALL);
    try (InputStream in = getClass().getResourceAsStream("/axe/axe.min.js")) {
      assertThat(in).as("axe-core on the test classpath (launcher's pom fetches it from npm)").isNotNull();
      axeSource = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // A reader's pages differ from an admin's in the header and the profile only: those two are walked as both.
    readerPages.put("library", "/ .series-card");
    readerPages.put("profile", "/profile.html #profile-user:not(:empty)");
    adminPages.put("library", "/ .series-card");
    adminPages.put("series", "/series.html?id=" + SERIES + " .chapter-row[data-chapter-id]");
    adminPages.put("reader", "/read.html?series=" + SERIES + "&chapter=chapter-0002 #reader[data-page='1']");
    adminPages.put("profile", "/profile.html #profile-user:not(:empty)");
    adminPages.put("offline", "/offline.html #offline-empty:not([hidden])");
    adminPages.put("users", "/admin/users.html .user-row");
    adminPages.put("health", "/admin/health.html #checked-at:not(:empty)");
    adminPages.put("scraper", "/admin/scraper.html #queue");
    adminPages.put("settings", "/admin/settings.html #destinations-table");
    adminPages.put("add", "/admin/add.html #search-q");
    browser = new Browser();
    driver = browser.driver();
    // In every document before its own scripts, outside the page's Content-Security-Policy (DevTools adds it, the page
    // does not), and sent to the browser once rather than with every page.
    driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", axeSource));
  }

  @AfterEach
  void noPageBrokeThePolicy() {
    assertThat(browser.cspViolations()).as("every page stayed within the Content-Security-Policy").isEmpty();
  }

  @AfterAll
  void stopProduct() throws Exception {
    Browser.closeAll(browser, harness);
  }

  private void viewport(int width, int height) {
    driver.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", height,
        "deviceScaleFactor", 1, "mobile", width < 600));
  }

  private void logIn(String username, String password) {
    driver.manage().deleteAllCookies();
    driver.get(harness.url("/login.html"));
    browser.waiting(Duration.ofSeconds(10)).until(ExpectedConditions.visibilityOfElementLocated(By.id("username")))
        .sendKeys(username);
    driver.findElement(By.id("password")).sendKeys(password);
    driver.findElement(By.id("login-button")).click();
    browser.waiting(Duration.ofSeconds(10))
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".series-card")));
  }

  /** Walks the pages in each theme and size, adding what is wrong on each to {@code problems}. */
  @SuppressWarnings("unchecked")
  private void walk(String who, Map<String, String> pages, List<String> problems) {
    walk(who, pages, problems, true);
  }

  /**
   * @param everyCombination false: light on the desktop and dark on the phone only, for pages walked in full as
   *     another role (what differs by role, the header and the profile, still meets both themes and both sizes)
   */
  private void walk(String who, Map<String, String> pages, List<String> problems, boolean everyCombination) {
    for (String theme : THEMES) {
      driver.executeScript("window.localStorage.setItem('mc.theme', arguments[0])", theme);
      for (int[] size : SIZES) {
        if (!everyCombination && theme.equals("light") != size[0] > 600) {
          continue;
        }
        viewport(size[0], size[1]);
        for (Map.Entry<String, String> page : pages.entrySet()) {
          String[] urlAndReady = page.getValue().split(" ", 2);
          driver.get(harness.url(urlAndReady[0]));
          browser.waiting(Duration.ofSeconds(10))
              .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(urlAndReady[1])));
          String where = who + " " + page.getKey() + " " + theme + " " + size[0] + ": ";
          assertThat(driver.executeScript("return document.documentElement.dataset.theme")).isEqualTo(theme);
          for (String violation : (List<String>) driver.executeAsyncScript(AXE_RUN)) {
            problems.add(where + violation);
          }
          if (size[0] < 600) {
            for (String outside : (List<String>) driver.executeScript(OFF_SCREEN, size[0])) {
              problems.add(where + "past the screen's edge: " + outside);
            }
          }
        }
      }
    }
    viewport(1366, 900);
  }

  @Test
  void everyPageIsAccessibleInBothThemesAndFitsAPhone() {
    List<String> problems = new ArrayList<>();
    driver.get(harness.url("/login.html"));
    walk("nobody", Map.of("login", "/login.html #username"), problems);
    logIn("admin", ADMIN_PASSWORD);
    walk("admin", adminPages, problems);
    logIn("reader-with-a-rather-long-name", "reader-password");
    walk("reader", readerPages, problems, false);
    assertThat(problems).as("serious or critical axe-core violations and elements past a 360 px screen").isEmpty();
  }
}
