package io.mangacircus.launcher.edge;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.ReaderSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the real product's HTTP port does with requests a browser would not send, raw on a socket: the HTTP layer's own
 * errors, smuggling-shaped framing, slow and idle connections, the connection cap, disguised admin paths, the SockJS
 * transports and the {@code Host} check. One product start for all (short timeouts, a small cap, public names set).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpEdgeIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final int HEADER_TIMEOUT_S = 2;
  private static final int IDLE_TIMEOUT_S = 4;
  private static final int MAX_CONNECTIONS = 40;
  /** How long a test waits at most for the server to close a connection it should close. */
  private static final int CLOSE_WAIT_MS = 15_000;

  private Path data;
  private LauncherHarness harness;

  @BeforeAll
  void start() throws IOException {
    data = Files.createTempDirectory("http-edge-it");
    harness = new LauncherHarness(data, new JsonObject()
        .put("reader", new JsonObject().put("initialAdminPassword", ADMIN_PASSWORD))
        .put("http", new JsonObject().put("headerTimeoutSeconds", HEADER_TIMEOUT_S)
            .put("idleTimeoutSeconds", IDLE_TIMEOUT_S).put("maxConnections", MAX_CONNECTIONS)
            .put("publicHosts", new JsonArray().add("127.0.0.1").add("reader.example")))
        .encode()).startStandard(Mode.ALL);
  }

  @AfterAll
  void stop() throws IOException {
    harness.close();
    try (var files = Files.walk(data)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  // --- the HTTP layer's own errors carry the security headers

  @Test
  void errorsOfTheHttpLayerCarryTheSecurityHeaders() throws IOException {
    assertHardened("a bad request line (400)", exchange("GARBAGE\r\n\r\n"), 400);
    assertHardened("a request line too long (414)", exchange("GET /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: x\r\n\r\n"),
        414);
    assertHardened("headers too large (431)", exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: " + "a".repeat(9000)
        + "\r\n\r\n"), 431);
    assertHardened("an unknown HTTP version (501)", exchange("GET / HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n"), 501);
  }

  // --- request smuggling

  @Test
  void aRequestWithBothContentLengthAndTransferEncodingIsRefusedAndTheConnectionClosed() throws IOException {
    Answer answer = exchange("POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
        + "GET /login.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    assertThat(answer.status()).as(answer.text()).isEqualTo(400);
    assertThat(answer.closed()).as("the connection is closed after the 400: " + answer.text()).isTrue();
    assertThat(answer.text()).as("nothing after the 400 is answered").doesNotContain("200 OK");
    assertHardened("the 400", answer, 400);
  }

  @Test
  void aRequestWithTwoHostHeadersIsRefusedAndTheConnectionClosed() throws IOException {
    Answer answer = exchange("GET /login.html HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: reader.example\r\n\r\n");
    assertThat(answer.status()).as(answer.text()).isEqualTo(400);
    assertThat(answer.closed()).as("the connection is closed after the 400").isTrue();
  }

  // --- slow and idle clients

  @Test
  void aHeadTrickledSlowerThanTheHeaderTimeoutIsCut() throws IOException {
    try (Socket socket = connect()) {
      OutputStream out = socket.getOutputStream();
      out.write("GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      long until = System.nanoTime() + CLOSE_WAIT_MS * 1_000_000L;
      boolean cut = false;
      // A header line every 500 ms keeps bytes coming, and never ends the head.
      while (!cut && System.nanoTime() < until) {
        try {
          out.write("X-Slow: 1\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
          socket.setSoTimeout(500);
          cut = socket.getInputStream().read() == -1;
        } catch (SocketTimeoutException stillOpen) {
          // the server has not closed it yet
        } catch (SocketException reset) {
          cut = true;
        }
      }
      assertThat(cut).as("an endless head is cut (header timeout " + HEADER_TIMEOUT_S + " s)").isTrue();
    }
  }

  @Test
  void anIdleKeptAliveConnectionIsClosedAfterTheIdleTimeout() throws IOException {
    try (Socket socket = connect()) {
      write(socket, "GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      socket.setSoTimeout(CLOSE_WAIT_MS);
      Answer answer = readAll(socket);
      assertThat(answer.status()).as(answer.text()).isEqualTo(200);
      assertThat(answer.closed()).as("the kept-alive connection is closed once idle for " + IDLE_TIMEOUT_S + " s")
          .isTrue();
    }
  }

  @Test
  void aSlowButSteadyClientIsAnswered() throws IOException {
    try (Socket socket = connect()) {
      // A head in pieces, well within the header timeout, then a body that takes longer than the header timeout.
      byte[] body = "{\"username\": \"admin\", \"password\": \"wrong-password\"}".getBytes(StandardCharsets.UTF_8);
      write(socket, "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n");
      pause(300);
      write(socket, "Content-Type: application/json\r\nConnection: close\r\nContent-Length: " + body.length
          + "\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      int pieces = 6;
      int step = (body.length + pieces - 1) / pieces;
      for (int at = 0; at < body.length; at += step) {
        out.write(body, at, Math.min(step, body.length - at));
        out.flush();
        pause(HEADER_TIMEOUT_S * 1000 / 3);
      }
      socket.setSoTimeout(CLOSE_WAIT_MS);
      Answer answer = readAll(socket);
      assertThat(answer.status()).as("the login is answered (wrong password), not cut: " + answer.text())
          .isEqualTo(401);
    }
  }

  @Test
  void connectionsOverTheCapAreClosedAtOnce() throws IOException {
    int tries = MAX_CONNECTIONS + 10;
    List<Socket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < tries; i++) {
        sockets.add(connect());
      }
      int answered = 0;
      for (Socket socket : sockets) {
        try {
          // Kept alive, so that every connection answered stays open (and counted) until the end of the test.
          write(socket, "GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
          socket.setSoTimeout(200);
          if (readAll(socket).status() == 200) {
            answered++;
          }
        } catch (IOException refused) {
          // closed by the server before the request: refused
        }
      }
      assertThat(answered).as("answered of " + tries + " connections opened at once").isPositive()
          .isLessThanOrEqualTo(MAX_CONNECTIONS);
    } finally {
      for (Socket socket : sockets) {
        socket.close();
      }
    }
  }

  // --- the admin pages' guard

  @Test
  void adminPagesSpelledWithEncodedSeparatorsAreNotFound() throws IOException {
    for (String path : new String[] {"/admin%2fusers.html", "/admin%2Fusers.html", "/admin%5Cusers.html",
        "/admin%5cusers.html", "/admin\\users.html"}) {
      Answer answer = exchange("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
      assertThat(answer.status()).as(path + ": " + answer.text()).isEqualTo(404);
      assertThat(answer.text()).as(path).doesNotContain("<html");
    }
    for (String path : new String[] {"/admin/users.html", "//admin/users.html", "/x/%2e%2e/admin/users.html",
        "/%61dmin/users.html"}) {
      Answer answer = exchange("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
      assertThat(answer.status()).as(path + " without a session goes to the login page").isEqualTo(302);
    }
  }

  // --- the console's SockJS transports

  @Test
  void theEventBusOffersWebSocketAndXhrOnly() {
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    assertThat(admin.get("/eventbus/info").statusCode()).as("SockJS info").isEqualTo(200);
    assertThat(admin.request("POST", "/eventbus/000/xhrsession/xhr", new byte[0]).statusCode())
        .as("XHR polling stays").isEqualTo(200);
    assertThat(admin.get("/eventbus/000/jsonpsession/jsonp?c=alert").statusCode()).as("JSONP").isEqualTo(404);
    assertThat(admin.get("/eventbus/000/htmlsession/htmlfile?c=alert").statusCode()).as("htmlfile").isEqualTo(404);
    assertThat(admin.get("/eventbus/000/essession/eventsource").statusCode()).as("EventSource").isEqualTo(404);
    assertThat(admin.get("/eventbus/iframe.html").statusCode()).as("iframe.html").isEqualTo(404);
    assertThat(admin.get("/eventbus/iframe-1.6.1.html").statusCode()).as("a versioned iframe page").isEqualTo(404);
  }

  // --- the Host check

  @Test
  void onlyTheConfiguredPublicNamesAreAnswered() throws IOException {
    Answer other = exchange("GET /login.html HTTP/1.1\r\nHost: rebound.attacker.example\r\nConnection: close\r\n\r\n");
    assertThat(other.status()).as("another name: " + other.text()).isEqualTo(421);
    assertHardened("the 421", other, 421);
    Answer named = exchange("GET /login.html HTTP/1.1\r\nHost: reader.example:8443\r\nConnection: close\r\n\r\n");
    assertThat(named.status()).as("a configured name, any port").isEqualTo(200);
    Answer health = exchange("GET /health/live HTTP/1.1\r\nHost: rebound.attacker.example\r\nConnection: close\r\n\r\n");
    assertThat(health.status()).as("health answers to any name").isEqualTo(200);
  }

  // --- answers with secrets

  @Test
  void answersCarryingSecretsAreNeverStored() {
    HttpResponse<String> login = ReaderSession.raw(harness.port(), "POST", "/api/login",
        new JsonObject().put("username", "admin").put("password", ADMIN_PASSWORD).encode()
            .getBytes(StandardCharsets.UTF_8), "Content-Type", "application/json");
    assertThat(login.statusCode()).isEqualTo(200);
    assertThat(login.headers().firstValue("Cache-Control")).as("the login (session cookie, CSRF token)")
        .hasValue("no-store");
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    assertThat(admin.get("/api/me").headers().firstValue("Cache-Control")).as("/api/me (CSRF token)")
        .hasValue("no-store");
    HttpResponse<String> created = admin.post("/api/me/app-passwords", new JsonObject().put("name", "e-reader"));
    assertThat(created.statusCode()).as(created.body()).isIn(200, 201);
    assertThat(created.headers().firstValue("Cache-Control")).as("a new app password").hasValue("no-store");
    assertThat(admin.get("/api/admin/users").headers().firstValue("Cache-Control")).as("the accounts")
        .hasValue("no-store");
    assertThat(admin.get("/api/series").headers().firstValue("Cache-Control")).as("the library is not a secret")
        .isEmpty();
  }

  // --- raw HTTP

  /** What came back on a connection: the bytes until the server closed it (or went quiet), and whether it did. */
  private record Answer(String text, boolean closed) {
    int status() {
      String[] first = text.split("\r\n", 2)[0].split(" ");
      return first.length > 1 && first[1].matches("\\d{3}") ? Integer.parseInt(first[1]) : -1;
    }

    String header(String name) {
      for (String line : text.split("\r\n\r\n", 2)[0].split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
          return line.substring(colon + 1).trim();
        }
      }
      return null;
    }
  }

  private static void assertHardened(String what, Answer answer, int status) {
    assertThat(answer.status()).as(what + ": " + answer.text()).isEqualTo(status);
    assertThat(answer.header("Content-Security-Policy")).as(what + ": Content-Security-Policy")
        .contains("default-src 'self'", "frame-ancestors 'none'");
    assertThat(answer.header("X-Content-Type-Options")).as(what).isEqualTo("nosniff");
    assertThat(answer.header("X-Frame-Options")).as(what).isEqualTo("DENY");
    assertThat(answer.header("Referrer-Policy")).as(what).isEqualTo("same-origin");
  }

  private Socket connect() throws IOException {
    return new Socket("127.0.0.1", harness.port());
  }

  /**
   * Sends the bytes and reads until the server closes the connection (each request here asks for that, or is one the
   * server must close on), or stays quiet for {@link #CLOSE_WAIT_MS}.
   */
  private Answer exchange(String request) throws IOException {
    try (Socket socket = connect()) {
      write(socket, request);
      socket.setSoTimeout(CLOSE_WAIT_MS);
      return readAll(socket);
    }
  }

  private static void write(Socket socket, String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
    socket.getOutputStream().flush();
  }

  private static Answer readAll(Socket socket) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int n; (n = in.read(buffer)) != -1; ) {
        bytes.write(buffer, 0, n);
      }
      return new Answer(bytes.toString(StandardCharsets.ISO_8859_1), true);
    } catch (SocketTimeoutException quiet) {
      return new Answer(bytes.toString(StandardCharsets.ISO_8859_1), false);
    } catch (SocketException reset) {
      return new Answer(bytes.toString(StandardCharsets.ISO_8859_1), true);
    }
  }

  /** A slow client's pace between its pieces (not a wait for the server). */
  private static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new IOException("interrupted"));
    }
  }
}
