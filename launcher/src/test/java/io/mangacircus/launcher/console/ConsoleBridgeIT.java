package io.mangacircus.launcher.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.launcher.testing.SeededReaderDb;
import io.mangacircus.launcher.testing.SeededReaderDb.Account;
import io.mangacircus.reader.admin.ConsoleBridge;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.StoreException;
import io.vertx.core.Future;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's event-bus bridge as a browser meets it, over SockJS's raw WebSocket endpoint: who may open it, which
 * addresses an admin may send to, and which published events reach the browser.
 */
class ConsoleBridgeIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";

  /** Addresses that exist on the bus but are not the operator's to call from a browser. */
  private static final List<String> NOT_INBOUND = List.of(Addresses.SCRAPER_PING, Addresses.READER_PING,
      Addresses.SCRAPER_DOWNLOADS_YIELD, Addresses.LAUNCHER_STATUS, Addresses.SCRAPER_JOB_PROGRESS, "mc.anything");

  /** Addresses that carry messages but are not for browsers. */
  private static final List<String> NOT_OUTBOUND = List.of(Addresses.SCRAPER_PING, Addresses.READER_PING,
      Addresses.SCRAPER_DOWNLOADS_YIELD, Addresses.SCRAPER_JOBS_ADD, "mc.anything");

  @TempDir
  Path data;

  private LauncherHarness harness;
  private WebSocketClient client;

  @BeforeEach
  void start() {
    SeededReaderDb.into(data, Account.admin(ADMIN_PASSWORD), Account.reader("kid", "reader-pass-1"));
    harness = LauncherHarness.withAdminPassword(data, ADMIN_PASSWORD).startStandard(Mode.ALL);
    client = harness.vertx().createWebSocketClient();
  }

  @AfterEach
  void stop() {
    LauncherHarness.await(client.close());
    harness.close();
  }

  /** A bridge socket with a queue of the frames it received. */
  private record Bridge(WebSocket socket, LinkedBlockingQueue<JsonObject> frames) {

    void send(JsonObject frame) {
      LauncherHarness.await(socket.writeTextMessage(frame.encode()));
    }

    JsonObject next() throws InterruptedException {
      JsonObject frame = frames.poll(10, TimeUnit.SECONDS);
      assertThat(frame).as("a frame within 10 s").isNotNull();
      return frame;
    }

    /** The next frame, skipping any bridge pong. */
    JsonObject nextNonPong() throws InterruptedException {
      JsonObject frame = next();
      while ("pong".equals(frame.getString("type"))) {
        frame = next();
      }
      return frame;
    }
  }

  private Future<WebSocket> connect(String cookie, String origin) {
    return connect(client, cookie, origin);
  }

  private Future<WebSocket> connect(WebSocketClient client, String cookie, String origin) {
    WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(harness.port())
        .setURI("/eventbus/websocket");
    if (cookie != null) {
      options.addHeader("Cookie", cookie);
    }
    if (origin != null) {
      options.addHeader("Origin", origin);
    }
    return client.connect(options);
  }

  private Bridge open(String cookie) {
    WebSocket socket = LauncherHarness.await(connect(cookie, "http://127.0.0.1:" + harness.port()));
    LinkedBlockingQueue<JsonObject> frames = new LinkedBlockingQueue<>();
    socket.handler(buffer -> frames.add(new JsonObject(buffer.toString())));
    return new Bridge(socket, frames);
  }

  private int refusedStatus(String cookie, String origin) {
    CompletableFuture<Integer> status = new CompletableFuture<>();
    connect(cookie, origin).onComplete(ar -> {
      if (ar.succeeded()) {
        ar.result().close();
        status.complete(101);
      } else if (ar.cause() instanceof UpgradeRejectedException rejected) {
        status.complete(rejected.getStatus());
      } else {
        status.completeExceptionally(ar.cause());
      }
    });
    return status.join();
  }

  private ReaderSession readerAccount() {
    return ReaderSession.login(harness.port(), "kid", "reader-pass-1");
  }

  private static JsonObject send(String address, JsonObject body, String replyAddress) {
    return new JsonObject().put("type", "send").put("address", address).put("body", body)
        .put("replyAddress", replyAddress);
  }

  private static JsonObject register(String address) {
    return new JsonObject().put("type", "register").put("address", address);
  }

  @Test
  void theBridgeOpensUncompressedWhenTheBrowserOffersCompressionAndStillAnswers() throws Exception {
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    WebSocketClient deflating = harness.vertx().createWebSocketClient(new WebSocketClientOptions()
        .setTryUsePerMessageCompression(true).setTryUsePerFrameCompression(true));
    try {
      WebSocket socket = LauncherHarness.await(connect(deflating, admin.cookie(), "http://127.0.0.1:"
          + harness.port()));
      assertThat(socket.headers().get("Sec-WebSocket-Extensions")).as("no compression agreed").isNull();
      Bridge bridge = new Bridge(socket, new LinkedBlockingQueue<>());
      socket.handler(buffer -> bridge.frames().add(new JsonObject(buffer.toString())));
      String address = ConsoleBridge.INBOUND.get(0);
      bridge.send(send(address, new JsonObject().put("v", 1), "reply-uncompressed"));
      JsonObject answer = bridge.nextNonPong();
      assertThat(answer.getString("address")).as(address).isEqualTo("reply-uncompressed");
      assertThat(answer.getString("type")).as(address).isIn("rec", "err");
    } finally {
      LauncherHarness.await(deflating.close());
    }
  }

  @Test
  void withoutASessionTheBridgeIsClosedOnEveryTransport() {
    assertThat(refusedStatus(null, null)).isEqualTo(401);
    assertThat(refusedStatus("mc_session=not-a-session", null)).isEqualTo(401);
    assertThat(io.mangacircus.launcher.testing.HttpProbe.get(harness.port(), "/eventbus/info").status())
        .isEqualTo(401);
  }

  @Test
  void aReaderAccountIsRefusedTheBridge() {
    ReaderSession kid = readerAccount();

    assertThat(refusedStatus(kid.cookie(), null)).isEqualTo(403);
    assertThat(refusedStatus(kid.cookie(), "http://127.0.0.1:" + harness.port())).isEqualTo(403);
    assertThat(kid.get("/eventbus/info").statusCode()).isEqualTo(403);
  }

  @Test
  void anAdminSessionFromAnotherSiteIsRefused() {
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);

    assertThat(refusedStatus(admin.cookie(), "http://evil.example")).isEqualTo(403);
    assertThat(refusedStatus(admin.cookie(), "http://127.0.0.1:1")).isEqualTo(403);
    assertThat(refusedStatus(admin.cookie(), "http://127.0.0.1:" + harness.port())).isEqualTo(101);
  }

  @Test
  void anAdminMaySendToEveryOperatorAddressAndToNothingElse() throws Exception {
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    Bridge bridge = open(admin.cookie());

    // Every allowed address reaches the scraper: its answer (a reply or the scraper's own refusal) comes back.
    int n = 0;
    for (String address : ConsoleBridge.INBOUND) {
      String replyAddress = "reply-" + n++;
      bridge.send(send(address, new JsonObject().put("v", 1), replyAddress));
      JsonObject answer = bridge.nextNonPong();
      assertThat(answer.getString("address")).as(address).isEqualTo(replyAddress);
      assertThat(answer.getString("type")).as(address).isIn("rec", "err");
      if ("err".equals(answer.getString("type"))) {
        assertThat(answer.getString("failureType")).as(address + ": " + answer).isEqualTo("RECIPIENT_FAILURE");
      }
    }
    bridge.send(send(Addresses.SCRAPER_JOBS_LIST, new JsonObject().put("v", 1), "jobs"));
    JsonObject jobs = bridge.nextNonPong();
    assertThat(jobs.getString("type")).isEqualTo("rec");
    assertThat(jobs.getJsonObject("body").getJsonArray("jobs")).isNotNull();

    for (String address : NOT_INBOUND) {
      bridge.send(send(address, new JsonObject().put("v", 1), "denied"));
      assertThat(bridge.nextNonPong()).as(address)
          .isEqualTo(new JsonObject().put("type", "err").put("body", "access_denied"));
    }
    // Publishing from a browser is refused even to an allowed address.
    bridge.send(new JsonObject().put("type", "publish").put("address", Addresses.SCRAPER_JOBS_LIST)
        .put("body", new JsonObject().put("v", 1)));
    assertThat(bridge.nextNonPong().getString("type")).isEqualTo("err");
  }

  @Test
  void anAdminReceivesProgressStatusAndIncidentEventsAndNothingElse() throws Exception {
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    Bridge bridge = open(admin.cookie());
    for (String address : NOT_OUTBOUND) {
      bridge.send(register(address));
      assertThat(bridge.nextNonPong()).as(address)
          .isEqualTo(new JsonObject().put("type", "err").put("body", "access_denied"));
    }
    for (String address : ConsoleBridge.OUTBOUND) {
      bridge.send(register(address));
    }
    // A register is answered only when refused, so publish until every allowed event has arrived.
    java.util.Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
    await("every outbound event reaches the bridge").atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(200)).until(() -> {
          for (String address : NOT_OUTBOUND) {
            harness.vertx().eventBus().publish(address, new JsonObject().put("v", 1).put("secret", address));
          }
          for (String address : ConsoleBridge.OUTBOUND) {
            harness.vertx().eventBus().publish(address, new JsonObject().put("v", 1).put("probe", address));
          }
          for (JsonObject frame = bridge.frames().poll(); frame != null; frame = bridge.frames().poll()) {
            assertThat(frame.getString("type")).as(frame.encode()).isEqualTo("rec");
            assertThat(frame.getJsonObject("body").containsKey("secret")).as(frame.encode()).isFalse();
            if (frame.getJsonObject("body").containsKey("probe")) {
              seen.add(frame.getString("address"));
            }
          }
          return seen.size() == ConsoleBridge.OUTBOUND.size();
        });
    assertThat(seen).containsExactlyInAnyOrderElementsOf(ConsoleBridge.OUTBOUND);
  }

  @Test
  void anAdminSessionOpensTheSockJsEndpointsWithoutAnExtraCookie() {
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);

    java.net.http.HttpResponse<String> info = admin.get("/eventbus/info");

    assertThat(info.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(info.body()).getBoolean("websocket")).isTrue();
    assertThat(info.headers().firstValue("Set-Cookie")).isEmpty();
  }

  private java.net.http.HttpResponse<String> xhr(String cookie, String path, String body) throws Exception {
    java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(
        java.net.URI.create("http://127.0.0.1:" + harness.port() + path)).timeout(java.time.Duration.ofSeconds(10))
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "text/plain");
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    return java.net.http.HttpClient.newHttpClient().send(request.build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theXhrFallbackTransportIsGuardedAndCarriesRequestsAndReplies() throws Exception {
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    ReaderSession kid = readerAccount();
    assertThat(xhr(null, "/eventbus/000/nosession/xhr", "").statusCode()).isEqualTo(401);
    assertThat(xhr(kid.cookie(), "/eventbus/000/kid/xhr", "").statusCode()).isEqualTo(403);

    assertThat(xhr(admin.cookie(), "/eventbus/000/admin1/xhr", "").body()).isEqualTo("o\n");
    String frame = send(Addresses.SCRAPER_JOBS_LIST, new JsonObject().put("v", 1), "xhr-reply").encode();
    java.net.http.HttpResponse<String> sent = xhr(admin.cookie(), "/eventbus/000/admin1/xhr_send",
        new io.vertx.core.json.JsonArray().add(frame).encode());
    assertThat(sent.statusCode()).isEqualTo(204);

    String polled = xhr(admin.cookie(), "/eventbus/000/admin1/xhr", "").body();
    assertThat(polled).startsWith("a[");
    JsonObject reply = new JsonObject(new io.vertx.core.json.JsonArray(polled.substring(1).trim()).getString(0));
    assertThat(reply.getString("address")).isEqualTo("xhr-reply");
    assertThat(reply.getJsonObject("body").getJsonArray("jobs")).isNotNull();
  }

  @Test
  void theBrowserClientsAreServedFromThePinnedPackages() {
    io.mangacircus.launcher.testing.HttpProbe.Answer sockjs = io.mangacircus.launcher.testing.HttpProbe.get(
        harness.port(), "/webjars/sockjs-client/1.6.1/dist/sockjs.min.js");
    io.mangacircus.launcher.testing.HttpProbe.Answer bridge = io.mangacircus.launcher.testing.HttpProbe.get(
        harness.port(), "/js/vendor/vertx-eventbus.js");

    assertThat(sockjs.status()).isEqualTo(200);
    assertThat(sockjs.body()).contains("SockJS");
    assertThat(bridge.status()).isEqualTo(200);
    assertThat(bridge.body()).contains("requires sockjs-client", "EventBus.prototype.send");
  }

  @Test
  void aBridgeStopsAnsweringOnceItsSessionLogsOut() throws Exception {
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    Bridge bridge = open(admin.cookie());
    bridge.send(send(Addresses.SCRAPER_JOBS_LIST, new JsonObject().put("v", 1), "before"));
    assertThat(bridge.nextNonPong().getString("type")).isEqualTo("rec");

    assertThat(admin.post("/api/logout", null).statusCode()).isIn(200, 204);

    bridge.send(send(Addresses.SCRAPER_JOBS_LIST, new JsonObject().put("v", 1), "after"));
    JsonObject refused = bridge.nextNonPong();
    assertThat(refused.getString("type")).isEqualTo("err");
    assertThat(refused.containsKey("address")).isFalse();
  }
}
