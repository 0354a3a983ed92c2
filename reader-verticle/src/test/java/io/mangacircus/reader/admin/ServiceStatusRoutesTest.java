package io.mangacircus.reader.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.reader.library.LibraryInventory;
import io.mangacircus.reader.library.LibraryScan;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /api/admin/status} answers at once while a library scan runs, and says when the scraper is unreachable. */
class ServiceStatusRoutesTest {

  private Vertx vertx;
  private HttpServer server;
  private final HttpClient http = HttpClient.newHttpClient();
  /** The library scan runs on its own thread and stays blocked on this latch until the test ends. */
  private final CountDownLatch scanReleased = new CountDownLatch(1);
  private final CountDownLatch scanStarted = new CountDownLatch(1);

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    LibraryInventory inventory = new LibraryInventory(() -> {
      scanStarted.countDown();
      try {
        scanReleased.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return new LibraryScan(List.of(), List.of(), false);
    }, command -> new Thread(command, "blocked-scan").start(), InstantSource.system(),
        Duration.ofMinutes(1), Duration.ofMinutes(1));
    Router router = Router.router(vertx);
    router.route("/api/admin/*").subRouter(new ServiceStatusRoutes(vertx, inventory, InstantSource.system(), "reader-1",
        42L).router());
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    scanReleased.countDown();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private JsonObject status() throws Exception {
    return status(server.actualPort());
  }

  private JsonObject status(int port) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/api/admin/status")).timeout(Duration.ofSeconds(5))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return new JsonObject(response.body());
  }

  @Test
  void theScraperIsReportedReachableWhileALibraryScanRuns() throws Exception {
    vertx.eventBus().consumer(Addresses.SCRAPER_PING, m -> m.reply(new PingReply("scraper", "s-1", 7L).toJson()))
        .completion().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    status();
    assertThat(scanStarted.await(5, TimeUnit.SECONDS)).as("the library scan started").isTrue();

    // The scan is blocked on a latch the test holds: an answer at all proves the route does not wait for it.
    JsonObject status = status();

    assertThat(scanReleased.getCount()).as("the scan is still blocked").isEqualTo(1);
    assertThat(status.getJsonObject("library").getString("status")).isEqualTo("refreshing");
    assertThat(status.getJsonObject("scraper").getString("status")).isEqualTo("reachable");
    assertThat(status.getJsonObject("scraper").getString("instance")).isEqualTo("s-1");
    assertThat(status.getJsonObject("reader").getString("instance")).isEqualTo("reader-1");
  }

  @Test
  void aScraperWithoutAHandlerIsUnreachableAtOnce() throws Exception {
    JsonObject scraper = status().getJsonObject("scraper");

    // NO_HANDLERS (not TIMEOUT) says the answer came from the bus at once rather than after the ping timeout.
    assertThat(scraper.getString("status")).isEqualTo("unreachable");
    assertThat(scraper.getString("reason")).isEqualTo("NO_HANDLERS");
  }

  @Test
  void launchersAreListedFromTheirPublishedStatus() throws Exception {
    vertx.eventBus().publish(Addresses.LAUNCHER_STATUS, new JsonObject().put("v", 1).put("node", "scraper@h:1")
        .put("services", new io.vertx.core.json.JsonArray().add(new JsonObject().put("service", "scraper")
            .put("status", "repair-required").put("failuresInWindow", 3).put("restarts", 2))));

    JsonObject launcher = await().atMost(Duration.ofSeconds(10))
        .until(() -> status().getJsonArray("supervisors"), list -> !list.isEmpty()).getJsonObject(0);

    assertThat(launcher.getString("node")).isEqualTo("scraper@h:1");
    assertThat(launcher.getBoolean("silent")).isFalse();
    assertThat(launcher.getJsonArray("services").getJsonObject(0).getString("status")).isEqualTo("repair-required");
  }

