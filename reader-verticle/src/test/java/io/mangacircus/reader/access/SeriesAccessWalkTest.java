package io.mangacircus.reader.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.reader.LibraryConfig;
import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.reader.ReaderUnderTest.Session;
import io.mangacircus.reader.http.RouteTable;
import io.mangacircus.reader.komga.KomgaIds;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader limited to library "shelfa" and ages 12 and under sees nothing of another library or of a 15+ or unrated
 * series through any route: every route of the reader's router (so a route added later is walked too) is asked, with
 * each hidden series, its chapter, its Komga book and page in place of the route's parameters, and with a session
 * and with an app password; no answer may name a hidden series. An unrestricted reader sees them all through the same
 * routes, so the walk would see a leak. A series of the other library is merged into the allowed one: the walk asks
 * the allowed series' routes too, and none may name the merged series or its chapters.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SeriesAccessWalkTest {

  private static final Pattern PARAMETER = Pattern.compile(":([A-Za-z0-9_]+)");

  @TempDir
  static Path dir;

  private ReaderUnderTest reader;
  private Session admin;
  private Session kid;
  private Session adult;
  private String kidApp;
  /** Series by title: id and first chapter id. */
  private final Map<String, String[]> series = new LinkedHashMap<>();
  private final List<String> hidden = List.of("Teen Saga", "Unrated Thing", "Other Shelf", "Downloads Secret",
      "Merged Away");
  /** Walked with the hidden ones: the series the restricted reader sees, which "Merged Away" is merged into. */
  private static final String SHOWN = "Kids Tale";

  @BeforeAll
  void start() throws Exception {
    Path a = Files.createDirectories(dir.resolve("shelf-a"));
    Path b = Files.createDirectories(dir.resolve("shelf-b"));
    for (String title : List.of("Kids Tale", "Teen Saga", "Unrated Thing")) {
      cbz(Files.createDirectories(a.resolve(title)).resolve("Vol 1.cbz"), title);
    }
    cbz(Files.createDirectories(b.resolve("Other Shelf")).resolve("Vol 1.cbz"), "Other Shelf");
    cbz(Files.createDirectories(b.resolve("Merged Away")).resolve("Vol 1.cbz"), "Merged Away");
    Path data = Files.createDirectories(dir.resolve("data"));
    new LibraryFixture(data).chapter("downloads-secret", "Downloads Secret", 1, 2, Instant.parse("2026-12-01T00:00:00Z"));
    reader = ReaderUnderTest.withCollections(data, List.of(
        new LibraryConfig("shelfa", "collection", a.toString(), 0, false),
        new LibraryConfig("shelfb", "collection", b.toString(), 0, false)));
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    await().atMost(Duration.ofSeconds(30)).until(() -> list(admin).size() == 6);
    for (Object s : list(admin)) {
      JsonObject entry = (JsonObject) s;
      JsonObject one = new JsonObject(reader.text(ReaderUnderTest.as(admin, reader.get("/api/series/"
          + entry.getString("id")))).body());
      series.put(entry.getString("title"), new String[] {entry.getString("id"),
          one.getJsonArray("chapters").getJsonObject(0).getString("id")});
    }
    rate("Kids Tale", "12");
    rate("Teen Saga", "15");
    rate("Other Shelf", "all");
    rate("Downloads Secret", "all");
    // Rated for all ages, so that only its library hides it from the restricted reader.
    rate("Merged Away", "all");
    ok(reader.text(ReaderUnderTest.as(admin, reader.request("PUT", "/api/admin/catalog/collections/mixed",
        new JsonObject().put("name", "Mixed").put("series", new JsonArray(series.values().stream().map(v -> v[0])
            .toList())).encode()))));
    ok(reader.text(ReaderUnderTest.as(admin, reader.request("POST", "/api/admin/series/"
        + series.get("Merged Away")[0] + "/merge", new JsonObject().put("into", series.get(SHOWN)[0]).encode()))));
    reader.createReader(admin, "kid", "kid-password-1234");
    reader.createReader(admin, "adult", "adult-password-1234");
    ok(reader.text(ReaderUnderTest.as(admin, reader.request("PUT", "/api/admin/users/kid/access",
        new JsonObject().put("libraries", new JsonArray().add("shelfa")).put("ageLimit", "12").encode()))));
    kid = reader.login("kid", "kid-password-1234");
    adult = reader.login("adult", "adult-password-1234");
    kidApp = reader.createAppPassword(kid, "phone").getString("password");
  }

  @AfterAll
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void aRestrictedReaderSeesNothingHiddenThroughAnyRouteWithASessionOrAnAppPassword() throws Exception {
    List<String> leaks = new ArrayList<>();
    int asked = 0;
    for (RouteTable.Entry route : RouteTable.of(reader.router())) {
      String path = route.path();
      if (path == null || path.contains("*") || !(path.startsWith("/api/") || path.startsWith("/opds")
          || path.startsWith("/komga/"))) {
        continue;
      }
      if (!route.methods().isEmpty() && !route.methods().contains(HttpMethod.GET)) {
        continue;
      }
      List<String> walked = new ArrayList<>(hidden);
      walked.add(SHOWN);
      for (String title : path.contains(":") ? walked : List.of("")) {
        String concrete = concrete(path, title.isEmpty() ? null : series.get(title));
        for (boolean app : new boolean[] {false, true}) {
          HttpResponse<String> answer = reader.text(app
              ? ReaderUnderTest.basic("kid", kidApp, reader.get(concrete))
              : ReaderUnderTest.as(kid, reader.get(concrete)));
          asked++;
          for (String name : hidden) {
            if (answer.body().contains(name) || answer.body().contains(series.get(name)[0])) {
              leaks.add((app ? "app " : "session ") + concrete + " -> " + answer.statusCode() + " names " + name);
            }
          }
          boolean namesSeries = path.contains(":series") || path.contains(":book");
          if (hidden.contains(title) && namesSeries && answer.statusCode() / 100 == 2) {
            leaks.add((app ? "app " : "session ") + concrete + " answered " + answer.statusCode() + " for hidden "
                + title);
          }
        }
      }
    }
    assertThat(leaks).isEmpty();
    assertThat(asked).isGreaterThan(100);
  }

  @Test
  void aHiddenSeriesBookIsNotServedUnderTheIdOfAVisibleSeries() throws Exception {
    String[] teen = series.get("Teen Saga");
    String[] kids = series.get("Kids Tale");
    // Opened by someone who may, so that it is at hand in memory.
    assertThat(reader.bytes(ReaderUnderTest.as(adult, reader.get("/api/series/" + teen[0] + "/chapters/" + teen[1]
        + "/pages/1"))).statusCode()).isEqualTo(200);
    for (String path : List.of("/api/series/" + kids[0] + "/chapters/" + teen[1] + "/pages/1",
        "/api/series/" + kids[0] + "/chapters/" + teen[1], "/api/series/" + kids[0] + "/chapters/" + teen[1] + ".cbz",
        "/komga/api/v1/books/" + KomgaIds.bookId(kids[0], teen[1]) + "/pages/1")) {
      assertThat(reader.bytes(ReaderUnderTest.as(kid, reader.get(path))).statusCode()).as(path).isEqualTo(404);
    }
  }

  @Test
  void aRestrictedReaderCannotFollowOrRecordProgressInAHiddenSeries() throws Exception {
    String[] teen = series.get("Teen Saga");
    assertThat(reader.text(ReaderUnderTest.as(kid, reader.request("PUT", "/api/me/alerts/series/" + teen[0], null)))
        .statusCode()).isEqualTo(404);
    assertThat(reader.text(ReaderUnderTest.as(kid, reader.request("PUT", "/api/progress/" + teen[0],
        new JsonObject().put("chapter", teen[1]).put("page", 1).encode()))).statusCode()).isEqualTo(404);
  }

  @Test
  void theSameRoutesShowEverythingToAnUnrestrictedReaderAndTheAllowedSeriesToTheRestrictedOne() throws Exception {
    assertThat(list(adult).stream().map(s -> ((JsonObject) s).getString("title")))
        .containsExactlyInAnyOrder("Kids Tale", "Teen Saga", "Unrated Thing", "Other Shelf", "Downloads Secret");
    assertThat(list(kid).stream().map(s -> ((JsonObject) s).getString("title"))).containsExactly("Kids Tale");
    // The merged series' chapter is in the allowed series for the unrestricted reader, not for the restricted one.
    String[] merged = series.get("Merged Away");
    assertThat(reader.text(ReaderUnderTest.as(adult, reader.get("/api/series/" + series.get(SHOWN)[0]))).body())
        .contains("\"series\":\"" + merged[0] + "\"");
    assertThat(reader.bytes(ReaderUnderTest.as(adult, reader.get("/api/series/" + merged[0] + "/chapters/"
        + merged[1] + "/pages/1"))).statusCode()).isEqualTo(200);
    String[] teen = series.get("Teen Saga");
    assertThat(reader.bytes(ReaderUnderTest.as(adult, reader.get("/api/series/" + teen[0] + "/chapters/" + teen[1]
        + "/pages/1"))).statusCode()).isEqualTo(200);
    String[] kids = series.get("Kids Tale");
    assertThat(reader.bytes(ReaderUnderTest.basic("kid", kidApp, reader.get("/komga/api/v1/books/"
        + KomgaIds.bookId(kids[0], kids[1]) + "/pages/1"))).statusCode()).isEqualTo(200);
    assertThat(reader.text(ReaderUnderTest.basic("kid", kidApp, reader.get("/opds/v1.2/series"))).body())
        .contains("Kids Tale");
    // The adult's unrestricted walk of one list route finds what the kid's does not.
    assertThat(reader.text(ReaderUnderTest.as(adult, reader.get("/komga/api/v1/series"))).body())
        .contains("Teen Saga", "Downloads Secret");
  }

  @Test
  void theKomgaApiListsTheLibrariesAnAccountSeesAndFiltersSeriesByThemAsMihonAsks() throws Exception {
    JsonArray all = new JsonArray(reader.text(ReaderUnderTest.as(adult, reader.get("/komga/api/v1/libraries"))).body());
    assertThat(all.stream().map(l -> ((JsonObject) l).getString("id"))).containsExactly("mangacircus", "shelfa",
        "shelfb");
    JsonArray kids = new JsonArray(reader.text(ReaderUnderTest.basic("kid", kidApp,
        reader.get("/komga/api/v1/libraries"))).body());
    assertThat(kids.stream().map(l -> ((JsonObject) l).getString("id"))).containsExactly("shelfa");

    JsonObject shelves = new JsonObject(reader.text(ReaderUnderTest.as(adult,
        reader.get("/komga/api/v1/series?library_id=shelfa,shelfb&page=0"))).body());
    assertThat(shelves.getJsonArray("content").stream().map(s -> ((JsonObject) s).getString("name")))
        .containsExactly("Kids Tale", "Other Shelf", "Teen Saga", "Unrated Thing");
    assertThat(shelves.getJsonArray("content").stream().map(s -> ((JsonObject) s).getString("libraryId")))
        .containsExactly("shelfa", "shelfb", "shelfa", "shelfa");
    assertThat(shelves.getJsonArray("content").stream().map(s -> ((JsonObject) s).getJsonObject("metadata")
        .getInteger("ageRating"))).as("Komga's ageRating: the minimum age of the effective rating")
        .containsExactly(12, 0, 15, null);
    JsonObject downloads = new JsonObject(reader.text(ReaderUnderTest.as(adult,
        reader.get("/komga/api/v1/series?library_id=mangacircus"))).body());
    assertThat(downloads.getJsonArray("content").stream().map(s -> ((JsonObject) s).getString("name")))
        .containsExactly("Downloads Secret");
  }

  /** The route's path with its parameters filled for one series ({@code ids}: id and first chapter; null: none). */
  private String concrete(String path, String[] ids) {
    Matcher m = PARAMETER.matcher(path);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = switch (m.group(1)) {
        case "series" -> ids == null ? "x" : ids[0];
        case "chapter" -> ids == null ? "x" : ids[1];
        case "book" -> ids == null ? "x" : KomgaIds.bookId(ids[0], ids[1]);
        case "page" -> "1";
        case "id", "collection" -> "mixed";
        default -> "x";
      };
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  private JsonArray list(Session session) throws Exception {
    return new JsonObject(reader.text(ReaderUnderTest.as(session, reader.get("/api/series"))).body())
        .getJsonArray("series");
  }

  private void rate(String title, String rating) throws Exception {
    ok(reader.text(ReaderUnderTest.as(admin, reader.request("PUT", "/api/admin/catalog/series/"
        + series.get(title)[0], new JsonObject().put("description", "").put("tags", new JsonArray())
        .put("ageRating", rating).encode()))));
  }

  private static void ok(HttpResponse<String> answer) {
    assertThat(answer.statusCode()).as(answer.body()).isBetween(200, 299);
  }

  private static void cbz(Path file, String title) throws Exception {
    try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("001.png"));
      zip.write(LibraryFixture.png(title));
      zip.closeEntry();
    }
  }
}
