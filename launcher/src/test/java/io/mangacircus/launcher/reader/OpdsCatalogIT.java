package io.mangacircus.launcher.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.launcher.testing.OpdsSchema;
import io.mangacircus.launcher.testing.ReaderSession;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The OPDS catalog walked as a reading app walks it, on the real service with an app password over HTTP Basic: root →
 * All series → a series → a chapter's pages and its CBZ; every feed visited is validated against the OPDS 1.2 RELAX NG
 * schema (Atom's underneath) with jing, and a feed that fails validation fails the test.
 */
class OpdsCatalogIT {

  private static final String ADMIN_PASSWORD = "opds-admin-password";
  private static final String ATOM = "http://www.w3.org/2005/Atom";
  private static final String PSE = "http://vaemendis.net/opds-pse/ns";
  private static final String STREAM = "http://vaemendis.net/opds-pse/stream";
  private static final Instant PUBLISHED = Instant.parse("2026-11-20T10:00:00Z");

  @TempDir
  Path data;

  @TempDir
  Path schemaFolder;

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private LauncherHarness harness;
  private OpdsSchema schema;
  private String user;
  private String secret;
  private int validated;

  private void start(boolean trustProxy) {
    LibraryFixture library = new LibraryFixture(data);
    library.chapter("moon-circus", "Moon Circus", 1, 5, PUBLISHED);
    library.chapter("moon-circus", "Moon Circus", 2, 4, PUBLISHED.plusSeconds(60));
    library.chapter("moon-circus", "Moon Circus", 10, 3, PUBLISHED.plusSeconds(120));
    // Enough series for a second page of "All series".
    for (int i = 1; i <= 55; i++) {
      library.chapter(String.format("filler-%02d", i), String.format("Filler %02d", i), 1, 1, PUBLISHED);
    }
    schema = OpdsSchema.load(schemaFolder);
    harness = new LauncherHarness(data, new JsonObject().put("reader", new JsonObject()
        .put("initialAdminPassword", ADMIN_PASSWORD).put("trustProxy", trustProxy ? new io.vertx.core.json.JsonArray().add("127.0.0.1")
            : new io.vertx.core.json.JsonArray())).encode())
        .startStandard(Mode.ALL);
    ReaderSession admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    assertThat(admin.post("/api/admin/users", new JsonObject().put("username", "kim").put("password",
        "kim-reads-on-a-tablet").put("role", "reader")).statusCode()).isEqualTo(201);
    assertThat(admin.put("/api/admin/catalog/collections/favourites", new JsonObject().put("name", "Favourites")
        .put("series", new JsonArray().add("moon-circus"))).statusCode()).isEqualTo(200);
    ReaderSession kim = ReaderSession.login(harness.port(), "kim", "kim-reads-on-a-tablet");
    HttpResponse<String> created = kim.post("/api/me/app-passwords", new JsonObject().put("name", "Panels"));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    user = "kim";
    secret = new JsonObject(created.body()).getString("password");
  }

  @AfterEach
  void stop() {
    if (harness != null) {
      harness.close();
    }
  }

  @Test
  void aReadingAppWalksTheCatalogStreamsPagesAndDownloadsTheChapterWithAnAppPassword() throws Exception {
    start(false);

    Document root = feed("/opds/v1.2/catalog", "/evil");
    assertThat(root.getDocumentElement().getAttribute("xmlns:pse")).isEqualTo(PSE);
    assertThat(link(root.getDocumentElement(), "search").getAttribute("type"))
        .isEqualTo("application/opensearchdescription+xml");
    Element allSeriesEntry = entry(root, "All series");
    String allSeries = link(allSeriesEntry, "subsection").getAttribute("href");
    assertThat(allSeries).as("X-Forwarded-Prefix is ignored unless the proxy is trusted")
        .isEqualTo("/opds/v1.2/series");
    assertThat(entry(root, "Keep reading")).isNotNull();
    assertThat(entry(root, "Recently added")).isNotNull();

    Document firstPage = feed(allSeries, null);
    assertThat(entries(firstPage)).hasSize(50);
    String next = link(firstPage.getDocumentElement(), "next").getAttribute("href");
    Document secondPage = feed(next, null);
    assertThat(entries(secondPage)).hasSize(6);
    assertThat(linkIfAny(secondPage.getDocumentElement(), "next")).isEmpty();
    assertThat(link(secondPage.getDocumentElement(), "previous").getAttribute("href"))
        .isEqualTo("/opds/v1.2/series?page=1");
    Element moonEntry = entry(secondPage, "Moon Circus");
    assertThat(link(moonEntry, "http://opds-spec.org/image/thumbnail").getAttribute("href"))
        .isEqualTo("/opds/v1.2/series/moon-circus/cover");

    Document series = feed(link(moonEntry, "subsection").getAttribute("href"), null);
    List<Element> chapters = entries(series);
    assertThat(chapters).extracting(e -> text(e, "title"))
        .as("reading order, newest last").containsExactly("Chapter 1: Chapter 1", "Chapter 2: Chapter 2",
            "Chapter 10: Chapter 10");
    Element stream = link(chapters.get(0), STREAM);
    assertThat(stream.getAttributeNS(PSE, "count")).isEqualTo("5");
    assertThat(stream.getAttributeNS(PSE, "lastRead")).as("nothing read yet").isEmpty();

    // Page streaming: pages 0..4 of chapter 1, byte for byte the library's files.
    Path chapterFolder = data.resolve("library/moon-circus/chapter-0001");
    for (int page = 0; page < 5; page++) {
      HttpResponse<byte[]> image = bytes(stream.getAttribute("href").replace("{pageNumber}", String.valueOf(page)));
      assertThat(image.statusCode()).isEqualTo(200);
      assertThat(image.body()).as("page " + page)
          .isEqualTo(Files.readAllBytes(chapterFolder.resolve(String.format("%03d.png", page + 1))));
    }
    // Two pages into chapter 2.
    Element stream2 = link(chapters.get(1), STREAM);
    for (int page = 0; page < 2; page++) {
      assertThat(bytes(stream2.getAttribute("href").replace("{pageNumber}", String.valueOf(page))).statusCode())
          .isEqualTo(200);
    }

    List<Element> after = entries(feed(link(moonEntry, "subsection").getAttribute("href"), null));
    assertThat(link(after.get(0), STREAM).getAttributeNS(PSE, "lastRead")).as("chapter 1 read to its end")
        .isEqualTo("5");
    Element reading = link(after.get(1), STREAM);
    assertThat(reading.getAttributeNS(PSE, "lastRead")).isEqualTo("2");
    assertThat(reading.getAttributeNS(PSE, "lastReadDate")).isNotEmpty();
    // The browser sees the same: chapter 1 read, chapter 2 on page 2.
    ReaderSession browser = ReaderSession.login(harness.port(), "kim", "kim-reads-on-a-tablet");
    JsonArray states = new JsonObject(browser.get("/api/series/moon-circus").body()).getJsonArray("chapters");
    assertThat(states.getJsonObject(0).getString("state")).isEqualTo("read");
    assertThat(states.getJsonObject(1).getString("state")).isEqualTo("reading");
    assertThat(states.getJsonObject(1).getInteger("page")).isEqualTo(2);
    // ... and what the browser reads shows in the app.
    assertThat(browser.put("/api/progress/moon-circus", new JsonObject().put("chapter", "chapter-0010")
        .put("page", 1)).statusCode()).isEqualTo(200);
    List<Element> third = entries(feed("/opds/v1.2/series/moon-circus", null));
    assertThat(link(third.get(2), STREAM).getAttributeNS(PSE, "lastRead")).isEqualTo("1");
    Document keepReading = feed(link(entry(root, "Keep reading"), "subsection").getAttribute("href"), null);
    assertThat(entries(keepReading)).extracting(e -> text(e, "title"))
        .containsExactly("Moon Circus – Chapter 10: Chapter 10");

    // The CBZ, from the acquisition link.
    String cbz = link(chapters.get(1), "http://opds-spec.org/acquisition").getAttribute("href");
    HttpResponse<byte[]> archive = bytes(cbz);
    assertThat(archive.statusCode()).isEqualTo(200);
    assertThat(archive.headers().firstValueAsLong("Content-Length")).hasValue(archive.body().length);
    List<String> names = new ArrayList<>();
    Path chapter2 = data.resolve("library/moon-circus/chapter-0002");
    try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(archive.body()))) {
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        names.add(entry.getName());
        byte[] bytes = zip.readAllBytes();
        if (!entry.getName().equals("ComicInfo.xml")) {
          assertThat(bytes).as(entry.getName()).isEqualTo(Files.readAllBytes(chapter2.resolve(entry.getName())));
        } else {
          assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("<Series>Moon Circus</Series>");
        }
      }
    }
    assertThat(names).containsExactly("001.png", "002.png", "003.png", "004.png", "ComicInfo.xml");
    int cut = archive.body().length / 2;
    HttpResponse<byte[]> resumed = send(get(cbz).header("Range", "bytes=" + cut + "-"));
    assertThat(resumed.statusCode()).isEqualTo(206);
    assertThat(resumed.body()).isEqualTo(Arrays.copyOfRange(archive.body(), cut, archive.body().length));

    // Search through the OpenSearch description's template; recent; collections.
    HttpResponse<byte[]> description = bytes(link(root.getDocumentElement(), "search").getAttribute("href"));
    String template = new String(description.body(), StandardCharsets.UTF_8)
        .replaceAll("(?s).*template=\"([^\"]+)\".*", "$1");
    Document found = feed(template.replace("{searchTerms}", "moon"), null);
    assertThat(entries(found)).extracting(e -> text(e, "title")).containsExactly("Moon Circus");
    assertThat(entries(feed("/opds/v1.2/recent", null))).hasSize(50);
    Document collections = feed(link(entry(root, "Collections"), "subsection").getAttribute("href"), null);
    Document favourites = feed(link(entry(collections, "Favourites"), "subsection").getAttribute("href"), null);
    assertThat(entries(favourites)).extracting(e -> text(e, "title")).containsExactly("Moon Circus");
    assertThat(validated).as("feeds validated against the OPDS schema").isGreaterThanOrEqualTo(11);
  }

  @Test
  void behindATrustedProxyTheLinksCarryItsSubPath() throws Exception {
    start(true);

    Document root = feed("/opds/v1.2/catalog", "/manga");

    assertThat(link(entry(root, "All series"), "subsection").getAttribute("href"))
        .isEqualTo("/manga/opds/v1.2/series");
    assertThat(link(root.getDocumentElement(), "self").getAttribute("href")).isEqualTo("/manga/opds/v1.2/catalog");
    Document series = feed("/opds/v1.2/series/moon-circus", "/manga/");
    assertThat(link(entries(series).get(0), STREAM).getAttribute("href"))
        .isEqualTo("/manga/opds/v1.2/series/moon-circus/chapters/chapter-0001/pages/{pageNumber}");
    assertThat(link(feed("/opds/v1.2/catalog", "/../etc").getDocumentElement(), "self").getAttribute("href"))
        .as("a prefix that is not a plain path is ignored").isEqualTo("/opds/v1.2/catalog");
  }

  @Test
  void theValidatorRejectsAFeedThatBreaksTheSchemaAndTraversalOnThePageRouteIsRefused() throws Exception {
    start(false);
    String valid = text("/opds/v1.2/catalog");
    assertThat(schema.errors(valid)).isEmpty();

    assertThat(schema.errors(valid.replaceFirst("<id>[^<]*</id>", ""))).as("a feed without its id").isNotEmpty();
    assertThat(schema.errors(valid.replaceFirst("<updated>[^<]*</updated>", "<updated>yesterday</updated>")))
        .isNotEmpty();

    for (String path : List.of("/opds/v1.2/series/moon-circus/chapters/..%2F..%2Fchapter-0001/pages/0",
        "/opds/v1.2/series/..%2F..%2Fetc/chapters/chapter-0001/pages/0",
        "/opds/v1.2/series/moon-circus/chapters/chapter-0001/pages/-1",
        "/opds/v1.2/series/moon-circus/chapters/chapter-0001/pages/..%2F..%2Fchapter.json",
        "/opds/v1.2/series/moon-circus/chapters/chapter-0001/pages/5")) {
      assertThat(send(get(path)).statusCode()).as(path).isIn(400, 404);
    }
    // Dot segments are removed before routing: this is no longer the page route, and nothing is served.
    HttpResponse<byte[]> dots = send(get("/opds/v1.2/series/moon-circus/chapters/%2e%2e/pages/0"));
    assertThat(dots.statusCode()).isIn(400, 401, 404);
    assertThat(new String(dots.body(), StandardCharsets.UTF_8)).startsWith("{\"error\"");
  }

  private Document feed(String path, String forwardedPrefix) throws Exception {
    HttpRequest.Builder request = get(path);
    if (forwardedPrefix != null) {
      request.header("X-Forwarded-Prefix", forwardedPrefix);
    }
    HttpResponse<byte[]> answer = send(request);
    assertThat(answer.statusCode()).as(path).isEqualTo(200);
    assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
        .startsWith("application/atom+xml;profile=opds-catalog"));
    String xml = new String(answer.body(), StandardCharsets.UTF_8);
    assertThat(schema.errors(xml)).as(path + " against the OPDS 1.2 schema:\n" + xml).isEmpty();
    validated++;
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    return factory.newDocumentBuilder().parse(new ByteArrayInputStream(answer.body()));
  }

  private String text(String path) throws Exception {
    return new String(send(get(path)).body(), StandardCharsets.UTF_8);
  }

  private HttpResponse<byte[]> bytes(String path) throws Exception {
    return send(get(path));
  }

  private HttpRequest.Builder get(String path) {
    return HttpRequest.newBuilder(URI.create(harness.url(path))).timeout(Duration.ofSeconds(20))
        .header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user + ":" + secret)
            .getBytes(StandardCharsets.UTF_8)));
  }

  private HttpResponse<byte[]> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static List<Element> entries(Document feed) {
    NodeList list = feed.getDocumentElement().getElementsByTagNameNS(ATOM, "entry");
    List<Element> entries = new ArrayList<>();
    for (int i = 0; i < list.getLength(); i++) {
      entries.add((Element) list.item(i));
    }
    return entries;
  }

  private static Element entry(Document feed, String title) {
    return entries(feed).stream().filter(e -> title.equals(text(e, "title"))).findFirst()
        .orElseThrow(() -> new AssertionError("no entry '" + title + "'"));
  }

  private static String text(Element parent, String name) {
    NodeList list = parent.getElementsByTagNameNS(ATOM, name);
    return list.getLength() == 0 ? null : list.item(0).getTextContent();
  }

  private static Element link(Element parent, String rel) {
    return linkIfAny(parent, rel).orElseThrow(() -> new AssertionError("no link rel=" + rel));
  }

  /** A link that is a direct child of {@code parent} (a feed's own links, not its entries'). */
  private static Optional<Element> linkIfAny(Element parent, String rel) {
    NodeList children = parent.getChildNodes();
    for (int i = 0; i < children.getLength(); i++) {
      if (children.item(i) instanceof Element e && ATOM.equals(e.getNamespaceURI()) && "link".equals(e.getLocalName())
          && rel.equals(e.getAttribute("rel"))) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }
}
