package io.mangacircus.launcher.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.testing.LibraryFixture;
import io.mangacircus.launcher.testing.SeededReaderDb;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.io.TempDir;

/**
 * Page images as the jar serves them: on Netty's native epoll transport on Linux (the log says so), on NIO when the
 * operator turns it off, byte for byte the files of the library either way, never held back by the send's TCP cork;
 * and a page request's session, remembered by its connection, ends the moment the user logs out or an admin resets
 * the password.
 */
@TestInstance(Lifecycle.PER_CLASS)
@Tag("process") @Tag("realtime")
class PageServingIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final String SERIES = "circus-nights";
  private static final int PAGES = 5;
  private static final Duration START = Duration.ofSeconds(60);
  private static final String METRICS_TOKEN = "page-metrics-token-01234";

  /** The jar on its defaults (epoll), shared by the tests that only read pages or add their own user. */
  private JarProcess epoll;
  private int epollPort;
  private Path epollChapter;

  @BeforeAll
  void startOnTheDefaults(@TempDir Path shared) throws Exception {
    epollPort = FreePorts.next();
    epollChapter = library(shared);
    epoll = start(shared, epollPort);
  }

  @AfterAll
  void stop() {
    if (epoll != null) {
      epoll.close();
    }
  }

  /** The one chapter of the library in {@code work}'s data folder. */
  private static Path library(Path work) throws Exception {
    return new LibraryFixture(work.resolve("data")).chapter(SERIES, "Circus Nights", 1, PAGES,
        Instant.parse("2026-11-20T10:00:00Z"));
  }

  private static JarProcess start(Path work, int port, String... extra) {
    List<String> args = new ArrayList<>(List.of("all", "--data=" + work.resolve("data"), "--port=" + port,
        "--health-port=" + FreePorts.next()));
    args.addAll(List.of(extra));
    SeededReaderDb.into(work.resolve("data"), SeededReaderDb.Account.admin(ADMIN_PASSWORD));
    return JarProcess.start(work, Map.of("MANGACIRCUS_ADMIN_PASSWORD", ADMIN_PASSWORD, "MANGACIRCUS_METRICS_TOKEN",
        METRICS_TOKEN), args.toArray(String[]::new));
  }

  private static ReaderSession ready(JarProcess process, int port) {
    await().atMost(START).pollInterval(Duration.ofMillis(100)).until(() -> {
      assertThat(process.isAlive()).as(process.output()).isTrue();
      return HttpProbe.get(port, "/health/ready").status() == 200;
    });
    return ReaderSession.login(port, "admin", ADMIN_PASSWORD);
  }

  private static String page(int n) {
    return "/api/series/" + SERIES + "/chapters/chapter-0001/pages/" + n;
  }

  /** Every page twice, in turn, on the client's kept-alive connection: each must be the file's bytes. */
  private static void assertPagesServedByteExact(ReaderSession session, Path chapter) throws Exception {
    for (int round = 0; round < 2; round++) {
      for (int n = 1; n <= PAGES; n++) {
        HttpResponse<byte[]> answer = session.bytes(page(n));
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Content-Type")).contains("image/png");
        assertThat(answer.body()).isEqualTo(Files.readAllBytes(chapter.resolve(String.format("%03d.png", n))));
      }
    }
  }

  @Test
  void onLinuxTheJarServesPagesOverNativeEpollByteExactAndLogsTheTransportOnce() throws Exception {
    int port = epollPort;
    JarProcess process = epoll;
    ReaderSession admin = ready(process, port);
    assertThat(process.output()).contains("[HTTP] network transport: epoll (native, http.nativeTransport is true)");
    assertThat(process.output().split("network transport:", -1)).as(process.output()).hasSize(2);

    assertPagesServedByteExact(admin, epollChapter);

    // A corked connection that were never uncorked would hold each answer's tail for the kernel's 200 ms limit.
    long began = System.nanoTime();
    for (int i = 0; i < 20; i++) {
      assertThat(admin.bytes(page(1 + i % PAGES)).statusCode()).isEqualTo(200);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(3));

    // The page answers are counted in the HTTP server series docs/operations.md lists.
    HttpProbe.Answer metrics = HttpProbe.get(port, "/metrics", METRICS_TOKEN);
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.body())
        .containsPattern("vertx_http_server_requests_total\\{[^}]*code=\"200\"[^}]*method=\"GET\"[^}]*\\} \\d+")
        .contains("vertx_http_server_response_time_seconds_count", "vertx_http_server_response_bytes_count",
            "vertx_http_server_active_requests");
    assertThat(metrics.body()).doesNotContain("chapter-0001");
  }

  @Test
  void withTheNativeTransportTurnedOffTheJarServesTheSamePagesOverNio(@TempDir Path work) throws Exception {
    Path conf = work.resolve("nio.json");
    Files.writeString(conf, new JsonObject().put("http", new JsonObject().put("nativeTransport", false)).encode());
    int port = FreePorts.next();
    Path chapter = library(work);
    try (JarProcess process = start(work, port, "--conf=" + conf)) {
      ReaderSession admin = ready(process, port);
      assertThat(process.output()).contains("[HTTP] network transport: nio (http.nativeTransport is false)");

      assertPagesServedByteExact(admin, chapter);
    }
  }

  @Test
  void aPageSessionRememberedByItsConnectionEndsAtOnceOnLogoutAndOnAPasswordReset() throws Exception {
    int port = epollPort;
    // Its own user: what it changes (a session, a password) is nobody else's.
    ReaderSession admin = ready(epoll, port);
    assertThat(admin.post("/api/admin/users", new JsonObject().put("username", "rita")
        .put("password", "rita-pass-123").put("role", "reader")).statusCode()).isIn(200, 201);

    ReaderSession leaving = ReaderSession.login(port, "rita", "rita-pass-123");
    for (int i = 0; i < 3; i++) {
      assertThat(leaving.bytes(page(1)).statusCode()).isEqualTo(200);
    }
    assertThat(leaving.post("/api/logout", new JsonObject()).statusCode()).isEqualTo(204);
    assertThat(leaving.bytes(page(1)).statusCode()).as("right after the logout").isEqualTo(401);

    ReaderSession reset = ReaderSession.login(port, "rita", "rita-pass-123");
    for (int i = 0; i < 3; i++) {
      assertThat(reset.bytes(page(2)).statusCode()).isEqualTo(200);
    }
    assertThat(admin.put("/api/admin/users/rita/password", new JsonObject().put("password", "new-pass-456"))
        .statusCode()).isEqualTo(204);
    assertThat(reset.bytes(page(2)).statusCode()).as("right after the password reset").isEqualTo(401);
    assertThat(ReaderSession.login(port, "rita", "new-pass-456").bytes(page(2)).statusCode()).isEqualTo(200);
  }
}
