package io.mangacircus.reader.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.OperatorOperation;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The operator operations table yields the HTTP admin routes and the bridge's inbound allow-list, and nothing else. */
class OperatorOperationRoutesTest {

  /** A valid value for every path parameter and body field an operation uses. */
  private static final Map<String, Object> SAMPLES = Map.ofEntries(Map.entry("jobId", "job-1"),
      Map.entry("source", "demo"), Map.entry("title", "Some title"), Map.entry("autoConfirm", true),
      Map.entry("pageDelayMs", 100), Map.entry("chapterDelayMs", 2000), Map.entry("enabled", true),
      Map.entry("time", "03:30"), Map.entry("language", "en"), Map.entry("preferredGroups", List.of("g-1")),
      Map.entry("follow", true));

  private Vertx vertx;
  private HttpServer server;
  private final HttpClient http = HttpClient.newHttpClient();
  private final Map<OperatorOperation, Object> decoded = new ConcurrentHashMap<>();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    // Stands in for the scraper: each address decodes with its operation's request record, as the scraper does.
    for (OperatorOperation operation : OperatorOperation.values()) {
      MessageConsumer<Object> consumer = vertx.eventBus().consumer(operation.address(), message -> {
        decoded.put(operation, String.valueOf(operation.decoder().apply(message.body())));
        message.reply(new JsonObject().put("v", 1).put("address", message.address()));
      });
      consumer.completion().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }
    Router router = Router.router(vertx);
    router.route("/api/*").handler(BodyHandler.create());
    router.route("/api/admin/*").subRouter(new ScraperAdminRoutes(vertx, 5_000).router());
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void everyOperationHasARouteThatSendsItsRequestToItsAddress() throws Exception {
    for (OperatorOperation operation : OperatorOperation.values()) {
      String path = Arrays.stream(operation.path().split("/"))
          .map(segment -> segment.startsWith(":") ? String.valueOf(SAMPLES.get(segment.substring(1))) : segment)
          .reduce((a, b) -> a + "/" + b).orElseThrow();
      JsonObject body = new JsonObject();
      operation.bodyFields().forEach(field -> body.put(field, SAMPLES.get(field)));
      HttpRequest.BodyPublisher publisher = operation.bodyFields().isEmpty() ? HttpRequest.BodyPublishers.noBody()
          : HttpRequest.BodyPublishers.ofString(body.encode());
      HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
              + server.actualPort() + path)).timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
          .method(operation.method().name(), publisher).build(), HttpResponse.BodyHandlers.ofString());

      assertThat(response.statusCode()).as(operation + " " + path).isEqualTo(operation.successStatus());
      assertThat(new JsonObject(response.body()).getString("address")).as(operation.name())
          .isEqualTo(operation.address());
      assertThat(decoded).as(operation + " decoded by its request record").containsKey(operation);
    }
    assertThat(decoded).hasSize(OperatorOperation.values().length);
  }

  @Test
  void theBridgeAdmitsExactlyTheOperatorOperations() {
    assertThat(ConsoleBridge.INBOUND).containsExactlyInAnyOrderElementsOf(Arrays.stream(OperatorOperation.values())
        .map(OperatorOperation::address).toList());
  }

  @Test
  void theConsoleReadsTheOperationsAddressesFromTheServer() throws Exception {
    HttpResponse<String> response = get("/api/admin" + ScraperAdminRoutes.CONSOLE_ADDRESSES);

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonObject requests = new JsonObject(response.body()).getJsonObject("requests");
    for (OperatorOperation operation : OperatorOperation.values()) {
      assertThat(requests.getString(operation.name())).as(operation.name()).isEqualTo(operation.address());
    }
    assertThat(new JsonObject(response.body()).getJsonObject("events").getMap().values())
        .containsExactlyInAnyOrderElementsOf(ConsoleBridge.OUTBOUND);
  }

  @Test
  void noTwoOperationsShareAnAddressOrARoute() {
    assertThat(Arrays.stream(OperatorOperation.values()).map(OperatorOperation::address)).doesNotHaveDuplicates();
    assertThat(Arrays.stream(OperatorOperation.values()).map(o -> o.method() + " " + o.path())).doesNotHaveDuplicates();
  }

  @Test
  void dismissingAndDeletingAJobGoToTheScrapersDismissAndDeleteRequests() throws Exception {
    for (String[] call : new String[][] {{"POST", "/api/admin/jobs/j-42/dismiss",
        io.mangacircus.contracts.Addresses.SCRAPER_JOBS_DISMISS}, {"DELETE", "/api/admin/jobs/j-42",
        io.mangacircus.contracts.Addresses.SCRAPER_JOBS_DELETE}}) {
      HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
              + server.actualPort() + call[1])).timeout(Duration.ofSeconds(10))
          .method(call[0], HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

      assertThat(response.statusCode()).as(call[0] + " " + call[1] + ": " + response.body()).isEqualTo(200);
      assertThat(new JsonObject(response.body()).getString("address")).isEqualTo(call[2]);
    }
    assertThat(decoded.get(OperatorOperation.JOBS_DISMISS)).isEqualTo("JobRequest[jobId=j-42]");
    assertThat(decoded.get(OperatorOperation.JOBS_DELETE)).isEqualTo("JobRequest[jobId=j-42]");
  }

  @Test
  void theJobsListCarriesTheStatePageAndSizeOfItsQueryToTheScraper() throws Exception {
    HttpResponse<String> paged = get("/api/admin/jobs?state=paused&page=2&size=20");
    assertThat(paged.statusCode()).as(paged.body()).isEqualTo(200);
    assertThat(decoded.get(OperatorOperation.JOBS_LIST)).isEqualTo("JobsListRequest[state=paused, page=2, size=20]");

    HttpResponse<String> unpaged = get("/api/admin/jobs");
    assertThat(unpaged.statusCode()).as(unpaged.body()).isEqualTo(200);
    assertThat(decoded.get(OperatorOperation.JOBS_LIST)).isEqualTo("JobsListRequest[state=null, page=null, size=null]");
  }

  @Test
  void aBadPageSizeOrStateIsRefusedWith400AndItsReasonWithoutAskingTheScraper() throws Exception {
    Map<String, String> reasons = Map.of("page=0", "'page' must be from 1", "page=two", "'page' must be a whole number",
        "size=201", "'size' must be from 1 to 200", "page=1&size=-5", "'size' must be a whole number",
        "state=sleeping", "unknown state 'sleeping'", "size=99999999999", "'size' must be a whole number");
    for (Map.Entry<String, String> query : reasons.entrySet()) {
      HttpResponse<String> response = get("/api/admin/jobs?" + query.getKey());

      assertThat(response.statusCode()).as(query.getKey() + ": " + response.body()).isEqualTo(400);
      JsonObject error = new JsonObject(response.body());
      assertThat(error.getString("error")).isEqualTo("bad_request");
      assertThat(error.getString("message")).as(query.getKey()).contains(query.getValue());
    }
    assertThat(decoded).doesNotContainKey(OperatorOperation.JOBS_LIST);
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
        .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }
}
