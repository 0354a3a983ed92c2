package io.mangacircus.launcher.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.Browser;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.launcher.testing.SeededReaderDb;
import io.mangacircus.launcher.testing.SeededReaderDb.Account;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The reader installable and offline in a real browser (Debian Chromium, headless): manifest and service worker, a
 * chapter stored, read to its end with the server out of reach, the progress made meanwhile reaching the server once
 * when it is back, log out leaving nothing stored, admin pages never kept and another user's sign-in dropping what the
 * previous one stored. "Offline" is both the DevTools protocol's network emulation (the page's
 * {@code navigator.onLine} and its {@code online} event) and a link between browser and product that refuses every
 * connection, since the emulation does not reach the service worker's own requests.
 */
@Tag("browser")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OfflineReadingBrowserIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final String SERIES = "night-train";
  private static final int PAGES = 40;
  private static final Instant PUBLISHED = Instant.parse("2026-11-20T10:00:00Z");

  @TempDir
  static Path data;

  private LauncherHarness harness;
  private Link link;
  private Browser browser;
  private ChromeDriver driver;

  @BeforeAll
  void startProduct() throws IOException {
    LibraryFixture library = new LibraryFixture(data);
    library.chapter(SERIES, "Night Train", 1, PAGES, PUBLISHED);
    library.chapter(SERIES, "Night Train", 2, 3, PUBLISHED.plusSeconds(60));
    SeededReaderDb.into(data, Account.admin(ADMIN_PASSWORD), Account.reader("ivy", "ivy-password"),
        Account.reader("alice", "alice-password"), Account.reader("bob", "bob-password"));
    harness = LauncherHarness.withAdminPassword(data, ADMIN_PASSWORD).startStandard(Mode.ALL);
    link = new Link(harness.port());
    browser = new Browser();
    driver = browser.driver();
  }

  @BeforeEach
  void forgetThePreviousTest() {
    online(true);
    driver.get(url("/login.html"));
    driver.manage().deleteAllCookies();
    js().executeScript("window.localStorage.clear(); window.sessionStorage.clear();");
    js().executeAsyncScript("const done = arguments[arguments.length - 1];"
        + "caches.keys().then((names) => Promise.all(names.map((n) => caches.delete(n)))).then(() => done(true));");
  }

  @AfterEach
  void noPageBrokeThePolicy() {
    online(true);
    assertThat(browser.cspViolations()).as("every page stayed within the Content-Security-Policy").isEmpty();
  }

  @AfterAll
  void stopProduct() throws Exception {
    try {
      Browser.closeAll(browser, harness);
    } finally {
      if (link != null) {
        link.close();
      }
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void theReaderIsInstallableWithAManifestAndAServiceWorkerThatControlsThePage() {
    logIn("ivy", "ivy-password");
    Object manifest = js().executeAsyncScript("const done = arguments[arguments.length - 1];"
        + "const href = document.querySelector('link[rel=manifest]').href;"
        + "fetch(href).then(async (r) => done({type: r.headers.get('content-type'), body: await r.json()}))"
        + ".catch((e) => done({error: String(e)}));");
    JsonObject answer = new JsonObject((Map<String, Object>) manifest);
    assertThat(answer.getString("type")).as(answer.encode()).startsWith("application/manifest+json");
    JsonObject body = answer.getJsonObject("body");
    assertThat(body.getString("display")).isEqualTo("standalone");
    assertThat(body.getString("start_url")).isEqualTo("/");
    assertThat(body.getJsonArray("icons").stream().map(i -> ((JsonObject) i).getString("sizes") + " "
        + ((JsonObject) i).getString("purpose")).toList()).contains("192x192 any", "512x512 any", "512x512 maskable");

    driver.navigate().refresh();
    String worker = controllingWorker();
    String version = new JsonObject(ReaderSession.send(harness.port(), "GET", "/api/system/info", null).body())
        .getString("version");
    assertThat(worker).as("the worker is named by the server's version")
        .isEqualTo(url("/sw.js?v=" + java.net.URLEncoder.encode(version, StandardCharsets.UTF_8)));
  }

  @Test
  void aStoredChapterIsReadToItsEndOfflineAndItsProgressReachesTheServerOnceBackOnline() throws IOException {
    int putsBefore = link.progressPuts();
    logIn("alice", "alice-password");
    driver.get(url("/series.html?id=" + SERIES));
    controllingWorker();
    storeChapter("chapter-0001");
    assertThat(driver.findElement(By.id("offline-figure")).getText()).startsWith("Offline: 1 chapter, ");

    online(false);
    List<Double> opens = new ArrayList<>();
    for (int run = 0; run < 3; run++) {
      driver.get(url("/read.html?series=" + SERIES + "&chapter=chapter-0001&page=1"));
      opens.add(firstPageShownMs());
    }
    List<Double> sorted = opens.stream().sorted().toList();
    System.out.printf("OFFLINE-OPEN %d-page stored chapter, first page shown after (ms): %s; median %.0f%n", PAGES,
        opens, sorted.get(1));
    Files.writeString(Path.of("target", "offline-open.txt"), "first page of a stored " + PAGES
        + "-page chapter opened offline (ms): " + opens + ", median " + sorted.get(1) + "\n");

    for (int page = 2; page <= PAGES; page++) {
      driver.findElement(By.tagName("body")).sendKeys(Keys.ARROW_RIGHT);
      waitForPage(page);
    }
    waiting().until(d -> String.valueOf(js().executeScript("return localStorage.getItem('mc.progress.queue')"))
        .contains("\"page\":" + PAGES));
    ReaderSession alice = ReaderSession.login(harness.port(), "alice", "alice-password");
    assertThat(new JsonObject(alice.get("/api/series/" + SERIES).body()).getValue("progress"))
        .as("nothing reached the server while offline").isNull();
    assertThat(link.progressPuts()).isEqualTo(putsBefore);

    online(true);
    waiting().until(d -> js().executeScript("return localStorage.getItem('mc.progress.queue')") == null);
    JsonObject series = new JsonObject(alice.get("/api/series/" + SERIES).body());
    assertThat(series.getJsonObject("progress").getString("chapter") + " p"
        + series.getJsonObject("progress").getInteger("page")).isEqualTo("chapter-0001 p" + PAGES);
    assertThat(series.getJsonArray("chapters").getJsonObject(0).getString("state")).isEqualTo("read");
    // A reload online starts the queue's sending again: nothing is left to send twice.
    driver.navigate().refresh();
    waitForPage(PAGES);
    assertThat(js().executeAsyncScript("const done = arguments[arguments.length - 1];"
        + "import('/js/reader/progress.js').then((m) => m.flushQueue()).then(() => done('flushed'));"))
        .isEqualTo("flushed");
    assertThat(link.progressPuts() - putsBefore).as("the position read offline was sent exactly once").isEqualTo(1);
  }

  @Test
  void loggingOutLeavesNothingInCacheStorage() {
    logIn("bob", "bob-password");
    driver.get(url("/series.html?id=" + SERIES));
    controllingWorker();
    storeChapter("chapter-0002");
    assertThat(cacheNames()).contains("mc-pages", "mc-data").anyMatch(n -> n.startsWith("mc-app-"));

    driver.findElement(By.id("logout")).click();
    waiting().until(ExpectedConditions.urlContains("/login.html"));
    assertThat(cacheNames()).as("Cache Storage after logging out").isEmpty();
    assertThat(js().executeScript("return localStorage.getItem('mc.offline')")).isNull();
  }

  @Test
  void adminPagesAreNeverKeptAndAnotherUserSigningInDropsWhatThePreviousOneStored() {
    logIn("admin", ADMIN_PASSWORD);
    driver.get(url("/series.html?id=" + SERIES));
    controllingWorker();
    storeChapter("chapter-0002");
    driver.get(url("/admin/users.html"));
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".user-row")));
    driver.get(url("/admin/health.html"));
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#checked-at:not(:empty)")));
    driver.get(url("/"));
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".series-card[data-series-id]")));
    List<String> kept = keptCopies();
    assertThat(kept).as("what the worker kept for the admin").contains("mc-data /api/me")
        .anyMatch(k -> k.startsWith("mc-pages /api/series/" + SERIES + "/chapters/chapter-0002/pages/"))
        .noneMatch(k -> k.contains("/admin/"));

    // The admin's session ends without logging out (it expired; the tab was closed): the next user signs in.
    logIn("ivy", "ivy-password");
    waiting().until(d -> keptCopies().stream().noneMatch(k -> k.startsWith("mc-pages ") || k.startsWith("mc-data ")));
    assertThat(cacheNames()).as("nothing of the admin's is left to show ivy").doesNotContain("mc-pages", "mc-data");
  }

  private void storeChapter(String chapter) {
    By button = By.cssSelector(".chapter-row[data-chapter-id='" + chapter + "'] .offline-chapter");
    waiting().until(ExpectedConditions.elementToBeClickable(button)).click();
    new WebDriverWait(driver, Duration.ofSeconds(30)).until(ExpectedConditions.attributeToBe(
        By.cssSelector(".chapter-row[data-chapter-id='" + chapter + "']"), "data-offline", "ready"));
  }

  /** Waits for a worker to control the page (reloading once: the first load only registers it); its script URL. */
  private String controllingWorker() {
    js().executeAsyncScript("const done = arguments[arguments.length - 1];"
        + "navigator.serviceWorker.ready.then(() => done(true));");
    if (!Boolean.TRUE.equals(js().executeScript("return !!navigator.serviceWorker.controller"))) {
      driver.navigate().refresh();
    }
    return waiting().until(d -> (String) js().executeScript(
        "return navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL"));
  }

  /**
   * Milliseconds from the start of the navigation to the first paint of the first page's image, as the browser records
   * it (Element Timing: the reader's page images carry {@code elementtiming}); asked for after the page has loaded,
   * which is why it is read from the timeline rather than timed by this script.
   */
  private double firstPageShownMs() {
    Object ms = js().executeAsyncScript("const done = arguments[arguments.length - 1];"
        + "const at = (name) => Math.round((performance.getEntriesByName(name)[0] || {}).responseEnd || -1);"
        + "new PerformanceObserver((list, observer) => {"
        + "  const page = list.getEntries().find((e) => e.identifier === 'page');"
        + "  if (!page) return;"
        + "  observer.disconnect();"
        + "  done({shown: page.renderTime || page.loadTime,"
        + "   html: Math.round(performance.getEntriesByType('navigation')[0].responseEnd),"
        + "   load: Math.round(performance.getEntriesByType('navigation')[0].loadEventEnd),"
        + "   fcp: Math.round((performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || -1),"
        + "   modules: Math.round(Math.max(...performance.getEntriesByType('resource')"
        + "     .filter((e) => e.name.endsWith('.js')).map((e) => e.responseEnd))),"
        + "   me: at(location.origin + '/api/me'), image: at(page.url)});"
        + "}).observe({type: 'element', buffered: true});");
    waitForPage(1);
    System.out.println("OFFLINE-OPEN phases (ms from navigation start): " + ms);
    return ((Number) ((Map<?, ?>) ms).get("shown")).doubleValue();
  }

  @SuppressWarnings("unchecked")
  private List<String> cacheNames() {
    return (List<String>) js().executeAsyncScript("const done = arguments[arguments.length - 1];"
        + "caches.keys().then(done);");
  }

  /** Every copy in Cache Storage, as "cache-name /path". */
  @SuppressWarnings("unchecked")
  private List<String> keptCopies() {
    return (List<String>) js().executeAsyncScript("const done = arguments[arguments.length - 1];"
        + "caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n).then((c) => c.keys())"
        + " .then((requests) => requests.map((r) => n + ' ' + new URL(r.url).pathname)))))"
        + ".then((lists) => done([].concat(...lists)));");
  }

  private void online(boolean on) {
    link.open(on);
    driver.executeCdpCommand("Network.enable", Map.of());
    driver.executeCdpCommand("Network.emulateNetworkConditions", Map.of("offline", !on, "latency", 0,
        "downloadThroughput", -1, "uploadThroughput", -1));
    if (on) {
      // Chromium 150's emulation ends without the "online" event a real network's return fires: send it as the
      // browser would (a Chromium that fires it too only starts a second flush, which waits for the first).
      js().executeScript("window.dispatchEvent(new Event('online'))");
    }
  }

  private void logIn(String username, String password) {
    driver.manage().deleteAllCookies();
    driver.get(url("/login.html"));
    waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("username"))).sendKeys(username);
    driver.findElement(By.id("password")).sendKeys(password);
    driver.findElement(By.id("login-button")).click();
    waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".series-card[data-series-id]")));
  }

  private void waitForPage(int page) {
    waiting().until(ExpectedConditions.attributeToBe(By.id("reader"), "data-page", String.valueOf(page)));
  }

  private WebDriverWait waiting() {
    return browser.waiting(Duration.ofSeconds(10));
  }

  private JavascriptExecutor js() {
    return driver;
  }

  private String url(String path) {
    return "http://127.0.0.1:" + link.port() + path;
  }

  /**
   * A TCP link from the browser to the product that can be cut: cut, it closes every open connection and refuses new
   * ones (the server out of reach, for the service worker too). It counts the {@code PUT /api/progress/} requests
   * that went through.
   */
  static final class Link implements AutoCloseable {

    private static final byte[] PROGRESS_PUT = "PUT /api/progress/".getBytes(StandardCharsets.US_ASCII);

    private final int target;
    private final int port;
    private volatile ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger puts = new AtomicInteger();
    private volatile boolean up = true;

    Link(int target) throws IOException {
      this.target = target;
      server = listen(0);
      port = server.getLocalPort();
      daemon(() -> accept(server));
    }

    int port() {
      return port;
    }

    private static ServerSocket listen(int port) throws IOException {
      ServerSocket socket = new ServerSocket();
      socket.setReuseAddress(true);
      socket.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
      return socket;
    }

    int progressPuts() {
      return puts.get();
    }

    /** Cut: the port refuses connections (as a host out of reach answers at once) and open ones are closed. */
    void open(boolean on) {
      if (on == up) {
        return;
      }
      up = on;
      try {
        if (on) {
          server = listen(port);
          ServerSocket listening = server;
          daemon(() -> accept(listening));
        } else {
          server.close();
          open.forEach(Link::closeQuietly);
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("the link to the product cannot " + (on ? "reopen" : "close"), e);
      }
    }

    private void accept(ServerSocket server) {
      while (!server.isClosed()) {
        try {
          Socket client = server.accept();
          if (!up) {
            closeQuietly(client);
            continue;
          }
          Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
          open.add(client);
          open.add(upstream);
          daemon(() -> pipe(client, upstream, true));
          daemon(() -> pipe(upstream, client, false));
        } catch (IOException e) {
          // closed: the class is done
        }
      }
    }

    private void pipe(Socket from, Socket to, boolean requests) {
      byte[] buffer = new byte[16_384];
      byte[] carry = new byte[0];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
          if (requests) {
            // A request line split between two reads is still counted once: the last bytes are carried over.
            byte[] seen = new byte[carry.length + n];
            System.arraycopy(carry, 0, seen, 0, carry.length);
            System.arraycopy(buffer, 0, seen, carry.length, n);
            puts.addAndGet(count(seen));
            int keep = Math.min(seen.length, PROGRESS_PUT.length - 1);
            carry = java.util.Arrays.copyOfRange(seen, seen.length - keep, seen.length);
          }
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // one side closed or the link was cut
      } finally {
        closeQuietly(from);
        closeQuietly(to);
        open.remove(from);
        open.remove(to);
      }
    }

    private static int count(byte[] bytes) {
      int found = 0;
      outer:
      for (int i = 0; i + PROGRESS_PUT.length <= bytes.length; i++) {
        for (int j = 0; j < PROGRESS_PUT.length; j++) {
          if (bytes[i + j] != PROGRESS_PUT[j]) {
            continue outer;
          }
        }
        found++;
      }
      return found;
    }

    private static void daemon(Runnable job) {
      Thread thread = new Thread(job, "offline-it-link");
      thread.setDaemon(true);
      thread.start();
    }

    private static void closeQuietly(Socket socket) {
      try {
        socket.close();
      } catch (IOException e) {
        // a socket that cannot close is gone already: the link is cut either way
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
      open.forEach(Link::closeQuietly);
    }
  }
}
