package io.mangacircus.launcher.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.testing.LibraryFixture;
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
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A library of 150 series in the real jar and Chromium: the library page draws one page of 60 cards, the next page
 * when the reader scrolls to the end or presses "Show more" (no card twice), finds a series beyond the first page by
 * searching on the server, and shelves and the collection editor reach series that were never in the grid.
 */
@Tag("browser")
class LibraryPagingBrowserIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final Instant PUBLISHED = Instant.parse("2026-11-20T10:00:00Z");
  private static final int SERIES = 150;
  private static final int PAGE = 60;

  @TempDir
  Path data;

  private LauncherHarness harness;
  private Browser browser;
  private ChromeDriver driver;

  private static String id(int i) {
    return String.format("series-%03d", i);
  }

  @BeforeEach
  void start() {
    LibraryFixture library = new LibraryFixture(data);
    // Titles sort as their numbers; each series came into the library a minute after the one before.
    for (int i = 0; i < SERIES; i++) {
      library.chapter(id(i), String.format("Title %03d", i), 1, 1, PUBLISHED.plusSeconds(60L * i));
    }
    harness = LauncherHarness.withAdminPassword(data, ADMIN_PASSWORD).startStandard(Mode.ALL);
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    assertThat(admin.put("/api/admin/catalog/collections/deep-cuts", new JsonObject().put("name", "Deep Cuts")
        .put("series", new JsonArray().add(id(140)).add(id(3)))).statusCode()).isEqualTo(200);
    browser = new Browser();
    driver = browser.driver();
  }

  @AfterEach
  void stop() throws Exception {
    assertThat(Browser.closeAll(browser, harness)).as("every page stayed within the Content-Security-Policy")
        .isEmpty();
  }

  private WebDriverWait waiting() {
    return browser.waiting(Duration.ofSeconds(15));
  }

  /** The grid's series ids, read in one go (the grid may be redrawn between two element look-ups). */
  @SuppressWarnings("unchecked")
  private List<String> gridIds() {
    return (List<String>) ((JavascriptExecutor) driver).executeScript("return [...document.querySelectorAll("
        + "'#library-grid .series-card[data-series-id]')].map(card => card.dataset.seriesId);");
  }

  private boolean onShelf(String shelf, String series) {
    return shelfIds(shelf).contains(series);
  }

  /** A shelf's series in order, read in one script: a shelf drawn again meanwhile leaves no stale card behind. */
  @SuppressWarnings("unchecked")
  private List<String> shelfIds(String shelf) {
    return (List<String>) ((JavascriptExecutor) driver).executeScript("return [...document.querySelectorAll("
        + "`[data-shelf='${arguments[0]}'] [data-series]`)].map(card => card.dataset.series);", shelf);
  }

  /** Clicks an element brought to the middle of the screen: at the top, the page's sticky bar would take the click. */
  private void clickInView(By locator) {
    WebElement element = driver.findElement(locator);
    ((JavascriptExecutor) driver).executeScript("arguments[0].scrollIntoView({block: 'center'})", element);
    element.click();
  }

  private void scrollToEnd() {
    ((JavascriptExecutor) driver).executeScript("window.scrollTo(0, document.body.scrollHeight)");
  }

  private void logIn() {
    driver.manage().deleteAllCookies();
    driver.get(harness.url("/login.html"));
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys("admin");
    driver.findElement(By.id("password")).sendKeys(ADMIN_PASSWORD);
    driver.findElement(By.id("login-button")).click();
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".series-card[data-series-id]")));
  }

  @Test
  void theGridShowsOnePageAndMoreOnScrollOrShowMoreWhileShelvesAndSearchReachBeyondIt() {
    logIn();
    // The collection's shelf holds a series far beyond the first page of the grid.
    waiting().until(d -> onShelf("collection-deep-cuts", id(140)));
    assertThat(shelfIds("collection-deep-cuts")).as("in the collection's own order").containsExactly(id(140), id(3));
    waiting().until(d -> gridIds().size() >= PAGE);
    assertThat(gridIds()).as("one page of cards, not the whole library").hasSize(PAGE)
        .startsWith(id(0)).endsWith(id(PAGE - 1));
    waiting().until(ExpectedConditions.textToBe(By.id("library-count"), "Showing 60 of 150 titles"));
    // "Recently added": the 12 series that came in last, newest first.
    waiting().until(d -> onShelf("recent", id(149)));
    assertThat(shelfIds("recent")).hasSize(12).startsWith(id(149), id(148)).endsWith(id(138));
    browser.screenshot("library-paged-first");

    // Scrolling to the end draws the next page below, without repeating a card; then the last one.
    scrollToEnd();
    waiting().until(d -> gridIds().size() == 2 * PAGE);
    assertThat(gridIds()).doesNotHaveDuplicates().endsWith(id(2 * PAGE - 1));
    waiting().until(ExpectedConditions.textToBe(By.id("library-count"), "Showing 120 of 150 titles"));
    scrollToEnd();
    waiting().until(d -> gridIds().size() == SERIES);
    assertThat(gridIds()).doesNotHaveDuplicates().endsWith(id(SERIES - 1));
    waiting().until(ExpectedConditions.textToBe(By.id("library-count"), "All 150 titles"));
    assertThat(driver.findElement(By.id("library-more")).isDisplayed()).isFalse();

    // Without IntersectionObserver, "Show more" draws the next page and takes the focus to its first card.
    driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument",
        java.util.Map.of("source", "delete window.IntersectionObserver;"));
    driver.navigate().refresh();
    waiting().until(ExpectedConditions.textToBe(By.id("library-count"), "Showing 60 of 150 titles"));
    waiting().until(ExpectedConditions.elementToBeClickable(By.id("library-more"))).click();
    waiting().until(d -> gridIds().size() == 2 * PAGE);
    assertThat(driver.switchTo().activeElement().findElement(By.xpath("..")).getAttribute("data-series-id"))
        .as("the focus is on the first new card").isEqualTo(id(PAGE));
    waiting().until(ExpectedConditions.elementToBeClickable(By.id("library-more"))).click();
    waiting().until(d -> gridIds().size() == SERIES);
    assertThat(gridIds()).doesNotHaveDuplicates().endsWith(id(SERIES - 1));
    waiting().until(ExpectedConditions.invisibilityOfElementLocated(By.id("library-more")));

    // A search goes to the server: a series beyond the first page is found.
    driver.navigate().refresh();
    waiting().until(ExpectedConditions.textToBe(By.id("library-count"), "Showing 60 of 150 titles"));
    driver.findElement(By.id("search")).sendKeys("Title 142");
    waiting().until(d -> gridIds().equals(List.of(id(142))));
    waiting().until(ExpectedConditions.textToBe(By.id("library-count"), "1 title"));
    assertThat(driver.findElement(By.id("collection-shelves")).isDisplayed()).as("shelves hide while searching")
        .isFalse();

    // The collection editor finds a title by searching the server, not in a list of every title.
    driver.findElement(By.id("search")).clear();
    driver.findElement(By.id("collection-new")).click();
    driver.findElement(By.id("collection-name")).sendKeys("Late Arrivals");
    assertThat(driver.findElements(By.cssSelector("#collection-series input[type=checkbox]")).size())
        .as("the title picker lists one page of titles at most").isLessThanOrEqualTo(PAGE);
    driver.findElement(By.id("collection-find")).sendKeys("Title 133");
    waiting().until(ExpectedConditions.elementToBeClickable(By.cssSelector(
        "#collection-series input[value='" + id(133) + "']"))).click();
    driver.findElement(By.id("collection-save")).click();
    waiting().until(d -> onShelf("collection-late-arrivals", id(133)));
    browser.screenshot("library-paged-collection");
  }

  @Test
  void editingACollectionNamesMembersBeyondTheGridDropsAnUntickedOneAndDeletingItRemovesItsShelf() {
    logIn();
    waiting().until(d -> onShelf("collection-deep-cuts", id(140)));
    clickInView(By.cssSelector("[data-shelf='collection-deep-cuts'] .edit-collection"));
    waiting().until(ExpectedConditions.textToBe(By.id("collection-editor-heading"), "Edit \u201cDeep Cuts\u201d"));
    assertThat(driver.findElement(By.id("collection-name")).getAttribute("value")).isEqualTo("Deep Cuts");
    // Series 140 was never in the grid: its title comes from the server, not its id.
    waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("collection-chosen"), "Title 140"));
    assertThat(driver.findElement(By.id("collection-chosen-heading")).getText())
        .isEqualTo("In this collection: 2 titles");

    clickInView(By.cssSelector("#collection-chosen input[value='" + id(3) + "']"));
    waiting().until(ExpectedConditions.textToBe(By.id("collection-chosen-heading"), "In this collection: 1 title"));
    driver.findElement(By.id("collection-save")).click();
    waiting().until(d -> shelfIds("collection-deep-cuts").equals(List.of(id(140))));
    assertThat(driver.findElement(By.id("collection-editor")).isDisplayed()).as("closed after saving").isFalse();

    clickInView(By.cssSelector("[data-shelf='collection-deep-cuts'] .edit-collection"));
    waiting().until(ExpectedConditions.elementToBeClickable(By.id("collection-delete"))).click();
    waiting().until(ExpectedConditions.alertIsPresent()).accept();
    waiting().until(ExpectedConditions.numberOfElementsToBe(
        By.cssSelector("[data-shelf='collection-deep-cuts']"), 0));
    assertThat(new JsonObject(ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD).get("/api/catalog").body())
        .getJsonArray("collections")).as("deleted on the server").isEmpty();
  }
}
