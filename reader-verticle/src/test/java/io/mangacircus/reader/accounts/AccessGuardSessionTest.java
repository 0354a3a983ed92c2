package io.mangacircus.reader.accounts;

import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.Session;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.testing.MutableClock;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import io.mangacircus.reader.store.StoreEngines;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The guard in front of {@code /api/*} on a real router, HTTP server and database (SQLite and PostgreSQL): sessions, their CSRF token
 * and how long a looked-up session is trusted, the admin token, and the 401/403 answers everyone else gets.
 */
@ExtendWith(VertxExtension.class)
@ParameterizedClass
@EnumSource(StoreEngines.Engine.class)
class AccessGuardSessionTest {

  @Parameter
  StoreEngines.Engine engine;

  private static final String ADMIN_TOKEN = "guard-test-admin-token-0";
  private static final String READER_TOKEN = "reader-session-token";
  private static final String ADMIN_SESSION = "admin-session-token";
  private static final String CSRF = "csrf-of-the-session";

  @TempDir
  Path work;

  private final MutableClock clock = new MutableClock();
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<String> served = new ArrayList<>();
  private ReaderStores stores;
  private AccessGuard guard;
  private volatile int port;

  @BeforeEach
  void start(Vertx vertx, VertxTestContext context) throws Exception {
    stores = StoreEngines.open(engine, work);
    long reader = stores.users().createUser("rita", "unused-hash", "reader", clock.instant());
    long admin = stores.users().createUser("ada", "unused-hash", "admin", clock.instant());
    Instant expires = clock.instant().plusSeconds(3600);
    stores.sessions().createSession(Sessions.hash(READER_TOKEN), reader, CSRF, clock.instant(), expires);
    stores.sessions().createSession(Sessions.hash(ADMIN_SESSION), admin, CSRF, clock.instant(), expires);
    guard = new AccessGuard(vertx, stores.sessions(), stores.appPasswords(), ADMIN_TOKEN, clock);
    serve(vertx, context, guard);
  }

  /** Serves {@code /api/*} behind the guard; the context completes once the port is known. */
  private void serve(Vertx vertx, VertxTestContext context, AccessGuard guard) {
    Router router = Router.router(vertx);
    router.route("/api/*").handler(BodyHandler.create());
    router.route("/api/*").handler(guard);
    io.vertx.core.Handler<io.vertx.ext.web.RoutingContext> serve = ctx -> {
      Session session = ctx.get(AccessGuard.SESSION);
      served.add(ctx.request().method() + " " + ctx.normalizedPath() + " as "
          + (session == null ? "token" : session.username()));
      ctx.json(new JsonObject().put("ok", true));
    };
    AccessGuard.publicRoute(router.post("/api/login")).handler(serve);
    AccessGuard.publicRoute(router.get("/api/system/info")).handler(serve);
    router.route("/api/system/info").handler(serve);
    router.get("/api/series").handler(serve);
    AccessGuard.appReadable(router.get("/api/pages")).handler(serve);
    router.post("/api/progress").handler(serve);
    AccessGuard.adminOnly(router.get("/api/admin/jobs")).handler(serve);
    AccessGuard.adminOnly(router.post("/api/system/shutdown")).handler(serve);
    guard.learnRoutes(router);
    vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
        .onComplete(context.succeeding(server -> {
          port = server.actualPort();
          context.completeNow();
        }));
  }

  @AfterEach
  void close() throws Exception {
    stores.close();
  }

  private HttpResponse<String> send(String method, String path, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).method(method, HttpRequest.BodyPublishers.ofString(
            method.equals("GET") ? "" : "{}"));
    if (!method.equals("GET")) {
      request.header("Content-Type", "application/json");
    }
    if (headers.length > 0) {
      request.headers(headers);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String cookie(String token) {
    return Sessions.COOKIE + "=" + token;
  }

  private static void assertDenied(HttpResponse<String> answer, int status, String error) {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
    assertThat(new JsonObject(answer.body()).getString("error")).isEqualTo(error);
  }

  @Test
  void withoutCredentialsAnApiRouteAnswers401WithABearerChallengeAndIsNeverServed() throws Exception {
    HttpResponse<String> answer = send("GET", "/api/series");

    assertDenied(answer, 401, "unauthorized");
    assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"mangacircus\"");
    assertThat(served).isEmpty();
  }

  @Test
  void loginAndReadingSystemInfoNeedNoSessionButChangingSystemInfoDoes() throws Exception {
    assertThat(send("POST", "/api/login").statusCode()).isEqualTo(200);
    assertThat(send("GET", "/api/system/info").statusCode()).isEqualTo(200);
    assertDenied(send("POST", "/api/system/info"), 401, "unauthorized");
  }

  @Test
  void aLiveSessionReadsAndChangesOnlyWithItsCsrfToken() throws Exception {
    assertThat(send("GET", "/api/series", "Cookie", cookie(READER_TOKEN)).statusCode()).isEqualTo(200);
    assertDenied(send("POST", "/api/progress", "Cookie", cookie(READER_TOKEN)), 403, "csrf");
    assertDenied(send("POST", "/api/progress", "Cookie", cookie(READER_TOKEN), Sessions.CSRF_HEADER, "guess"), 403,
        "csrf");
    assertThat(send("POST", "/api/progress", "Cookie", cookie(READER_TOKEN), Sessions.CSRF_HEADER, CSRF)
        .statusCode()).isEqualTo(200);

    assertThat(served).containsExactly("GET /api/series as rita", "POST /api/progress as rita");
  }

  @Test
  void anUnknownSessionIsToldToLogInAgain() throws Exception {
    HttpResponse<String> answer = send("GET", "/api/series", "Cookie", cookie("no-such-session"));

    assertDenied(answer, 401, "unauthorized");
    assertThat(new JsonObject(answer.body()).getString("message")).contains("log in again");
  }

  @Test
  void aReaderAccountCannotReachAdminRoutesButAnAdminAccountCan() throws Exception {
    assertDenied(send("GET", "/api/admin/jobs", "Cookie", cookie(READER_TOKEN)), 403, "forbidden");
    assertDenied(send("POST", "/api/system/shutdown", "Cookie", cookie(READER_TOKEN), Sessions.CSRF_HEADER, CSRF),
        403, "forbidden");

    assertThat(send("GET", "/api/admin/jobs", "Cookie", cookie(ADMIN_SESSION)).statusCode()).isEqualTo(200);
  }

  @Test
  void theAdminTokenOpensAdminRoutesAndShutdownButNotReaderRoutes() throws Exception {
    String bearer = "Bearer " + ADMIN_TOKEN;

    assertThat(send("GET", "/api/admin/jobs", "Authorization", bearer).statusCode()).isEqualTo(200);
    assertThat(send("POST", "/api/system/shutdown", "Authorization", bearer).statusCode()).isEqualTo(200);
    assertDenied(send("GET", "/api/series", "Authorization", bearer), 401, "unauthorized");
    assertDenied(send("GET", "/api/admin/jobs", "Authorization", "Bearer " + ADMIN_TOKEN + "x"), 401,
        "unauthorized");
    assertThat(served).containsExactly("GET /api/admin/jobs as token", "POST /api/system/shutdown as token");
  }

  @Test
  void anEmptyAdminTokenOpensNothing(Vertx vertx, VertxTestContext context) throws Throwable {
    AccessGuard noToken = new AccessGuard(vertx, stores.sessions(), stores.appPasswords(), "", clock);
    serve(vertx, context, noToken);
    assertThat(context.awaitCompletion(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

    assertDenied(send("GET", "/api/admin/jobs", "Authorization", "Bearer "), 401, "unauthorized");
    assertDenied(send("GET", "/api/admin/jobs", "Authorization", "Bearer"), 401, "unauthorized");
  }

  @Test
  void aLoggedOutSessionIsRefusedAtOnceWhenForgottenAndOtherwiseWithinTheRememberSpan() throws Exception {
    assertThat(send("GET", "/api/series", "Cookie", cookie(READER_TOKEN)).statusCode()).isEqualTo(200);
    assertThat(send("GET", "/api/series", "Cookie", cookie(ADMIN_SESSION)).statusCode()).isEqualTo(200);

    // Logged out through the account routes: the guard is told and forgets at once.
    stores.sessions().deleteSession(Sessions.hash(READER_TOKEN));
    guard.forget(Sessions.hash(READER_TOKEN));
    assertDenied(send("GET", "/api/series", "Cookie", cookie(READER_TOKEN)), 401, "unauthorized");

    // Ended behind the guard's back: trusted from memory for the remember span, no longer.
    stores.sessions().deleteSession(Sessions.hash(ADMIN_SESSION));
    assertThat(send("GET", "/api/series", "Cookie", cookie(ADMIN_SESSION)).statusCode()).isEqualTo(200);
    clock.advance(AccessGuard.REMEMBER);
    assertDenied(send("GET", "/api/series", "Cookie", cookie(ADMIN_SESSION)), 401, "unauthorized");
  }

  @Test
  void aSessionIsLookedUpOnceForManyRequestsOnOneConnectionAndStillCheckedForCsrfAndRole() throws Exception {
    long before = guard.lookups();
    for (int i = 0; i < 10; i++) {
      assertThat(send("GET", "/api/series", "Cookie", cookie(READER_TOKEN)).statusCode()).isEqualTo(200);
    }
    // One look-up on the client's connection (a second only if the client happened to open another connection).
    assertThat(guard.lookups() - before).isLessThanOrEqualTo(2);

    assertDenied(send("POST", "/api/progress", "Cookie", cookie(READER_TOKEN)), 403, "csrf");
    assertDenied(send("GET", "/api/admin/jobs", "Cookie", cookie(READER_TOKEN)), 403, "forbidden");
    assertThat(send("POST", "/api/progress", "Cookie", cookie(READER_TOKEN), Sessions.CSRF_HEADER, CSRF).statusCode())
        .isEqualTo(200);
    assertDenied(send("GET", "/api/series", "Cookie", cookie("someone-else")), 401, "unauthorized");
  }

  @Test
  void aSessionRememberedOnItsConnectionIsRefusedTheMomentItExpires() throws Exception {
    long rita = stores.users().user("rita").orElseThrow().id();
    stores.sessions().createSession(Sessions.hash("short-lived"), rita, CSRF, clock.instant(),
        clock.instant().plusSeconds(2));
    assertThat(send("GET", "/api/series", "Cookie", cookie("short-lived")).statusCode()).isEqualTo(200);
    assertThat(send("GET", "/api/series", "Cookie", cookie("short-lived")).statusCode()).isEqualTo(200);

    clock.advance(Duration.ofSeconds(2));

    assertDenied(send("GET", "/api/series", "Cookie", cookie("short-lived")), 401, "unauthorized");
  }

  @Test
  void anAccountChangeEndsWhatAConnectionRememberedAtOnce() throws Exception {
    assertThat(send("GET", "/api/series", "Cookie", cookie(READER_TOKEN)).statusCode()).isEqualTo(200);
    assertThat(send("GET", "/api/series", "Cookie", cookie(READER_TOKEN)).statusCode()).isEqualTo(200);

    // An account disabled or its password changed: its sessions are deleted and the guard forgets everything.
    stores.sessions().deleteSession(Sessions.hash(READER_TOKEN));
    guard.forgetAll();

    assertDenied(send("GET", "/api/series", "Cookie", cookie(READER_TOKEN)), 401, "unauthorized");
  }

  @Test
  void anAppPasswordRememberedOnItsConnectionIsRefusedTheMomentItIsRevoked() throws Exception {
    long rita = stores.users().user("rita").orElseThrow().id();
    AppPasswords.Created created = guard.appPasswords()
        .create(rita, "KOReader", io.mangacircus.reader.store.AppScope.READ).orElseThrow();
    String basic = "Basic " + java.util.Base64.getEncoder().encodeToString(("rita:" + created.secret())
        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(send("GET", "/api/pages", "Authorization", basic).statusCode()).isEqualTo(200);
    assertThat(send("GET", "/api/pages", "Authorization", basic).statusCode()).isEqualTo(200);

    assertThat(guard.appPasswords().revoke(rita, created.id())).isTrue();

    assertDenied(send("GET", "/api/pages", "Authorization", basic), 401, "unauthorized");
  }
}
