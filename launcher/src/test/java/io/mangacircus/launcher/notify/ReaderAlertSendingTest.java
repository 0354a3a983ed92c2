package io.mangacircus.launcher.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.config.ConfigLoader;
import io.mangacircus.launcher.config.NotificationsConfig;
import io.mangacircus.support.supervision.Backoff;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers' alerts at send time, over real HTTP on loopback: a target on an internal address is never connected to (the
 * operator's destination at the same place is), and an allowed target is reached at the address that was checked,
 * under its own host name. Names resolve through a resolver the test controls.
 */
class ReaderAlertSendingTest {

  @TempDir
  Path folder;

  private final Vertx vertx = Vertx.vertx();
  private final List<String> received = new CopyOnWriteArrayList<>();
  private HttpServer server;

  @BeforeEach
  void listen() {
    server = vertx.createHttpServer().requestHandler(request -> {
      received.add(request.method() + " " + request.uri() + " Host=" + request.authority());
      request.response().end();
    }).listen(0, "127.0.0.1").await();
  }

  @AfterEach
  void close() {
    vertx.close().await();
  }

  private String base() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  private static Notification message(String kind) {
    return new Notification(kind, kind + ":1", "1 new chapter of Circus Nights", "m", 3, List.of("books"), "",
        Instant.now(), 0);
  }

  private static ReaderTargetGuard.HostResolver resolving(String name, String address) {
    return host -> {
      if (!host.equals(name)) {
        throw new UnknownHostException(host);
      }
      return List.of(InetAddress.getByAddress(name, InetAddress.getByName(address).getAddress()));
    };
  }

  @Test
  void aReaderAlertAimedAtTheLoopbackAddressIsNeverSentWhileTheOperatorsDestinationThereIs() {
    NotificationsConfig config = new ConfigLoader().load(Optional.empty(), Map.of(),
        ConfigLoader.CommandLineOverrides.none()).notifications();
    InstantSource clock = InstantSource.system();
    Dispatcher dispatcher = new Dispatcher(List.of(Destination.of(new NotificationsConfig.Destination("ops", "webhook",
        base() + "/ops", null, null, null, 30))), Map.of("ops", 30), new Outbox(100),
        new Deduplicator(Duration.ofMinutes(15), clock),
        new Backoff(Duration.ofSeconds(60), 2.0, Duration.ofSeconds(900)), 20, clock);
    OutboxFile file = new OutboxFile(folder);
    Deliveries deliveries = new Deliveries(vertx, dispatcher, new RequestSender(vertx, 5), file,
        new NotificationMeters(null), config);
    NotificationsConfig.Destination alice = new NotificationsConfig.Destination("reader:alice", "webhook",
        base() + "/alice", null, "tk_alice", Set.of("new-chapters"), 30);

    vertx.runOnContext(v -> {
      deliveries.accept(message("incident"));
      deliveries.acceptFor(message("new-chapters"), alice);
      deliveries.sendDue();
    });

    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(file.load())
        .as("the operator's delivery arrived; alice's failed once and waits")
        .singleElement().satisfies(d -> {
          assertThat(d.destination()).isEqualTo("reader:alice");
          assertThat(d.attempts()).isEqualTo(1);
        }));
    assertThat(received).as("only the operator's destination was connected to").containsExactly(
        "POST /ops Host=127.0.0.1:" + server.actualPort());
  }

  @Test
  void aReaderAlertWhoseNameResolvesToTheLoopbackAddressIsRefusedBeforeAnyConnection() {
    RequestSender sender = new RequestSender(vertx, 5, new ReaderTargetGuard(List.of(),
        resolving("hooks.example.test", "127.0.0.1")));
    OutgoingRequest request = new OutgoingRequest("POST", "http://hooks.example.test:" + server.actualPort()
        + "/alice", Map.of("Content-Type", "application/json"), new JsonObject().put("v", 1).encode());

    Future<?> sent = sender.sendReaderAlert(request);

    await().atMost(Duration.ofSeconds(10)).until(sent::isComplete);
    assertThat(sent.failed()).isTrue();
    assertThat(sent.cause()).hasMessage("refused: its host is a loopback address or resolves to one; alerts go only "
        + "to public addresses unless the server's admin allows the host (notifications.readerAlertAllowedHosts)");
    assertThat(received).isEmpty();
    assertThat(sender.send(new OutgoingRequest("POST", base() + "/ops", Map.of(), "x")).await().statusCode())
        .as("the operator's requests are not checked").isEqualTo(200);
  }

  @Test
  void anAllowedReaderAlertConnectsToTheAddressThatWasCheckedUnderItsOwnHostName() {
    RequestSender sender = new RequestSender(vertx, 5, new ReaderTargetGuard(List.of("hooks.example.test"),
        resolving("hooks.example.test", "127.0.0.1")));
    OutgoingRequest request = new OutgoingRequest("POST", "http://hooks.example.test:" + server.actualPort()
        + "/alice/hook?key=k%201", Map.of("Authorization", "Bearer tk_alice"), "{}");

    // The name exists only in the test's resolver: the request can only have connected to the address it returned.
    assertThat(sender.sendReaderAlert(request).await().statusCode()).isEqualTo(200);
    assertThat(received).containsExactly("POST /alice/hook?key=k%201 Host=hooks.example.test:"
        + server.actualPort());
  }

  @Test
  void anAllowedReaderAlertOnAnIpv6LiteralIsSentThereWithTheBracketedHost() {
    HttpServer v6 = vertx.createHttpServer().requestHandler(request -> {
      received.add(request.method() + " " + request.uri() + " Host=" + request.headers().get("Host"));
      request.response().end();
    }).listen(0, "::1").await();
    RequestSender sender = new RequestSender(vertx, 5, new ReaderTargetGuard(List.of("[::1]"),
        ReaderTargetGuard.HostResolver.system()));

    assertThat(sender.sendReaderAlert(new OutgoingRequest("POST", "http://[::1]:" + v6.actualPort() + "/v6", Map.of(),
        "{}")).await().statusCode()).isEqualTo(200);
    assertThat(received).containsExactly("POST /v6 Host=[::1]:" + v6.actualPort());
  }
}
