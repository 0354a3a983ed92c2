package io.mangacircus.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.reader.http.HttpMount;
import io.mangacircus.reader.http.RouteTable;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader's API as a client sees it, against the real verticle: every route {@code docs/api.md} lists answers there
 * (its feature is mounted where the docs say), the reader serves no route the docs leave out and names every path
 * parameter as the docs do, and each route asks for the access its kind needs.
 */
@ExtendWith(VertxExtension.class)
class ReaderRoutesTest {

  private static final String ADMIN_PASSWORD = "routes-test-admin-password";
  private static final String ADMIN_TOKEN = "routes-test-admin-token-";

  /** A route as the docs write it: {@code `PUT /api/progress/{series}`}, a query left out; the OPDS catalog too. */
  private static final Pattern DOCUMENTED = Pattern.compile("`(GET|POST|PUT|DELETE) (/(?:api|opds)/[^`?\\s]*)");

  /** A harmless value for every path parameter. */
  private static final Map<String, String> SAMPLES = Map.ofEntries(Map.entry("series", "s-1"),
      Map.entry("chapter", "c-1"), Map.entry("page", "1"), Map.entry("id", "col-1"), Map.entry("username", "nobody"),
      Map.entry("service", "scraper"), Map.entry("jobId", "job-1"), Map.entry("source", "demo"),
      Map.entry("titleId", "t-1"), Map.entry("coverId", "cov-1"));

  /** Open without a session. */
  private static final Set<String> PUBLIC = Set.of("POST /api/login", "GET /api/login/options", "GET /api/system/info",
      // A tracker sends the browser back without the session cookie (SameSite=Strict); its state names the user.
      "GET /api/trackers/:tracker/callback");

  /** Admin routes outside {@code /api/admin/}. */
  private static final Set<String> ADMIN_ELSEWHERE = Set.of("POST /api/system/shutdown");

  @TempDir
  Path data;

  private final HttpClient http = HttpClient.newHttpClient();
  private final AtomicReference<Router> served = new AtomicReference<>();
  private int port;

