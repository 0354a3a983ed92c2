package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.Session;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.mangacircus.reader.store.StoreEngines;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * App password scopes as the guard enforces them over real HTTP and a real database (SQLite and PostgreSQL): a route declared
 * {@link AccessGuard#appProgress} admits a session with its CSRF header and an app password of scope
 * {@code read+progress}, and answers 403 to one that may only read; {@code X-API-Key} carries an app password on the
 * routes open to apps and nowhere else.
 */
@ParameterizedClass
@EnumSource(StoreEngines.Engine.class)
class AppPasswordScopeTest {

  @Parameter
  StoreEngines.Engine engine;

  private static final String PROGRESS = "/komga/api/v1/books/b1/read-progress";
  private static final String PAGE = "/komga/api/v1/books/b1/pages/1";

  @TempDir
  Path dir;

  private Vertx vertx;
  private ReaderStores stores;
  private AccessGuard guard;
  private HttpServer server;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private String ritaCookie;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    stores = StoreEngines.open(engine, dir);
    guard = new AccessGuard(vertx, stores.sessions(), stores.appPasswords(), "admin-token-1234-0123456",
        InstantSource.system());
    Router router = Router.router(vertx);
    ApiReplies.answerFailuresAsJson(router);
    router.route().handler(BodyHandler.create().setBodyLimit(10_000));
    router.route("/api/*").handler(guard);
    router.route("/komga/*").handler(guard);
    router.route("/api/me/app-passwords*").subRouter(new AppPasswordRoutes(vertx, guard.appPasswords()).router());
    router.get("/api/me").handler(ctx -> ctx.end("me"));
    AccessGuard.adminOnly(router.get("/api/admin/users")).handler(ctx -> ctx.end("users"));
    Router komga = Router.router(vertx);
    AccessGuard.appReadable(komga.get("/books/:id/pages/:n")).handler(ctx -> ctx.end("page"));
    AccessGuard.appProgress(komga.patch("/books/:id/read-progress")).handler(ctx -> {
      Session session = ctx.get(AccessGuard.SESSION);
      ctx.end("moved by " + session.username() + " as " + session.role());
    });
    AccessGuard.appProgress(komga.delete("/books/:id/read-progress")).handler(ctx -> ctx.response().setStatusCode(204)
        .end());
    router.route("/komga/api/v1*").subRouter(komga);
    guard.learnRoutes(router);
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
    long rita = stores.users().createUser("rita", PasswordHasher.hash("rita-account-pw".toCharArray()), "reader",
        Instant.now());
    String token = Sessions.newToken();
    stores.sessions().createSession(Sessions.hash(token), rita, "csrf-rita", Instant.now(),
        Instant.now().plusSeconds(3600));
    ritaCookie = Sessions.COOKIE + "=" + token;
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    stores.close();
  }

  @Test
  void aReadScopeAppPasswordIsRefusedWith403OnAProgressRouteAndAReadProgressOneMovesTheUsersPosition()
      throws Exception {
    String read = create("Panels", null);
    String progress = create("Mihon", "read+progress");

    HttpResponse<String> refused = send("PATCH", PROGRESS, "{\"page\": 3}", "Authorization", basic("rita", read));
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(new JsonObject(refused.body()).getString("message")).isEqualTo("this app password may only read; "
        + "create one with the read+progress scope in your profile");
    assertThat(send("GET", PAGE, null, "Authorization", basic("rita", read)).statusCode())
        .as("it still reads").isEqualTo(200);
    assertThat(send("DELETE", PROGRESS, null, "X-API-Key", read).statusCode()).as("nor by X-API-Key").isEqualTo(403);

    HttpResponse<String> moved = send("PATCH", PROGRESS, "{\"page\": 3}", "Authorization", basic("rita", progress));
    assertThat(moved.statusCode()).as(moved.body()).isEqualTo(200);
    assertThat(moved.body()).as("no CSRF token for an app password, and never an admin role")
        .isEqualTo("moved by rita as " + AccessGuard.APP_ROLE);
    assertThat(send("DELETE", PROGRESS, null, "X-API-Key", progress).statusCode()).isEqualTo(204);
  }

  @Test
  void aSessionMovesItsPositionWithItsCsrfHeaderOnlyAndTheAccountPasswordOverBasicIsRefused() throws Exception {
    assertThat(send("PATCH", PROGRESS, "{}", "Cookie", ritaCookie, "X-CSRF-Token", "csrf-rita").statusCode())
        .isEqualTo(200);
    assertThat(send("PATCH", PROGRESS, "{}", "Cookie", ritaCookie).statusCode()).isEqualTo(403);

    HttpResponse<String> account = send("PATCH", PROGRESS, "{}", "Authorization", basic("rita", "rita-account-pw"));
    assertThat(account.statusCode()).isEqualTo(401);
    assertThat(account.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v)
        .startsWith("Basic realm="));
  }

  @Test
  void anXApiKeyAdmitsOnAReadingRouteAndIsRefusedOnAccountAndAdminRoutes() throws Exception {
    String secret = create("Mihon", "read+progress");

    assertThat(send("GET", PAGE, null, "X-API-Key", secret).statusCode()).isEqualTo(200);
    assertThat(send("GET", "/api/me", null, "X-API-Key", secret).statusCode()).isEqualTo(401);
    assertThat(send("GET", "/api/me/app-passwords", null, "X-API-Key", secret).statusCode()).isEqualTo(401);
    assertThat(send("POST", "/api/me/app-passwords", "{\"name\": \"more\"}", "X-API-Key", secret).statusCode())
        .isEqualTo(401);
    assertThat(send("GET", "/api/admin/users", null, "X-API-Key", secret).statusCode()).isEqualTo(401);
    HttpResponse<String> wrong = send("GET", PAGE, null, "X-API-Key", (secret.charAt(0) == 'x' ? "y" : "x") + secret.substring(1));
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.headers().firstValue("WWW-Authenticate")).as("reading apps answer a Basic challenge")
        .hasValueSatisfying(v -> assertThat(v).startsWith("Basic realm="));
  }

  @Test
  void wrongApiKeysCountInTheLoginThrottlePerClient() throws Exception {
    for (int i = 0; i < AccountRoutes.MAX_FAILURES; i++) {
      assertThat(send("GET", PAGE, null, "X-API-Key", "wrong-api-key-wrong-" + (1000 + i)).statusCode())
          .isEqualTo(401);
    }
    HttpResponse<String> throttled = send("GET", PAGE, null, "X-API-Key", "wrong-api-key-wrong-9999");
    assertThat(throttled.statusCode()).isEqualTo(429);
    assertThat(throttled.headers().firstValue("Retry-After")).isPresent();
  }

  @Test
  void aDisabledUsersAppPasswordsStopAtOnceOnProgressRoutesAndByApiKey() throws Exception {
    String secret = create("Mihon", "read+progress");
    assertThat(send("PATCH", PROGRESS, "{}", "Authorization", basic("rita", secret)).statusCode()).isEqualTo(200);
    assertThat(send("GET", PAGE, null, "X-API-Key", secret).statusCode()).isEqualTo(200);

    stores.users().setDisabled("rita", true);
    guard.forgetAll();

    assertThat(send("PATCH", PROGRESS, "{}", "Authorization", basic("rita", secret)).statusCode()).isEqualTo(401);
    assertThat(send("GET", PAGE, null, "X-API-Key", secret).statusCode()).isEqualTo(401);
  }

  @Test
  void aProgressRouteThatReadsOrIsAdminOnlyOrAlsoAppReadableStopsTheStart() {
    for (int i = 0; i < 3; i++) {
      Router router = Router.router(vertx);
      switch (i) {
        case 0 -> AccessGuard.appProgress(router.get("/komga/api/v1/books/:id/read-progress"))
            .handler(ctx -> ctx.end());
        case 1 -> AccessGuard.appProgress(AccessGuard.adminOnly(router.put("/api/admin/progress")))
            .handler(ctx -> ctx.end());
        default -> AccessGuard.appProgress(AccessGuard.appReadable(router.put("/komga/api/v1/books/:id/x")))
            .handler(ctx -> ctx.end());
      }
      assertThatThrownBy(() -> guard.learnRoutes(router)).as("case " + i).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("app-progress");
    }
  }

  /** Creates an app password as rita through the profile's route; returns its secret. */
  private String create(String name, String scope) throws Exception {
    JsonObject body = new JsonObject().put("name", name);
    if (scope != null) {
      body.put("scope", scope);
    }
    HttpResponse<String> created = send("POST", "/api/me/app-passwords", body.encode(), "Cookie", ritaCookie,
        "X-CSRF-Token", "csrf-rita");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return new JsonObject(created.body()).getString("password");
  }

  private static String basic(String username, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private HttpResponse<String> send(String method, String path, String body, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
        .timeout(Duration.ofSeconds(10)).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    if (headers.length > 0) {
      request.headers(headers);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
