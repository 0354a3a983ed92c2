package io.mangacircus.launcher.logging;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.mangacircus.launcher.testing.AdminApi;
import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.JarProcess;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar as README starts it (with {@code --demo} and an HTML source on WireMock): an operator's request carrying
 * control characters is refused naming the field and queues nothing, and a title a source sends with control
 * characters is logged escaped. The captured standard output never holds a raw ESC, NUL, C1 or bidi override, and no
 * forged line.
 */
@Tag("process")
class LogInjectionIT {

  private static final String TOKEN = "log-injection-token-0123";
  private static final String PAYLOAD = "a\u0000b\u001b[31mred\nINJECTED LOG LINE";
  private static final String TITLE_PATH = "/manga/1234/circus-of-ink";
  /** What the source calls its title: ESC, a C1 "next line" and a right-to-left override inside. */
  private static final String SOURCE_TITLE = "Circus\u001b[31mred\u0085of\u202eInk";

  /** One product for the class: each test only adds what the other never looks at, and reads the whole output. */
  @TempDir
  static Path work;

  private static final WireMockServer site = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private static JarProcess process;
  private static AdminApi admin;
  private static int port;

  @BeforeAll
  static void start() throws Exception {
    site.start();
    String titlePage = fixture("title-page-1.html").replace(">Circus of Ink</h1>", ">" + SOURCE_TITLE + "</h1>");
    assertThat(titlePage).contains(SOURCE_TITLE);
    site.stubFor(get(urlEqualTo(TITLE_PATH)).willReturn(aResponse().withStatus(200)
        .withHeader("Content-Type", "text/html; charset=utf-8").withBody(titlePage)));
    JsonObject conf = new JsonObject().put("scraper", new JsonObject().put("autoConfirm", false)
        .put("claimPollMs", 50).put("demo", new JsonObject().put("port", FreePorts.next()))
        .put("sources", new JsonObject().put("mangapill", new JsonObject().put("type", "html")
            .put("baseUrl", site.baseUrl())
            .put("options", new JsonObject().put("definition", "classpath:/sources/mangapill.json")))));
    Files.writeString(work.resolve("conf.json"), conf.encodePrettily());
    port = FreePorts.next();
    process = JarProcess.start(work, Map.of("MANGACIRCUS_ADMIN_TOKEN", TOKEN), "all", "--demo", "--conf=conf.json",
        "--data=" + work.resolve("data"), "--port=" + port, "--health-port=" + FreePorts.next());
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> HttpProbe.get(port, "/health/ready").status() == 200);
    admin = new AdminApi(port, TOKEN);
  }

  @AfterAll
  static void stop() {
    try {
      if (process != null) {
        process.close();
      }
    } finally {
      site.stop();
    }
  }

  /** A test that broke the shared product would fail the next one for another reason: say so first. */
  @BeforeEach
  void theSharedProductIsStillReady() {
    assertThat(HttpProbe.get(port, "/health/ready").status()).as("the shared product is still ready").isEqualTo(200);
  }

  private static String fixture(String name) throws IOException {
    try (InputStream in = LogInjectionIT.class.getResourceAsStream("/fixtures/mangapill/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static List<JsonObject> jobs() {
    return admin.get("/api/admin/jobs").json().getJsonArray("jobs").stream().map(JsonObject.class::cast).toList();
  }

  private static void assertNoRawControlCharactersOrForgedLines() {
    String output = process.output();
    assertThat(output).doesNotContain("\u0000", "\u001b", "\u0085", "\u202e");
    assertThat(output.lines()).noneMatch(line -> line.startsWith("INJECTED"));
  }

  @Test
  void operatorTextWithControlCharactersIsRefusedNamingTheFieldAndQueuesNothing() {
    JsonObject injection = new JsonObject().put("source", "demo").put("title", PAYLOAD);

    assertThat(new AdminApi(port, null).post("/api/admin/jobs", injection).status()).isEqualTo(401);
    Answer refused = admin.post("/api/admin/jobs", injection);
    assertThat(refused.status()).as(refused.body()).isEqualTo(400);
    assertThat(refused.json().getString("error")).isEqualTo("bad_request");
    assertThat(refused.json().getString("message")).isEqualTo("field 'title' contains a control character (U+0000)");

    Answer escapeOnly = admin.post("/api/admin/jobs", new JsonObject().put("source", "demo")
        .put("title", "circus-nights\u001b[2J"));
    assertThat(escapeOnly.status()).isEqualTo(400);
    assertThat(escapeOnly.json().getString("message")).contains("'title'", "U+001B");
    Answer bidiSource = admin.post("/api/admin/jobs", new JsonObject().put("source", "de\u202emo").put("title", "x"));
    assertThat(bidiSource.status()).isEqualTo(400);
    assertThat(bidiSource.json().getString("message")).contains("'source'", "U+202E");
    Answer bidiJobId = admin.post("/api/admin/jobs/j-1%E2%80%AE/confirm", null);
    assertThat(bidiJobId.status()).as(bidiJobId.body()).isEqualTo(400);
    assertThat(bidiJobId.json().getString("message")).contains("'jobId'", "U+202E");
    Answer collection = admin.put("/api/admin/catalog/collections/favourites", new JsonObject()
        .put("name", "Favourites\u001b[2J").put("series", new io.vertx.core.json.JsonArray()));
    assertThat(collection.status()).as(collection.body()).isEqualTo(400);
    assertThat(collection.json().getString("message")).contains("'name'", "U+001B");

    assertThat(jobs()).extracting(j -> j.getString("titleId")).noneMatch(id -> id.contains("INJECTED")
        || id.contains("\u001b")).contains("circus-nights");
    assertNoRawControlCharactersOrForgedLines();
  }

  @Test
  void aTitleWithControlCharactersFromASourceIsLoggedEscapedOnOneLine() {
    Answer added = admin.post("/api/admin/jobs", new JsonObject().put("source", "mangapill")
        .put("title", site.baseUrl() + TITLE_PATH));
    assertThat(added.status()).as(added.body()).isEqualTo(201);
    String id = added.json().getJsonObject("job").getString("id");

    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> jobs().stream().anyMatch(j -> j.getString("id").equals(id) && "ready".equals(j.getString("state"))));
    assertThat(jobs()).filteredOn(j -> j.getString("id").equals(id)).singleElement()
        .satisfies(j -> assertThat(j.getString("title")).as("the API keeps the source's title").isEqualTo(SOURCE_TITLE));
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
        .until(() -> process.output().contains("inspected " + id));

    assertThat(process.output().lines().filter(line -> line.contains("inspected " + id)))
        .singleElement().asString().contains("(Circus\\u001b[31mred\\u0085of\\u202eInk): ");
    assertNoRawControlCharactersOrForgedLines();
  }
}
