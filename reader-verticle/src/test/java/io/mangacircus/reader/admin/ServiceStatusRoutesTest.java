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
}