  @BeforeEach
  void start(Vertx vertx, VertxTestContext context) throws Exception {
    Files.createDirectories(data.resolve("library"));
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
    // Stands in for this process's launcher: a shutdown over HTTP is asked of it once answered.
    vertx.eventBus().consumer(Addresses.LAUNCHER_PROCESS_SHUTDOWN, message -> message.reply(new JsonObject()));
    vertx.createHttpServer().requestHandler(request -> served.get().handle(request)).listen(0, "127.0.0.1")
        .compose(server -> {
          port = server.actualPort();
          return vertx.deployVerticle(new ReaderVerticle(new ReaderConfig(ADMIN_TOKEN, 2_000, ADMIN_PASSWORD, 1, java.util.List.of()),
              mount, data));
        })
        .onComplete(context.succeedingThenComplete());
    assertThat(context.awaitCompletion(30, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void everyRouteInTheApiDocsAnswersThroughTheReader() throws Exception {
    Session admin = login("admin", ADMIN_PASSWORD);

    for (String route : logoutLast(documented())) {
      HttpResponse<String> answer = send(route, admin.headers());

      assertThat(unknownApi(answer)).as(route + " answered " + answer.statusCode() + " " + answer.body()).isFalse();
      assertThat(answer.statusCode()).as(route + " as an admin: " + answer.body()).isNotIn(401, 403);
    }
  }

  @Test
  void theReaderServesExactlyTheRoutesInTheApiDocsWithTheirParameterNames() throws Exception {
    Set<String> servedRoutes = servedRoutes();

    assertThat(servedRoutes).as("served but not in docs/api.md").isSubsetOf(documented());
    assertThat(documented()).as("in docs/api.md but not served under that path").isSubsetOf(servedRoutes);
  }

  @Test
  void eachRouteAsksForTheAccessItsKindNeeds() throws Exception {
    Session admin = login("admin", ADMIN_PASSWORD);
    HttpResponse<String> created = send("POST /api/admin/users", admin.headers(),
        "{\"username\": \"rita\", \"password\": \"a-long-reader-password\", \"role\": \"reader\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    Session reader = login("rita", "a-long-reader-password");

    for (String route : logoutLast(servedRoutes())) {
      HttpResponse<String> anonymous = send(route);
      HttpResponse<String> asReader = send(route, reader.headers());

      if (PUBLIC.contains(route)) {
        assertThat(anonymous.statusCode()).as(route + " without a session: " + anonymous.body()).isNotIn(401, 403);
      } else {
        assertThat(anonymous.statusCode()).as(route + " without a session: " + anonymous.body()).isEqualTo(401);
      }
      if (route.contains(" /api/admin/") || ADMIN_ELSEWHERE.contains(route)) {
        assertThat(asReader.statusCode()).as(route + " as a reader: " + asReader.body()).isEqualTo(403);
        assertThat(new JsonObject(asReader.body()).getString("error")).as(route).isEqualTo("forbidden");
        assertThat(send(route, "Authorization", "Bearer " + ADMIN_TOKEN).statusCode()).as(route + " with the token")
            .isNotIn(401, 403);
      } else {
        assertThat(asReader.statusCode()).as(route + " as a reader: " + asReader.body()).isNotIn(401, 403);
        assertThat(unknownApi(asReader)).as(route + " as a reader").isFalse();
      }
    }
  }

  /** Every {@code METHOD /api/...} the docs name, with {@code {name}} written as the route's {@code :name}. */
  private static Set<String> documented() throws Exception {
    Matcher matcher = DOCUMENTED.matcher(Files.readString(Path.of("..", "docs", "api.md")));
    Set<String> routes = new TreeSet<>();
    while (matcher.find()) {
      routes.add(matcher.group(1) + " " + matcher.group(2).replaceAll("\\{([A-Za-z]+)}", ":$1"));
    }
    assertThat(routes).as("routes found in docs/api.md").hasSizeGreaterThan(30);
    return routes;
  }

  /** Every {@code METHOD /api/...} and {@code /opds/...} route the reader serves, its feature sub-routers included. */
  private Set<String> servedRoutes() {
    Set<String> routes = new TreeSet<>();
    for (RouteTable.Entry entry : RouteTable.of(served.get())) {
      if (entry.path() != null && (entry.path().startsWith("/api/") || entry.path().startsWith("/opds/"))) {
        entry.methods().forEach(method -> routes.add(method.name() + " " + entry.path()));
      }
    }
    return routes;
  }

  /** Logging out ends the session the other requests use: it goes last. */
  private static List<String> logoutLast(Set<String> routes) {
    return routes.stream().sorted(Comparator.comparing((String route) -> route.equals("POST /api/logout")))
        .collect(Collectors.toList());
  }

  private static boolean unknownApi(HttpResponse<String> answer) {
    return answer.statusCode() == 404 && answer.body().contains("no API route");
  }

  private record Session(String cookie, String csrf) {
    String[] headers() {
      return new String[] {"Cookie", cookie, "X-CSRF-Token", csrf};
    }
  }

  private Session login(String username, String password) throws Exception {
    HttpResponse<String> answer = send("POST /api/login", new String[0],
        new JsonObject().put("username", username).put("password", password).encode());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    String cookie = answer.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
    return new Session(cookie, new JsonObject(answer.body()).getString("csrfToken"));
  }

  private HttpResponse<String> send(String route, String... headers) throws Exception {
    return send(route, headers, "{}");
  }

  /** Sends {@code METHOD /path/:param}, each parameter replaced by its sample; a JSON body but on GET. */
  private HttpResponse<String> send(String route, String[] headers, String body) throws Exception {
    String[] parts = route.split(" ", 2);
    String path = Pattern.compile(":([A-Za-z]+)").matcher(parts[1])
        .replaceAll(m -> SAMPLES.getOrDefault(m.group(1), "x"));
    boolean get = parts[0].equals("GET");
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10))
        .method(parts[0], get ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (!get) {
      request.header("Content-Type", "application/json");
    }
    if (headers.length > 0) {
      request.headers(headers);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
