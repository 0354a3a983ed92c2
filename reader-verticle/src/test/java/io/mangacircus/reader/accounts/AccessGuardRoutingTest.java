package io.mangacircus.reader.accounts;

import io.mangacircus.reader.store.ReaderStores;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the guard learns a request needs is what the declared routes that Vert.x routes it to need, on generated paths
 * with trailing and double slashes, encoded characters, dot segments and near misses, for plain paths (which the guard
 * matches itself) and others (marker routes) alike.
 */
class AccessGuardRoutingTest {

  private static final String[] SEGMENTS = {"api", "api", "series", "series", "admin", "users", "system", "info",
      "login", "opds", "v1.2", "catalog", "search.xml", "s1", "c1", "c1.cbz", ".cbz", "x.cbz", "c1.cbzz", "chapters",
      "chapters", "pages", "pages", "cover", "7", "status", "services", "jobs", "odd", "a-b", "-", "a%2Fb", "%2F",
      "%41pi", "%61pi", "..", ".", "", "%2E%2E", "%2e", "shutdown", "password", "read", "Series", "API", "a;b",
      "%20", "~", "seriesx"};
  private static final String[] TEMPLATES = {"/api/series/:s/chapters/:c/pages/:p", "/api/series/:s/cover",
      "/api/series/:s/chapters/:c.cbz", "/api/series/:s/chapters/:c", "/api/series", "/api/login",
      "/api/system/info", "/api/system/shutdown", "/api/admin/users", "/api/admin/users/:u/password",
      "/api/admin/status", "/api/admin/services/:s/start", "/api/admin/jobs/:j", "/api/admin/odd/:a-b",
      "/opds/v1.2/catalog", "/opds/v1.2/series/:s", "/opds/v1.2/search.xml", "/opds/v1.2/series/:s/chapters/:c.cbz"};
  private static final String[] ENDS = {"", "", "", "/", "//", "?page=1", "/?x=/api", "#f"};
  private static final HttpMethod[] METHODS = {HttpMethod.GET, HttpMethod.GET, HttpMethod.POST, HttpMethod.PUT,
      HttpMethod.HEAD, HttpMethod.DELETE};

  @TempDir
  Path dir;

