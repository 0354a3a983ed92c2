package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.store.ReaderStores;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.mangacircus.reader.store.StoreEngines;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Admin routes are the ones declared admin-only where they are declared, wherever their path is. */
@ParameterizedClass
@EnumSource(StoreEngines.Engine.class)
class AccessGuardTest {

  @Parameter
  StoreEngines.Engine engine;

  private static final String TOKEN = "admin-token-1234-0123456";

  @TempDir
  Path dir;

  private Vertx vertx;
  private ReaderStores stores;
  private AccessGuard guard;
  private HttpServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    stores = StoreEngines.open(engine, dir);
    guard = new AccessGuard(vertx, stores.sessions(), stores.appPasswords(), TOKEN, InstantSource.system());
    Router router = Router.router(vertx);
    ApiReplies.answerFailuresAsJson(router);
    router.route("/api/*").handler(guard);
    router.get("/api/series").handler(ctx -> ctx.json(new io.vertx.core.json.JsonObject().put("route", "series")));
    AccessGuard.adminOnly(router.get("/api/admin/users")).handler(ctx -> ctx.end("users"));
    AccessGuard.adminOnly(router.post("/api/system/shutdown")).handler(ctx -> ctx.end("stopping"));
    AccessGuard.adminOnly(router.post("/api/admin/jobs/:jobId/pause")).handler(ctx -> ctx.end("paused"));
    guard.learnRoutes(router);
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    stores.close();
  }

  private HttpResponse<String> send(String method, String path, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
        .timeout(Duration.ofSeconds(5)).method(method, HttpRequest.BodyPublishers.noBody());
    if (headers.length > 0) {
      request.headers(headers);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private String session(String role) throws Exception {
    long user = stores.users().createUser(role + "-user", PasswordHasher.hash("a-long-password".toCharArray()), role,
        Instant.now());
    String token = Sessions.newToken();
    stores.sessions().createSession(Sessions.hash(token), user, "csrf-" + role, Instant.now(),
        Instant.now().plusSeconds(3600));
    return Sessions.COOKIE + "=" + token;
  }

  @Test
  void theAdminTokenOpensEveryRouteDeclaredAdminOnlyAndNoOther() throws Exception {
    String bearer = "Bearer " + TOKEN;
    assertThat(send("GET", "/api/admin/users", "Authorization", bearer).body()).isEqualTo("users");
    assertThat(send("POST", "/api/system/shutdown", "Authorization", bearer).body()).isEqualTo("stopping");
    assertThat(send("POST", "/api/admin/jobs/j-1/pause", "Authorization", bearer).body()).isEqualTo("paused");

    HttpResponse<String> series = send("GET", "/api/series", "Authorization", bearer);
    assertThat(series.statusCode()).isEqualTo(401);
    assertThat(series.body()).contains("\"error\":\"unauthorized\"");
  }

  @Test
  void aReaderAccountIsRefusedOnAdminRoutesOnlyAndNobodyGetsInWithoutCredentials() throws Exception {
    String reader = session("reader");
    assertThat(send("GET", "/api/series", "Cookie", reader).statusCode()).isEqualTo(200);
    assertThat(send("GET", "/api/admin/users", "Cookie", reader).statusCode()).isEqualTo(403);
    assertThat(send("POST", "/api/system/shutdown", "Cookie", reader, "X-CSRF-Token", "csrf-reader").statusCode())
        .isEqualTo(403);
    assertThat(send("GET", "/api/admin/users", "Cookie", session("admin")).body()).isEqualTo("users");
    assertThat(send("POST", "/api/system/shutdown").statusCode()).isEqualTo(401);
    assertThat(send("GET", "/api/admin/users", "Authorization", "Bearer wrong").statusCode()).isEqualTo(401);
  }

  @Test
  void aRouteInTheAdminAreaThatIsNotDeclaredAdminOnlyStopsTheStart() {
    Router router = Router.router(vertx);
    router.get("/api/admin/forgotten").handler(ctx -> ctx.end());

    assertThatThrownBy(() -> guard.learnRoutes(router)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("/api/admin/forgotten");
  }

  @Test
  void aWildcardRouteDeclaredAdminOnlyStopsTheStartInsteadOfGuardingOnlyItsMountPoint() {
    Router router = Router.router(vertx);
    Router feature = Router.router(vertx);
    AccessGuard.adminOnly(feature.get("/jobs/*")).handler(ctx -> ctx.end());
    router.route("/api/things*").subRouter(feature);

    assertThatThrownBy(() -> guard.learnRoutes(router)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("/api/things/jobs/*");
  }

  @Test
  void aRouteThatChangesStateOrIsAdminOnlyCannotBeDeclaredAppReadable() {
    Router changing = Router.router(vertx);
    AccessGuard.appReadable(changing.put("/api/progress/:series")).handler(ctx -> ctx.end());
    Router admin = Router.router(vertx);
    AccessGuard.appReadable(AccessGuard.adminOnly(admin.get("/api/admin/users"))).handler(ctx -> ctx.end());
    Router everyMethod = Router.router(vertx);
    AccessGuard.appReadable(everyMethod.route("/opds/anything")).handler(ctx -> ctx.end());

    for (Router router : java.util.List.of(changing, admin, everyMethod)) {
      assertThatThrownBy(() -> guard.learnRoutes(router)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("app-readable");
    }
  }

  @Test
  void aRouteInTheAdminAreaInsideAFeatureSubRouterThatIsNotDeclaredAdminOnlyStopsTheStart() {
    Router router = Router.router(vertx);
    Router feature = Router.router(vertx);
    AccessGuard.adminOnly(feature.get("/declared")).handler(ctx -> ctx.end());
    feature.put("/:id/forgotten").handler(ctx -> ctx.end());
    router.route("/api/admin/things*").subRouter(feature);

    assertThatThrownBy(() -> guard.learnRoutes(router)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("/api/admin/things/:id/forgotten");
  }

  @Test
  void routesInsideAFeatureSubRouterAreGuardedAsDeclaredWhateverTheirMountPoint() throws Exception {
    Router router = Router.router(vertx);
    ApiReplies.answerFailuresAsJson(router);
    router.route("/api/*").handler(guard);
    Router feature = Router.router(vertx);
    feature.get("/").handler(ctx -> ctx.end("list"));
    AccessGuard.adminOnly(feature.post("/:id/purge")).handler(ctx -> ctx.end("purged " + ctx.pathParam("id")));
    AccessGuard.publicRoute(feature.get("/:id/badge")).handler(ctx -> ctx.end("badge"));
    router.route("/api/things*").subRouter(feature);
    guard.learnRoutes(router);
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
    String reader = session("reader");

    assertThat(send("GET", "/api/things", "Cookie", reader).body()).isEqualTo("list");
    HttpResponse<String> refused = send("POST", "/api/things/7/purge", "Cookie", reader, "X-CSRF-Token", "csrf-reader");
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.body()).contains("\"error\":\"forbidden\"");
    assertThat(send("POST", "/api/things/7/purge", "Authorization", "Bearer " + TOKEN).body()).isEqualTo("purged 7");
    assertThat(send("GET", "/api/things/7/badge").body()).isEqualTo("badge");
    assertThat(send("GET", "/api/things").statusCode()).isEqualTo(401);
    assertThat(send("POST", "/api/things/7/badge").statusCode()).as("a public route opens only its own method")
        .isEqualTo(401);
  }

  @Test
  void plainPathsNeedNoMarkerRoutesWhileEveryDeclaredRouteStaysGuarded() throws Exception {
    Router router = Router.router(vertx);
    ApiReplies.answerFailuresAsJson(router);
    router.route("/api/*").handler(guard);
    Router admin = Router.router(vertx);
    for (int i = 0; i < 30; i++) {
      AccessGuard.adminOnly(admin.get("/thing" + i + "/:id")).handler(ctx -> ctx.end("thing " + ctx.pathParam("id")));
    }
    router.route("/api/admin*").subRouter(admin);
    Router series = Router.router(vertx);
    AccessGuard.appReadable(series.get("/:series/chapters/:chapter/pages/:page")).handler(ctx -> ctx.end("page"));
    router.route("/api/series*").subRouter(series);
    AccessGuard.publicRoute(router.post("/api/login")).handler(ctx -> ctx.end("login"));
    int before = router.getRoutes().size();

    guard.learnRoutes(router);

    // The guard matches plain paths itself: no marker route, so a page image does not run its route's pattern twice.
    assertThat(router.getRoutes().size() - before).isZero();
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
    String reader = session("reader");
    assertThat(send("GET", "/api/admin/thing29/4", "Cookie", reader).statusCode()).isEqualTo(403);
    assertThat(send("GET", "/api/admin/thing29/4", "Authorization", "Bearer " + TOKEN).body()).isEqualTo("thing 4");
    assertThat(send("GET", "/api/series/s/chapters/c/pages/1", "Cookie", reader).body()).isEqualTo("page");
    assertThat(send("GET", "/api/series/s/chapters/c/pages/1").statusCode()).isEqualTo(401);
    assertThat(send("POST", "/api/login").body()).isEqualTo("login");
  }

  @Test
  void aMarkerIsGroupedUnderItsLeadingTwoLiteralSegmentsOnlyWhenMoreFollows() {
    assertThat(RouteNeeds.markerPrefix("/api/admin/users/:username")).isEqualTo("/api/admin");
    assertThat(RouteNeeds.markerPrefix("/api/series/:series/cover")).isEqualTo("/api/series");
    assertThat(RouteNeeds.markerPrefix("/api/login")).isNull();
    assertThat(RouteNeeds.markerPrefix("/opds/:x/feed")).isNull();
    assertThat(RouteNeeds.markerPrefix("/api/*")).isNull();
  }
}
