package io.mangacircus.launcher.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.SeededReaderDb;
import io.mangacircus.launcher.testing.SeededReaderDb.Account;
import io.mangacircus.testing.LibraryFixture;
import io.mangacircus.testing.TestImages;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import javax.imageio.ImageIO;
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
import org.openqa.selenium.interactions.Interactive;
import org.openqa.selenium.interactions.PointerInput;
import org.openqa.selenium.interactions.Sequence;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The reader's modes in a real browser: two-page spreads (pairing, offset, a wide page alone, right-to-left order),
 * the auto layout by screen shape, tap zones and swipes on a phone, the keyboard help, the end of the last chapter.
 */
@Tag("browser")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReaderModesBrowserIT {

  private static final String SERIES = "paper-lanterns";
  private static final Instant PUBLISHED = Instant.parse("2026-11-20T10:00:00Z");

  @TempDir
  static Path data;

  private LauncherHarness harness;
  private Browser browser;
  private WebDriver driver;

  /**
   * One product and one browser for the class. Chapter 1 has six portrait pages, the second drawn in a white margin;
   * chapter 2 (the last) five, the third of them wider than tall. Each test reads as its own user, since reading
   * settings are kept per user.
   */
  @BeforeAll
  void startProduct() throws IOException {
    LibraryFixture library = new LibraryFixture(data);
    replacePage(library.chapter(SERIES, "Paper Lanterns", 1, 6, PUBLISHED), 2, framedPage());
    Path second = library.chapter(SERIES, "Paper Lanterns", 2, 5, PUBLISHED.plusSeconds(60));
    replacePage(second, 3, TestImages.image("png", 600, 300, 3));
    SeededReaderDb.into(data, Account.admin("admin-pass-123"), Account.reader("amy", "amy-password"),
        Account.reader("ben", "ben-password"), Account.reader("cat", "cat-password"),
        Account.reader("dan", "dan-password"), Account.reader("eve", "eve-password"),
        Account.reader("fay", "fay-password"), Account.reader("gil", "gil-password"));
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject()
        .put("initialAdminPassword", "admin-pass-123")).encode()).startStandard(Mode.ALL);
    browser = new Browser();
    driver = browser.driver();
  }

  /** A 300×420 page whose drawing (180×260 at 60,80) sits in a white margin, as a scan often does. */
  private static byte[] framedPage() throws IOException {
    BufferedImage page = new BufferedImage(300, 420, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = page.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, 300, 420);
    g.setColor(new Color(0x2B, 0x4A, 0x6F));
    g.fillRect(60, 80, 180, 260);
    g.dispose();
    ByteArrayOutputStream png = new ByteArrayOutputStream();
    ImageIO.write(page, "png", png);
    return png.toByteArray();
  }

  /** Puts another image in a chapter's page, its size and checksum recorded in chapter.json as the scraper would. */
  private static void replacePage(Path chapter, int page, byte[] png) throws IOException {
    String file = String.format("%03d.png", page);
    Files.write(chapter.resolve(file), png);
    JsonObject json = new JsonObject(Files.readString(chapter.resolve("chapter.json")));
    JsonArray pages = json.getJsonArray("pages");
    for (int i = 0; i < pages.size(); i++) {
      JsonObject entry = pages.getJsonObject(i);
      if (file.equals(entry.getString("file"))) {
        entry.put("size", png.length).put("sha256", LibraryFixture.sha256(png));
      }
    }
    Files.writeString(chapter.resolve("chapter.json"), json.encode());
  }

  @BeforeEach
  void forgetThePreviousTest() {
    browser.size(1280, 800);
    driver.get(harness.url("/login.html"));
    driver.manage().deleteAllCookies();
    js("window.localStorage.clear(); window.sessionStorage.clear();");
  }

  @AfterEach
  void noPageBrokeThePolicy() {
    assertThat(browser.cspViolations()).as("every page stayed within the Content-Security-Policy").isEmpty();
  }

  @AfterAll
  void stopProduct() throws Exception {
    Browser.closeAll(browser, harness);
  }

  @Test
  void twoPageModePairsTheCoverAloneThenTwoAndThreeAndTheOffsetPairsOneAndTwo() {
    open("amy", "amy-password", "chapter-0001");
    new Select(driver.findElement(By.id("layout-select"))).selectByValue("double");

    waitFor("data-spreads", "1 2-3 4-5 6");
    waitFor("data-spread", "1");
    body().sendKeys(Keys.ARROW_RIGHT);
    waitFor("data-spread", "2-3");
    assertSideBySide(2, 3);
    assertThat(driver.findElement(By.id("page-indicator")).getText()).isEqualTo("2–3 / 6");
    body().sendKeys(Keys.SPACE);
    waitFor("data-spread", "4-5");
    assertThat(reader().getAttribute("data-page")).as("the position is the spread's first page").isEqualTo("4");

    body().sendKeys("o");
    waitFor("data-spreads", "1-2 3-4 5-6");
    waitFor("data-spread", "3-4");
    body().sendKeys(Keys.END);
    waitFor("data-spread", "5-6");
    assertThat(reader().getAttribute("data-page")).as("the last spread records its last page").isEqualTo("6");
    assertSideBySide(5, 6);
    waitFor("data-saved-page", "6");
    browser.screenshot("reader-two-pages");
  }

  @Test
  void settingsChosenInOneBrowserFollowTheUserToAnotherBrowserProfile() throws Exception {
    open("fay", "fay-password", "chapter-0001");
    new Select(driver.findElement(By.id("layout-select"))).selectByValue("double");
    waitFor("data-layout", "double");
    new Select(driver.findElement(By.id("mode-select"))).selectByValue("rtl");
    waitFor("data-direction", "rtl");
    body().sendKeys("o");
    waitFor("data-offset", "true");
    waitFor("data-settings-saved", "server");

    try (Browser other = new Browser()) {
      WebDriver second = other.driver();
      second.get(harness.url("/login.html"));
      WebDriverWait wait = other.waiting(Duration.ofSeconds(10));
      wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys("fay");
      second.findElement(By.id("password")).sendKeys("fay-password");
      second.findElement(By.id("login-button")).click();
      wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".series-card[data-series-id]")));
      second.get(harness.url("/read.html?series=" + SERIES + "&chapter=chapter-0001"));
      wait.until(ExpectedConditions.attributeToBe(By.id("reader"), "data-settings", "ready"));

      WebElement there = second.findElement(By.id("reader"));
      assertThat(there.getAttribute("data-layout-choice")).as("kept on the server, not in this browser")
          .isEqualTo("double");
      assertThat(there.getAttribute("data-direction")).isEqualTo("rtl");
      assertThat(there.getAttribute("data-offset")).isEqualTo("true");
      assertThat(other.cspViolations()).isEmpty();
    }
  }

  @Test
  void aWidePageStandsAloneRightToLeftPutsAPairsFirstPageOnTheRightAndTheLastChapterSaysThereIsNoNextYet() {
    open("ben", "ben-password", "chapter-0002");
    new Select(driver.findElement(By.id("layout-select"))).selectByValue("double");
    new Select(driver.findElement(By.id("mode-select"))).selectByValue("rtl");

    waitFor("data-spreads", "1 2 3 4-5");
    body().sendKeys(Keys.ARROW_LEFT);
    waitFor("data-spread", "2");
    body().sendKeys(Keys.ARROW_LEFT);
    waitFor("data-spread", "3");
    assertThat(driver.findElements(By.cssSelector(".spread .page-slot:not([hidden])"))).hasSize(1);
    body().sendKeys(Keys.ARROW_LEFT);
    waitFor("data-spread", "4-5");
    assertSideBySide(4, 5);
    assertThat(slot(4).getRect().getX()).as("right to left: page 4 lies to the right of page 5")
        .isGreaterThan(slot(5).getRect().getX());
    browser.screenshot("reader-two-pages-rtl");

    body().sendKeys(Keys.ARROW_LEFT);
    waitFor("data-end", "none");
    WebElement end = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("end-screen")));
    assertThat(end.getText()).contains("no next chapter yet");
    assertThat(end.findElement(By.id("end-back")).getAttribute("href")).endsWith("/series.html?id=" + SERIES);
    body().sendKeys(Keys.ARROW_RIGHT);
    waitFor("data-spread", "4-5");
    assertThat(reader().getAttribute("data-end")).as("back from the end screen").isNull();
  }

  @Test
  void autoShowsTwoPagesOnALandscapeDesktopAndOneOnAPortraitScreen() {
    open("cat", "cat-password", "chapter-0001");
    new Select(driver.findElement(By.id("layout-select"))).selectByValue("auto");
    waitFor("data-layout", "double");
    waitFor("data-spreads", "1 2-3 4-5 6");

    browser.size(800, 1000);
    waitFor("data-layout", "single");
    waitFor("data-spreads", "1 2 3 4 5 6");
    assertThat(reader().getAttribute("data-layout-choice")).isEqualTo("auto");
  }

  @Test
  void onAPhoneTapZonesAndSwipesTurnPagesTheMiddleHidesTheBarsAndEveryControlFits() {
    browser.size(360, 740);
    open("dan", "dan-password", "chapter-0001");
    waitFor("data-page", "1");
    assertThat(driver.findElement(By.id("chapter-select")).isDisplayed()).as("the chapter picker").isTrue();
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> outside = (List<Map<String, Object>>) js("const w = document.documentElement.clientWidth;"
        + "return [...document.querySelectorAll('#reader-top *, #reader-bottom *')]"
        + ".filter(e => e.getClientRects().length && (e.getBoundingClientRect().right > w + 0.5"
        + " || e.getBoundingClientRect().left < -0.5))"
        + ".map(e => ({id: e.id, cls: e.className, right: e.getBoundingClientRect().right}));");
    assertThat(outside).as("controls past the right edge of a 360 px screen").isEmpty();

    tap(0.85);
    waitFor("data-page", "2");
    swipe(0.8, 0.2);
    waitFor("data-page", "3");
    swipe(0.2, 0.8);
    waitFor("data-page", "2");
    perform(PointerInput.Kind.TOUCH, (finger, touch) -> {
      stroke(finger, touch, 0.8, 0.2);
      stroke(finger, touch, 0.85, 0.85);
    });
    waitFor("data-page", "4"); // a tap right after a swipe turns a page too
    perform(PointerInput.Kind.MOUSE, (mouse, drag) -> stroke(mouse, drag, 0.2, 0.8));
    waitFor("data-page", "3"); // the drag's closing click lands on the right third but belongs to the drag
    tap(0.15);
    waitFor("data-page", "2");

    tap(0.5);
    waitFor("data-bars", "hidden");
    WebElement counter = driver.findElement(By.id("mini-counter"));
    assertThat(counter.isDisplayed()).isTrue();
    assertThat(counter.getText()).isEqualTo("2 / 6");
    assertThat(driver.findElement(By.id("reader-top")).isDisplayed()).isFalse();
    browser.screenshot("reader-phone-bars-hidden");
    tap(0.5);
    waitFor("data-bars", "shown");
  }

  @Test
  void questionMarkOpensTheKeyboardHelpListingTheKeysAndEscapeClosesIt() {
    open("eve", "eve-password", "chapter-0001");
    waitFor("data-page", "1");

    body().sendKeys("?");
    WebElement help = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("help-dialog")));
    assertThat(help.getText()).contains("One page / two pages").contains("Offset").contains("Full screen")
        .contains("Hide / show the bars").contains("Page thumbnails").contains("First / last page");
    browser.screenshot("reader-help");
    help.sendKeys(Keys.ESCAPE);
    waiting().until(ExpectedConditions.invisibilityOfElementLocated(By.id("help-dialog")));
    assertThat(driver.getCurrentUrl()).as("Esc closed the help, not the reader").contains("/read.html");

    body().sendKeys("t");
    waitFor("data-thumbs", "true");
    driver.findElement(By.cssSelector("#thumbs .thumb[data-page='5']")).click();
    waitFor("data-page", "5");
    assertThat(driver.findElement(By.cssSelector("#thumbs .thumb[data-page='5']")).getAttribute("aria-current"))
        .isEqualTo("page");
  }

  @Test
  @SuppressWarnings("unchecked")
  void cropTrimsAPagesWhiteMarginInTheBrowserAndLeavesAPageThatFillsItsEdgesWhole() {
    open("gil", "gil-password", "chapter-0001");
    waitFor("data-page", "1");
    body().sendKeys("c");
    waitFor("data-crop", "true");
    waiting().until(d -> "false".equals(slot(1).getAttribute("data-cropped")));
    assertThat(slot(1).findElement(By.tagName("img")).isDisplayed()).as("page 1 has no margin: shown whole").isTrue();

    body().sendKeys(Keys.ARROW_RIGHT);
    waitFor("data-page", "2");
    waiting().until(d -> "true".equals(slot(2).getAttribute("data-cropped")));
    Map<String, Number> canvas = (Map<String, Number>) js("const c = document.querySelector("
        + "\".page-slot[data-page='2'] canvas\"); return {width: c.width, height: c.height, shown: !c.hidden};");
    assertThat(canvas.get("width").intValue()).as("the drawing's 180 px width, margins gone").isBetween(176, 184);
    assertThat(canvas.get("height").intValue()).as("the drawing's 260 px height, margins gone").isBetween(256, 264);
    assertThat(slot(2).findElement(By.tagName("img")).isDisplayed()).as("the uncropped image hidden").isFalse();
    browser.screenshot("reader-cropped");

    body().sendKeys("c");
    waitFor("data-crop", "false");
    waiting().until(d -> "false".equals(slot(2).getAttribute("data-cropped")));
    assertThat(slot(2).findElement(By.tagName("img")).isDisplayed()).as("crop off: the page whole again").isTrue();
  }

  // ----- helpers -----

  private Object js(String script) {
    return ((JavascriptExecutor) driver).executeScript(script);
  }

  private WebDriverWait waiting() {
    return browser.waiting(Duration.ofSeconds(10));
  }

  private WebElement reader() {
    return driver.findElement(By.id("reader"));
  }

  private WebElement body() {
    return driver.findElement(By.tagName("body"));
  }

  private WebElement slot(int page) {
    return driver.findElement(By.cssSelector(".spread .page-slot[data-page='" + page + "']"));
  }

  private void waitFor(String attribute, String value) {
    waiting().until(ExpectedConditions.attributeToBe(By.id("reader"), attribute, value));
  }

  /** Logs in through the API-backed login page and opens a chapter of the series. */
  private void open(String user, String password, String chapter) {
    driver.get(harness.url("/login.html"));
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys(user);
    driver.findElement(By.id("password")).sendKeys(password);
    driver.findElement(By.id("login-button")).click();
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".series-card[data-series-id]")));
    driver.get(harness.url("/read.html?series=" + SERIES + "&chapter=" + chapter));
    waitFor("data-settings", "ready");
  }

  /** Both pages shown, next to each other at the same height, not overlapping. */
  private void assertSideBySide(int first, int second) {
    waiting().until(d -> slot(first).isDisplayed() && slot(second).isDisplayed());
    var a = slot(first).getRect();
    var b = slot(second).getRect();
    assertThat(a.getY()).as("pages %d and %d at the same height", first, second).isEqualTo(b.getY());
    assertThat(a.getX() + a.getWidth() <= b.getX() || b.getX() + b.getWidth() <= a.getX())
        .as("pages %d and %d side by side", first, second).isTrue();
  }

  /** A touch tap at a fraction of the viewport's width, halfway down the stage. */
  private void tap(double fraction) {
    swipe(fraction, fraction);
  }

  /** A touch moving across the stage from one fraction of the width to another (equal fractions: a tap). */
  private void swipe(double from, double to) {
    perform(PointerInput.Kind.TOUCH, (finger, touch) -> stroke(finger, touch, from, to));
  }

  /** Sends one pointer's strokes as a single action sequence, with no pause between them. */
  private void perform(PointerInput.Kind kind, BiConsumer<PointerInput, Sequence> strokes) {
    PointerInput pointer = new PointerInput(kind, kind.name().toLowerCase(Locale.ROOT));
    Sequence sequence = new Sequence(pointer, 0);
    strokes.accept(pointer, sequence);
    ((Interactive) driver).perform(List.of(sequence));
  }

  /** Presses at one fraction of the stage's width, moves to another in 150 ms (unless equal) and lets go. */
  private void stroke(PointerInput pointer, Sequence sequence, double from, double to) {
    long width = ((Number) js("return window.innerWidth")).longValue();
    var stage = driver.findElement(By.id("stage")).getRect();
    int y = stage.getY() + stage.getHeight() / 2;
    sequence.addAction(pointer.createPointerMove(Duration.ZERO, PointerInput.Origin.viewport(), (int) (width * from), y))
        .addAction(pointer.createPointerDown(PointerInput.MouseButton.LEFT.asArg()));
    if (from != to) {
      sequence.addAction(pointer.createPointerMove(Duration.ofMillis(150), PointerInput.Origin.viewport(),
          (int) (width * to), y));
    }
    sequence.addAction(pointer.createPointerUp(PointerInput.MouseButton.LEFT.asArg()));
  }
}