  @Test
  void skippedLibraryEntriesAreCountedAndTheFirstFiftyListedWithWhy() throws Exception {
    List<LibraryScan.Skipped> skipped = java.util.stream.IntStream.range(0, 60)
        .mapToObj(i -> new LibraryScan.Skipped(String.format("s%02d", i), "resolves outside the library")).toList();
    LibraryInventory scanned = new LibraryInventory(() -> new LibraryScan(List.of(), skipped, false), Runnable::run,
        InstantSource.system(), Duration.ofMinutes(1), Duration.ofMinutes(1));
    scanned.summary();
    Router router = Router.router(vertx);
    router.route("/api/admin/*").subRouter(new ServiceStatusRoutes(vertx, scanned, InstantSource.system(), "reader-1",
        42L).router());
    HttpServer other = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(10, TimeUnit.SECONDS);

    JsonObject library = status(other.actualPort()).getJsonObject("library");

    assertThat(library.getJsonObject("skipped").getInteger("count")).isEqualTo(60);
    assertThat(library.getJsonObject("skipped").getJsonArray("reasons")).hasSize(50)
        .contains("s00: resolves outside the library");
  }

  private HttpResponse<String> post(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
        .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aRetryStartIsForwardedToTheLauncherOfThatServiceAndAnswersWithItsNewState() throws Exception {
    vertx.eventBus().<Object>consumer(Addresses.SCRAPER_START, m -> {
      io.mangacircus.contracts.ServiceStartRequest request = io.mangacircus.contracts.ServiceStartRequest.fromJson(m.body());
      m.reply(new JsonObject().put("v", 1).put("service", new io.mangacircus.contracts.ServiceState(request.service(),
          io.mangacircus.contracts.ServiceStatus.UP, 0, 0, null, null).toJson()));
    }).completion().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);

    HttpResponse<String> response = post("/api/admin/services/scraper/start");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(response.body()).getString("status")).isEqualTo("up");
    assertThat(new JsonObject(response.body()).getString("service")).isEqualTo("scraper");
  }

  @Test
  void aRetryStartTheLauncherRefusesIsAConflictWithItsSentence() throws Exception {
    vertx.eventBus().consumer(Addresses.READER_START, m -> m.fail(
        io.mangacircus.contracts.ErrorCode.ILLEGAL_TRANSITION.code(), "reader is up, not blocked"))
        .completion().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);

    HttpResponse<String> refused = post("/api/admin/services/reader/start");
    HttpResponse<String> unknown = post("/api/admin/services/database/start");
    HttpResponse<String> nobody = post("/api/admin/services/scraper/start");

    assertThat(refused.statusCode()).isEqualTo(409);
    assertThat(new JsonObject(refused.body()).getString("message")).isEqualTo("reader is up, not blocked");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(nobody.statusCode()).isEqualTo(503);
    assertThat(new JsonObject(nobody.body()).getString("error")).isEqualTo("launcher_unreachable");
  }

  /** Publishes a launcher's status, as {@code LauncherVerticle} does, with one service in it. */
  private void heard(String node, String service, String status) {
    vertx.eventBus().publish(Addresses.LAUNCHER_STATUS, new io.mangacircus.contracts.LauncherStatus(node, List.of(
        new io.mangacircus.contracts.ServiceState(service, io.mangacircus.contracts.ServiceStatus.ofWire(status), 0, 0,
            null, status.equals("blocked") ? "corrupt state file data/catalog.json: is not valid JSON" : null)))
        .toJson());
  }

  private void awaitLaunchers(int count) {
    await().atMost(Duration.ofSeconds(10)).until(() -> status().getJsonArray("supervisors").size() == count);
  }

  /** Answers a retry start at {@code address} as a launcher would, noting where each request arrived. */
  private void launcherAt(String address, String node, String statusOfService, List<String> arrivals)
      throws Exception {
    vertx.eventBus().<Object>consumer(address, m -> {
      io.mangacircus.contracts.ServiceStartRequest request =
          io.mangacircus.contracts.ServiceStartRequest.fromJson(m.body());
      arrivals.add(address);
      if (!statusOfService.equals("blocked")) {
        m.fail(io.mangacircus.contracts.ErrorCode.ILLEGAL_TRANSITION.code(), request.service() + " on " + node
            + " is " + statusOfService + ", not blocked");
        return;
      }
      m.reply(new JsonObject().put("v", 1).put("service", new io.mangacircus.contracts.ServiceState(
          request.service(), io.mangacircus.contracts.ServiceStatus.UP, 0, 1, null, null).toJson()));
    }).completion().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
  }

  @Test
  void aRetryStartReachesTheOneLauncherWhoseServiceIsBlockedAmongTwo() throws Exception {
    List<String> arrivals = new java.util.concurrent.CopyOnWriteArrayList<>();
    launcherAt(Addresses.READER_START, "either", "up", arrivals);
    launcherAt(Addresses.serviceStartOf("reader@a:1", "reader"), "reader@a:1", "up", arrivals);
    launcherAt(Addresses.serviceStartOf("reader@b:2", "reader"), "reader@b:2", "blocked", arrivals);
    heard("reader@a:1", "reader", "up");
    heard("reader@b:2", "reader", "blocked");
    awaitLaunchers(2);

    HttpResponse<String> first = post("/api/admin/services/reader/start");
    HttpResponse<String> second = post("/api/admin/services/reader/start");

    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
    assertThat(new JsonObject(first.body()).getString("status")).isEqualTo("up");
    assertThat(arrivals).containsExactly(Addresses.serviceStartOf("reader@b:2", "reader"),
        Addresses.serviceStartOf("reader@b:2", "reader"));
  }

  @Test
  void withNoLauncherBlockedARetryStartGoesToAnyLauncherAndItsRefusalIsNotBlocked() throws Exception {
    List<String> arrivals = new java.util.concurrent.CopyOnWriteArrayList<>();
    launcherAt(Addresses.READER_START, "reader@a:1", "up", arrivals);
    launcherAt(Addresses.serviceStartOf("reader@a:1", "reader"), "reader@a:1", "up", arrivals);
    heard("reader@a:1", "reader", "up");
    heard("scraper@c:3", "scraper", "blocked");
    awaitLaunchers(2);

    HttpResponse<String> refused = post("/api/admin/services/reader/start");

    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
    assertThat(new JsonObject(refused.body()).getString("error")).isEqualTo("not_blocked");
    assertThat(arrivals).containsExactly(Addresses.READER_START);
  }

  @Test
  void severalBlockedLaunchersAreAConflictNamingThemAndANamedOneIsReached() throws Exception {
    List<String> arrivals = new java.util.concurrent.CopyOnWriteArrayList<>();
    launcherAt(Addresses.READER_START, "either", "blocked", arrivals);
    launcherAt(Addresses.serviceStartOf("reader@b:2", "reader"), "reader@b:2", "blocked", arrivals);
    heard("reader@b:2", "reader", "blocked");
    heard("reader@a:1", "reader", "blocked");
    awaitLaunchers(2);

    HttpResponse<String> ambiguous = post("/api/admin/services/reader/start");
    HttpResponse<String> named = post("/api/admin/services/reader/start?node=reader%40b%3A2");

    assertThat(ambiguous.statusCode()).as(ambiguous.body()).isEqualTo(409);
    JsonObject body = new JsonObject(ambiguous.body());
    assertThat(body.getString("error")).isEqualTo("ambiguous");
    assertThat(body.getJsonArray("nodes").getList()).containsExactly("reader@a:1", "reader@b:2");
    assertThat(body.getString("message")).contains("reader@a:1, reader@b:2", "?node=");
    assertThat(named.statusCode()).as(named.body()).isEqualTo(200);
    assertThat(arrivals).containsExactly(Addresses.serviceStartOf("reader@b:2", "reader"));
  }

  @Test
  void aRetryStartNamingALauncherNeverHeardFromIsNotFoundAndNamesIt() throws Exception {
    List<String> arrivals = new java.util.concurrent.CopyOnWriteArrayList<>();
    launcherAt(Addresses.READER_START, "reader@a:1", "blocked", arrivals);
    heard("reader@a:1", "reader", "blocked");
    awaitLaunchers(1);

    HttpResponse<String> unknown = post("/api/admin/services/reader/start?node=reader%40gone%3A7");
    HttpResponse<String> empty = post("/api/admin/services/reader/start?node=");

    assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(404);
    assertThat(new JsonObject(unknown.body()).getString("error")).isEqualTo("not_found");
    assertThat(new JsonObject(unknown.body()).getString("message")).contains("'reader@gone:7'");
    assertThat(empty.statusCode()).as(empty.body()).isEqualTo(400);
    assertThat(new JsonObject(empty.body()).getString("message")).contains("'node'");
    assertThat(arrivals).isEmpty();
  }
}
