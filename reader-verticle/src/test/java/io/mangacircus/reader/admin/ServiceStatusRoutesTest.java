package io.mangacircus.reader.admin;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /api/admin/status} answers at once while a library scan runs, and says when the scraper is unreachable. */
class ServiceStatusRoutesTest {

  private Vertx vertx;
  private HttpServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    // A scan that never finishes: its executor keeps the work and never runs it.
    LibraryInventory inventory = new LibraryInventory(() -> new LibraryScan(List.of(), List.of(), false), command -> { }, InstantSource.system(),
        Duration.ofMinutes(1), Duration.ofMinutes(1));
    Router router = Router.router(vertx);
    new ServiceStatusRoutes(vertx, inventory, InstantSource.system(), "reader-1", 42L).mount(router);
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
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

    long started = System.nanoTime();
    JsonObject status = status();

    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
    assertThat(status.getJsonObject("library").getString("status")).isEqualTo("refreshing");
    assertThat(status.getJsonObject("scraper").getString("status")).isEqualTo("reachable");
    assertThat(status.getJsonObject("scraper").getString("instance")).isEqualTo("s-1");
    assertThat(status.getJsonObject("reader").getString("instance")).isEqualTo("reader-1");
  }

  @Test
  void aScraperWithoutAHandlerIsUnreachableAtOnce() throws Exception {
    long started = System.nanoTime();
    JsonObject scraper = status().getJsonObject("scraper");

    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(ServiceStatusRoutes.PING_TIMEOUT);
    assertThat(scraper.getString("status")).isEqualTo("unreachable");
    assertThat(scraper.getString("reason")).isEqualTo("NO_HANDLERS");
  }

  @Test
  void launchersAreListedFromTheirPublishedStatus() throws Exception {
    vertx.eventBus().publish(Addresses.LAUNCHER_STATUS, new JsonObject().put("v", 1).put("node", "scraper@h:1")
        .put("services", new io.vertx.core.json.JsonArray().add(new JsonObject().put("service", "scraper")
            .put("status", "repair-required").put("failuresInWindow", 3).put("restarts", 2))));
    Thread.sleep(200);

    JsonObject launcher = status().getJsonArray("supervisors").getJsonObject(0);

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
    new ServiceStatusRoutes(vertx, scanned, InstantSource.system(), "reader-1", 42L).mount(router);
    HttpServer other = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(10, TimeUnit.SECONDS);

    JsonObject library = status(other.actualPort()).getJsonObject("library");

    assertThat(library.getJsonObject("skipped").getInteger("count")).isEqualTo(60);
    assertThat(library.getJsonObject("skipped").getJsonArray("reasons")).hasSize(50)
        .contains("s00: resolves outside the library");
  }
}