  private Vertx vertx;
  private ReaderStores stores;
  private AccessGuard guard;
  private HttpServer server;
  private HttpClient client;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    stores = ReaderStores.openSqlite(dir.resolve("reader.db"));
    guard = new AccessGuard(vertx, stores.sessions(), stores.appPasswords(), "token", InstantSource.system());
    Router router = Router.router(vertx);
    // Mount points and route shapes as the reader declares them (ReaderVerticle and the feature routers).
    Router series = Router.router(vertx);
    series.get("/").handler(reached(0));
    declare(AccessGuard.appReadable(series.get("/:series/chapters/:chapter/pages/:page")), RouteNeeds.OPEN_TO_APPS);
    declare(AccessGuard.appReadable(series.get("/:series/cover")), RouteNeeds.OPEN_TO_APPS);
    declare(AccessGuard.appReadable(series.get("/:series/chapters/:chapter.cbz")), RouteNeeds.OPEN_TO_APPS);
    series.get("/:series/chapters/:chapter").handler(reached(0));
    series.put("/:series/chapters/:chapter/read").handler(reached(0));
    router.route("/api/series*").subRouter(series);
    Router accounts = Router.router(vertx);
    declare(AccessGuard.publicRoute(accounts.post("/login")), RouteNeeds.NEEDS_NOTHING);
    accounts.post("/logout").handler(reached(0));
    router.route("/api/*").subRouter(accounts);
    declare(AccessGuard.publicRoute(router.get("/api/system/info")), RouteNeeds.NEEDS_NOTHING);
    Router system = Router.router(vertx);
    declare(AccessGuard.adminOnly(system.post("/shutdown")), RouteNeeds.NEEDS_ADMIN);
    router.route("/api/system/*").subRouter(system);
    Router users = Router.router(vertx);
    declare(AccessGuard.adminOnly(users.get("/")), RouteNeeds.NEEDS_ADMIN);
    declare(AccessGuard.adminOnly(users.post("/")), RouteNeeds.NEEDS_ADMIN);
    declare(AccessGuard.adminOnly(users.put("/:username/password")), RouteNeeds.NEEDS_ADMIN);
    router.route("/api/admin/users*").subRouter(users);
    Router admin = Router.router(vertx);
    declare(AccessGuard.adminOnly(admin.get("/status")), RouteNeeds.NEEDS_ADMIN);
    declare(AccessGuard.adminOnly(admin.post("/services/:service/start")), RouteNeeds.NEEDS_ADMIN);
    declare(AccessGuard.adminOnly(admin.route("/jobs/:id")), RouteNeeds.NEEDS_ADMIN);
    // Not plain: two parameters in a segment. The guard keeps a marker route for it.
    declare(AccessGuard.adminOnly(admin.get("/odd/:a-:b")), RouteNeeds.NEEDS_ADMIN);
    router.route("/api/admin/*").subRouter(admin);
    Router opds = Router.router(vertx);
    declare(AccessGuard.appReadable(opds.get("/catalog")), RouteNeeds.OPEN_TO_APPS);
    declare(AccessGuard.appReadable(opds.get("/series/:series")), RouteNeeds.OPEN_TO_APPS);
    declare(AccessGuard.appReadable(opds.get("/search.xml")), RouteNeeds.OPEN_TO_APPS);
    declare(AccessGuard.appReadable(opds.get("/series/:series/chapters/:chapter.cbz")), RouteNeeds.OPEN_TO_APPS);
    router.route("/opds/v1.2*").subRouter(opds);
    router.route().handler(ctx -> ctx.response().putHeader("X-Verdict", ctx.get("verdict") + " " + ctx.get("reached"))
        .end());
    guard.learnRoutes(router);
    // After the markers (which come first), before every declared route: what the guard would decide from.
    router.route().order(-1).handler(ctx -> {
      ctx.put("verdict", guard.needs(ctx));
      ctx.put("reached", 0);
      ctx.next();
    });
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
    client = vertx.createHttpClient();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    stores.close();
  }

  private static io.vertx.core.Handler<io.vertx.ext.web.RoutingContext> reached(int needs) {
    return ctx -> {
      ctx.put("reached", (int) ctx.get("reached") | needs);
      ctx.next();
    };
  }

  private static void declare(Route route, int needs) {
    route.handler(reached(needs));
  }

  @Test
  void theGuardLearnsWhatARequestNeedsExactlyFromTheRoutesVertxRoutesItTo() throws Exception {
    Random random = new Random(20);
    List<String> requests = new ArrayList<>(List.of("/api/series/s1/chapters/c1/pages/7",
        "/api/series/s1/chapters/c1/pages/7/", "/api/series//s1/chapters/c1/pages/7",
        "/api/series/s1/chapters/c1/pages/7//", "/api/series/a%2Fb/chapters/c1/pages/7",
        "/api/series/s1/chapters/c1/../c1/pages/7", "/api/series/./s1/chapters/c1.cbz", "/api/series/s1/chapters/.cbz",
        "/api/%73eries/s1/cover", "/api/series/s1/cover/", "/api/seriesx/s1/cover", "/api/admin/users",
        "/api/admin/users/", "/api/admin/users//", "/api/admin/odd/a-b", "/api/admin/jobs/", "/api/admin/jobs",
        "/api/admin/jobs/7", "/api/admin/jobs/7/x", "/api/login/", "/api/system/info", "/opds/v1.2/search.xml",
        "/opds/v1.2/series/s1/chapters/c1.cbz/"));
    for (int i = 0; i < 1000; i++) {
      StringBuilder path = new StringBuilder();
      int segments = 1 + random.nextInt(7);
      for (int s = 0; s < segments; s++) {
        String segment = SEGMENTS[random.nextInt(SEGMENTS.length)];
        if (s == 0 && random.nextInt(5) > 0) {
          segment = random.nextBoolean() ? "api" : "opds";
        } else if (s == 1 && random.nextInt(3) > 0) {
          segment = new String[] {"series", "admin", "system", "v1.2", "login"}[random.nextInt(5)];
        }
        path.append('/').append(segment);
      }
      requests.add(path + ENDS[random.nextInt(ENDS.length)]);
    }
    // Paths of the declared routes with every parameter filled in from the same segments, some of them mutated.
    for (int i = 0; i < 2000; i++) {
      List<String> segments = new ArrayList<>(List.of(TEMPLATES[random.nextInt(TEMPLATES.length)].split("/", -1)));
      segments.remove(0);
      for (int s = 0; s < segments.size(); s++) {
        if (segments.get(s).startsWith(":")) {
          String filled = SEGMENTS[random.nextInt(SEGMENTS.length)];
          segments.set(s, segments.get(s).endsWith(".cbz") ? filled + ".cbz" : filled);
        }
      }
      int mutation = random.nextInt(8);
      int at = random.nextInt(segments.size());
      if (mutation == 0) {
        segments.add(at, SEGMENTS[random.nextInt(SEGMENTS.length)]);
      } else if (mutation == 1 && segments.size() > 1) {
        segments.remove(at);
      } else if (mutation == 2) {
        segments.set(at, SEGMENTS[random.nextInt(SEGMENTS.length)]);
      }
      requests.add("/" + String.join("/", segments) + ENDS[random.nextInt(ENDS.length)]);
    }
    int compared = 0;
    int flagged = 0;
    for (int i = 0; i < requests.size(); i++) {
      HttpMethod method = i < 23 || random.nextBoolean() ? HttpMethod.GET : METHODS[random.nextInt(METHODS.length)];
      String uri = requests.get(i);
      String verdict = client.request(method, server.actualPort(), "127.0.0.1", uri)
          .compose(request -> request.send()).map(response -> response.getHeader("X-Verdict"))
          .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      if (verdict == null) {
        continue; // refused before routing (a request line Vert.x does not accept)
      }
      String[] parts = verdict.split(" ");
      assertThat(parts[0]).as("what the guard learned for %s %s (what the routes reached need)", method, uri)
          .isEqualTo(parts[1]);
      compared++;
      if (!parts[0].equals("0")) {
        flagged++;
      }
    }
    assertThat(compared).isGreaterThan(2900);
    assertThat(flagged).as("requests that reached a declared route").isGreaterThan(500);
  }
}
