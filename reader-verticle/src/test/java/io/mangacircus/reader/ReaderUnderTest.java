package io.mangacircus.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.http.HttpMount;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The real reader verticle on a real HTTP server over a data folder, for tests that talk to it as a browser or a
 * reading app would: sessions with their CSRF token, app passwords over Basic.
 */
public final class ReaderUnderTest implements AutoCloseable {

  public static final String ADMIN_PASSWORD = "reader-under-test-admin-password";
  public static final String ADMIN_TOKEN = "reader-under-test-admin-token";

  private final Vertx vertx;
  private final int port;
  private AtomicReference<Router> served;
  /** HTTP/1.1 as browsers and reading apps speak it (the JDK client would otherwise upgrade to cleartext HTTP/2). */
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private ReaderUnderTest(Vertx vertx, int port) {
    this.vertx = vertx;
    this.port = port;
  }

  /** Starts a reader over {@code data} (its library in {@code data/library}). */
  public static ReaderUnderTest start(Path data) throws Exception {
    return start(data, java.util.List.of());
  }

  /**
   * Starts a reader over {@code data} that believes the {@code X-Forwarded-*} headers of the proxies at
   * {@code trustProxy} (addresses or ranges); the test's own requests come from 127.0.0.1.
   */
  public static ReaderUnderTest start(Path data, java.util.List<String> trustProxy) throws Exception {
    return start(data, trustProxy, null);
  }

  /**
   * Starts a reader over {@code data} whose KOReader sync admits whom {@code kosync} says of the opened stores (null:
   * the reader's own app passwords).
   */
  public static ReaderUnderTest start(Path data, java.util.List<String> trustProxy,
      java.util.function.Function<io.mangacircus.reader.store.ReaderStores,
          io.mangacircus.reader.kosync.KosyncAccounts> kosync) throws Exception {
    return start(data, trustProxy, kosync, java.util.List.of());
  }

  /** Starts a reader over {@code data} that reads the given collections too. */
  public static ReaderUnderTest withCollections(Path data, java.util.List<LibraryConfig> libraries)
      throws Exception {
    return start(data, java.util.List.of(), null, libraries);
  }

  /** Starts a reader over {@code data} whose admin may ask the metadata providers {@code providers} configures. */
  public static ReaderUnderTest withMetadataProviders(Path data, MetadataProvidersConfig providers) throws Exception {
    return start(data, java.util.List.of(), null, java.util.List.of(), providers);
  }

  private static ReaderUnderTest start(Path data, java.util.List<String> trustProxy,
      java.util.function.Function<io.mangacircus.reader.store.ReaderStores,
          io.mangacircus.reader.kosync.KosyncAccounts> kosync, java.util.List<LibraryConfig> libraries)
      throws Exception {
    return start(data, trustProxy, kosync, libraries, MetadataProvidersConfig.OFF);
  }

  /** Starts a reader over {@code data} whose users may link the trackers {@code trackers} enables. */
  public static ReaderUnderTest withTrackers(Path data, TrackersConfig trackers) throws Exception {
    return start(data, java.util.List.of(), null, java.util.List.of(), MetadataProvidersConfig.OFF, trackers);
  }

  private static ReaderUnderTest start(Path data, java.util.List<String> trustProxy,
      java.util.function.Function<io.mangacircus.reader.store.ReaderStores,
          io.mangacircus.reader.kosync.KosyncAccounts> kosync, java.util.List<LibraryConfig> libraries,
      MetadataProvidersConfig providers) throws Exception {
    return start(data, trustProxy, kosync, libraries, providers, TrackersConfig.OFF);
  }

  /** Starts a reader over {@code data} whose users may sign in with the provider {@code oidc} configures. */
  public static ReaderUnderTest withOidc(Path data, io.mangacircus.reader.accounts.oidc.OidcConfig oidc)
      throws Exception {
    return start(data, java.util.List.of(), null, java.util.List.of(), MetadataProvidersConfig.OFF, TrackersConfig.OFF,
        oidc);
  }

  private static ReaderUnderTest start(Path data, java.util.List<String> trustProxy,
      java.util.function.Function<io.mangacircus.reader.store.ReaderStores,
          io.mangacircus.reader.kosync.KosyncAccounts> kosync, java.util.List<LibraryConfig> libraries,
      MetadataProvidersConfig providers, TrackersConfig trackers) throws Exception {
    return start(data, trustProxy, kosync, libraries, providers, trackers, null);
  }

  private static ReaderUnderTest start(Path data, java.util.List<String> trustProxy,
      java.util.function.Function<io.mangacircus.reader.store.ReaderStores,
          io.mangacircus.reader.kosync.KosyncAccounts> kosync, java.util.List<LibraryConfig> libraries,
      MetadataProvidersConfig providers, TrackersConfig trackers,
      io.mangacircus.reader.accounts.oidc.OidcConfig oidc) throws Exception {
    return start(data, new ReaderConfig(ADMIN_TOKEN, 2_000, ADMIN_PASSWORD, 1, trustProxy, libraries, providers,
        trackers, null, null, null, null, oidc), kosync);
  }

  /**
   * Starts a reader over {@code data} on the PostgreSQL database {@code database} (its password in
   * {@code passwordFile}) whose users may link the trackers {@code trackers} enables: several such readers share it.
   */
  public static ReaderUnderTest withTrackersOnPostgres(Path data, TrackersConfig trackers, String database,
      Path passwordFile) throws Exception {
    return start(data, new ReaderConfig(ADMIN_TOKEN, 2_000, ADMIN_PASSWORD, 1, java.util.List.of(),
        java.util.List.of(), MetadataProvidersConfig.OFF, trackers, database, null, passwordFile.toString(), null,
        null), null);
  }

  private static ReaderUnderTest start(Path data, ReaderConfig config,
      java.util.function.Function<io.mangacircus.reader.store.ReaderStores,
          io.mangacircus.reader.kosync.KosyncAccounts> kosync) throws Exception {
    Files.createDirectories(data.resolve("library"));
    Vertx vertx = Vertx.vertx();
    AtomicReference<Router> served = new AtomicReference<>();
    HttpMount mount = new HttpMount() {
      @Override
      public void attach(Router router) {
        served.set(router);
      }

      @Override
      public void detach(Router router) {
        served.compareAndSet(router, null);
      }
    };
    int port = vertx.createHttpServer().requestHandler(request -> served.get().handle(request))
        .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
    vertx.deployVerticle(new ReaderVerticle(config, mount, data).kosyncAccounts(kosync)).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    ReaderUnderTest reader = new ReaderUnderTest(vertx, port);
    reader.served = served;
    return reader;
  }

  /** The reader's router, every route declared (for tests that walk them). */
  public Router router() {
    return served.get();
  }

  /** The reader's Vert.x, for stand-ins of the scraper's consumers on its event bus. */
  public Vertx vertx() {
    return vertx;
  }

  public String base() {
    return "http://127.0.0.1:" + port;
  }

  /** A browser session. */
  public record Session(String cookie, String csrf) {
  }

  /** Logs in; asserts it worked. */
  public Session login(String username, String password) throws Exception {
    HttpResponse<String> answer = loginAnswer(username, password);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return new Session(answer.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0],
        new JsonObject(answer.body()).getString("csrfToken"));
  }

  /** The answer to a login. */
  public HttpResponse<String> loginAnswer(String username, String password) throws Exception {
    return text(request("POST", "/api/login", new JsonObject().put("username", username).put("password", password)
        .encode()));
  }

  /** Creates a reader account as the admin. */
  public void createReader(Session admin, String username, String password) throws Exception {
    HttpResponse<String> created = text(as(admin, request("POST", "/api/admin/users", new JsonObject()
        .put("username", username).put("password", password).put("role", "reader").encode())));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
  }

  /** Creates an app password for the session's user; returns the answer (with the secret). */
  public JsonObject createAppPassword(Session session, String name) throws Exception {
    return createAppPassword(session, name, "read");
  }

  /** Creates an app password of {@code scope} ({@code read}, {@code read+progress}) as the session's user. */
  public JsonObject createAppPassword(Session session, String name, String scope) throws Exception {
    HttpResponse<String> created = text(as(session, request("POST", "/api/me/app-passwords",
        new JsonObject().put("name", name).put("scope", scope).encode())));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return new JsonObject(created.body());
  }

  /** A request; {@code body} null for none, else JSON. */
  public HttpRequest.Builder request(String method, String path, String body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(20))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    return request;
  }

  /** A GET. */
  public HttpRequest.Builder get(String path) {
    return request("GET", path, null);
  }

  /** The request with the session's cookie and CSRF header. */
  public static HttpRequest.Builder as(Session session, HttpRequest.Builder request) {
    return request.header("Cookie", session.cookie()).header("X-CSRF-Token", session.csrf());
  }

  /** The request with HTTP Basic credentials. */
  public static HttpRequest.Builder basic(String username, String password, HttpRequest.Builder request) {
    return request.header("Authorization", "Basic " + Base64.getEncoder()
        .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8)));
  }

  public HttpResponse<String> text(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  public HttpResponse<byte[]> bytes(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  @Override
  public void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }
}
