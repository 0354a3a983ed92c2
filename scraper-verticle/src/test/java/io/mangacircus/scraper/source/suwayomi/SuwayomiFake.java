package io.mangacircus.scraper.source.suwayomi;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.mangacircus.testing.TestImages;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fake Suwayomi-Server on loopback (WireMock): {@code POST /api/graphql} answers the bridge's operations by
 * {@code operationName} with answers in the shape Suwayomi's schema gives (ids of sources as strings, of mangas and
 * chapters as numbers, {@code uploadDate} as a string of epoch ms, errors as HTTP 200 with {@code errors} whose message
 * carries a stack trace after {@code "\r\n\r\n"}), and page images under
 * {@code /api/v1/manga/{m}/chapter/{sourceOrder}/page/{i}} — 404 until {@code fetchChapterPages} was called for that
 * chapter, as Suwayomi's page table is empty before. Switches: basic auth enforced (401 otherwise), the source not
 * installed, a source that throws (a message such as Cloudflare's), a page 404, slow answers, 429 on every Nth request
 * with {@code Retry-After}, a page whose answer hangs ({@link #slowPage}), a chapter added to a manga
 * ({@link #addChapter}), and the server down ({@link #stop}); the {@code sources} query lists the installed sources.
 */
final class SuwayomiFake {

  /** The source the fake's server has installed. */
  static final String SOURCE_ID = "2499283573021220255";
  /** The language of that source. */
  static final String LANG = "fr";
  /** The title every test may read: three chapters of two, three and one pages. */
  static final int MANGA = 42;
  /** A manga of another source on the same server. */
  static final int OTHER_SOURCES_MANGA = 77;
  /** What every stack trace the fake appends contains: it must never reach a message or a log line. */
  static final String STACK_MARK = "at eu.kanade.tachiyomi.SecretFrame";

  /**
   * The sources the server has installed, as its {@code sources} query lists them (the Local source, id {@code "0"},
   * has no extension); {@link #SOURCE_ID} is left out once {@link #uninstall} was called.
   */
  static final List<SuwayomiCatalog.InstalledSource> INSTALLED_SOURCES = List.of(
      new SuwayomiCatalog.InstalledSource(SOURCE_ID, "Le Site", LANG, "Le Site (FR)", false,
          "eu.kanade.tachiyomi.extension.fr.lesite"),
      new SuwayomiCatalog.InstalledSource("6247824327199706550", "Autre Site", "en", "Autre Site (EN)", true,
          "eu.kanade.tachiyomi.extension.en.autresite"),
      new SuwayomiCatalog.InstalledSource("0", "Local source", "localsourcelang", "Local source", false, null));

  /** One request as the fake saw it. */
  record Exchange(Instant at, String method, String path, String operation, int status) {
  }

  private record Chapter(int id, int sourceOrder, double number, String name, int pages, long uploadDate) {
  }

  private record Manga(int id, String title, String sourceId, List<Chapter> chapters) {
  }

  private static final Pattern PAGE = Pattern.compile("/api/v1/manga/(\\d+)/chapter/(\\d+)/page/(\\d+)");
  private static final Pattern THUMBNAIL = Pattern.compile("/api/v1/manga/(\\d+)/thumbnail");

  private final WireMockServer server;
  private final Map<Integer, Manga> mangas = new ConcurrentHashMap<>();
  private final Set<String> fetched = ConcurrentHashMap.newKeySet();
  private final Map<String, byte[]> images = new ConcurrentHashMap<>();
  private final List<Exchange> journal = new ArrayList<>();
  private final Set<String> missingPages = new HashSet<>();
  private final Map<String, Integer> slowPages = new ConcurrentHashMap<>();
  private volatile String authorization;
  private volatile boolean installed = true;
  private volatile String sourceError;
  private volatile int refuseEvery;
  private volatile int retryAfterSeconds;
  private int requests;

  SuwayomiFake() {
    server = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1").extensions(new Answers()));
    server.start();
    server.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(500)));
    reset();
  }

  /** The server's base URL, e.g. {@code http://127.0.0.1:5123}. */
  String baseUrl() {
    return server.baseUrl();
  }

  /** Back to the start: the default titles, no switch on, nothing fetched, an empty journal. */
  synchronized void reset() {
    mangas.clear();
    fetched.clear();
    journal.clear();
    missingPages.clear();
    slowPages.clear();
    authorization = null;
    installed = true;
    sourceError = null;
    refuseEvery = 0;
    requests = 0;
    server.setGlobalFixedDelay(0);
    addManga(MANGA, "Le Pont", SOURCE_ID, List.of(2, 3, 1));
    addManga(OTHER_SOURCES_MANGA, "Elsewhere", "6247824327199706550", List.of(1));
  }

  /** A manga whose chapter {@code i + 1} has {@code pages.get(i)} pages; chapter ids are {@code id * 1000 + i + 1}. */
  void addManga(int id, String title, String sourceId, List<Integer> pages) {
    List<Chapter> chapters = new ArrayList<>();
    for (int i = 0; i < pages.size(); i++) {
      double number = i == 1 ? 1.5 : i + 1;
      chapters.add(new Chapter(id * 1000 + i + 1, i + 1, number, "Chapitre " + (i + 1), pages.get(i),
          1_700_000_000_000L + i * 86_400_000L));
    }
    mangas.put(id, new Manga(id, title, sourceId, chapters));
  }

  /** Basic auth required from now on (401 without the right header). */
  void requireBasicAuth(String user, String password) {
    authorization = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
        .getBytes(StandardCharsets.UTF_8));
  }

  /** The source's extension uninstalled: {@code source(id)} answers null, a fetch from it a NullPointerException. */
  void uninstall() {
    installed = false;
  }

  /** Every fetch from the source fails with {@code message} (as the extension's exception), e.g. Cloudflare's. */
  void sourceThrows(String message) {
    sourceError = message;
  }

  /** The page answers 404 even after its chapter's page list was fetched. */
  synchronized void missingPage(int manga, int sourceOrder, int index) {
    missingPages.add(manga + "/" + sourceOrder + "/" + index);
  }

  /**
   * The answer of page {@code index} (0-based) of chapter {@code sourceOrder} of a manga starts only after {@code ms}
   * (a page answer that hangs); the other answers are not delayed.
   */
  void slowPage(int manga, int sourceOrder, int index, int ms) {
    slowPages.put(manga + "/" + sourceOrder + "/" + index, ms);
  }

  /**
   * The source published a new chapter of a manga: it comes last in the list (the next {@code sourceOrder}, numbered
   * after it) with {@code pages} pages.
   *
   * @return its chapter id
   */
  synchronized int addChapter(int id, int pages) {
    Manga manga = mangas.get(id);
    List<Chapter> chapters = new ArrayList<>(manga.chapters());
    int sourceOrder = chapters.size() + 1;
    chapters.add(new Chapter(chapterId(id, sourceOrder), sourceOrder, sourceOrder, "Chapitre " + sourceOrder, pages,
        1_700_000_000_000L + chapters.size() * 86_400_000L));
    mangas.put(id, new Manga(id, manga.title(), manga.sourceId(), List.copyOf(chapters)));
    return chapterId(id, sourceOrder);
  }

  /** Every answer waits {@code ms} before it starts. */
  void slow(int ms) {
    server.setGlobalFixedDelay(ms);
  }

  /** Every {@code n}th request (counting all) is answered 429 with {@code Retry-After: seconds}; 0 for none. */
  synchronized void refuseEvery(int n, int seconds) {
    refuseEvery = n;
    retryAfterSeconds = seconds;
    requests = 0;
  }

  /** The server down: connections are refused from now on. */
  void stop() {
    server.stop();
  }

  /** Every request so far, in arrival order. */
  synchronized List<Exchange> journal() {
    return List.copyOf(journal);
  }

  /** The bytes the server serves for page {@code index} (0-based) of chapter {@code sourceOrder} of a manga. */
  byte[] page(int manga, int sourceOrder, int index) {
    return images.computeIfAbsent(manga + "/" + sourceOrder + "/" + index,
        k -> TestImages.image("png", 24, 32, manga * 10_000 + sourceOrder * 100 + index));
  }

  /** The chapter id of chapter {@code sourceOrder} (1-based) of a manga. */
  static int chapterId(int manga, int sourceOrder) {
    return manga * 1000 + sourceOrder;
  }

  // ---- answers --------------------------------------------------------------------------------------------------

  /** Answers every request from the fake's state (the one catch-all stub's answer is replaced). */
  private final class Answers implements ResponseDefinitionTransformerV2 {

    @Override
    public String getName() {
      return "suwayomi-fake";
    }

    @Override
    public ResponseDefinition transform(ServeEvent event) {
      Request request = event.getRequest();
      String path = request.getUrl().replaceFirst("\\?.*$", "");
      String operation = null;
      if (path.equals("/api/graphql")) {
        try {
          operation = new JsonObject(request.getBodyAsString()).getString("operationName");
        } catch (RuntimeException e) {
          operation = "?";
        }
      }
      ResponseDefinitionBuilder answer = answer(request, path, operation);
      ResponseDefinition built = answer.build();
      synchronized (SuwayomiFake.this) {
        journal.add(new Exchange(Instant.now(), request.getMethod().getName(), path, operation, built.getStatus()));
      }
      return built;
    }
  }

  private ResponseDefinitionBuilder answer(Request request, String path, String operation) {
    synchronized (this) {
      requests++;
      if (refuseEvery > 0 && requests % refuseEvery == 0) {
        return new ResponseDefinitionBuilder().withStatus(429).withHeader("Retry-After",
            String.valueOf(retryAfterSeconds)).withBody("Too Many Requests");
      }
    }
    String expected = authorization;
    if (expected != null && !expected.equals(request.getHeader("Authorization"))) {
      return new ResponseDefinitionBuilder().withStatus(401).withHeader("WWW-Authenticate", "Basic realm=\"Tachidesk\"")
          .withBody("Unauthorized");
    }
    if (path.equals("/api/graphql") && request.getMethod().getName().equals("POST")) {
      JsonObject body = new JsonObject(request.getBodyAsString());
      return json(graphql(operation, body.getJsonObject("variables", new JsonObject())));
    }
    Matcher page = PAGE.matcher(path);
    if (page.matches()) {
      return pageAnswer(Integer.parseInt(page.group(1)), Integer.parseInt(page.group(2)),
          Integer.parseInt(page.group(3)));
    }
    Matcher thumbnail = THUMBNAIL.matcher(path);
    if (thumbnail.matches()) {
      return image(page(Integer.parseInt(thumbnail.group(1)), 0, 0));
    }
    return new ResponseDefinitionBuilder().withStatus(404).withBody("Not Found");
  }

  private JsonObject graphql(String operation, JsonObject variables) {
    String field = switch (String.valueOf(operation)) {
      case "Source" -> "source";
      case "Search" -> "fetchSourceManga";
      case "MangaDetails" -> "fetchManga";
      case "Chapters" -> "fetchChapters";
      case "Pages" -> "fetchChapterPages";
      case "InstalledSources" -> "sources";
      default -> null;
    };
    if (field != null && field.equals("sources")) {
      return installedSources();
    }
    if (field == null) {
      return error("query", "Validation error (FieldUndefined): unknown operation " + operation);
    }
    if (field.equals("source")) {
      boolean ours = installed && SOURCE_ID.equals(variables.getValue("id"));
      return new JsonObject().put("data", new JsonObject().put("source", ours ? new JsonObject().put("id", SOURCE_ID)
          .put("name", "Le Site").put("lang", LANG).put("displayName", "Le Site (FR)").put("isNsfw", false) : null));
    }
    if (!installed) {
      return error(field, "null");
    }
    if (sourceError != null) {
      return error(field, sourceError);
    }
    return switch (field) {
      case "fetchSourceManga" -> search(variables);
      case "fetchManga" -> manga(variables.getInteger("id"));
      case "fetchChapters" -> chapters(variables.getInteger("mangaId"));
      default -> pages(variables.getInteger("chapterId"));
    };
  }

  /** {@code sources { nodes { id name lang displayName isNsfw extension { pkgName } } }}: ids as strings. */
  private JsonObject installedSources() {
    JsonArray nodes = new JsonArray();
    for (SuwayomiCatalog.InstalledSource source : INSTALLED_SOURCES) {
      if (installed || !source.id().equals(SOURCE_ID)) {
        nodes.add(new JsonObject().put("id", source.id()).put("name", source.name()).put("lang", source.lang())
            .put("displayName", source.displayName()).put("isNsfw", source.nsfw())
            .put("extension", source.extensionPkgName() == null ? null
                : new JsonObject().put("pkgName", source.extensionPkgName())));
      }
    }
    return data("sources", new JsonObject().put("nodes", nodes));
  }

  private JsonObject search(JsonObject variables) {
    if (!(variables.getValue("source") instanceof String source)) {
      return error("fetchSourceManga", "Variable 'source' has an invalid value: Expected a String");
    }
    String query = variables.getString("query", "").toLowerCase(Locale.ROOT);
    JsonArray found = new JsonArray();
    mangas.values().stream().filter(m -> m.sourceId().equals(source))
        .filter(m -> m.title().toLowerCase(Locale.ROOT).contains(query))
        .sorted(java.util.Comparator.comparingInt(Manga::id)).forEach(m -> found.add(mangaJson(m)));
    return data("fetchSourceManga", new JsonObject().put("hasNextPage", false).put("mangas", found));
  }

  private JsonObject manga(Integer id) {
    Manga manga = id == null ? null : mangas.get(id);
    if (manga == null) {
      return error("fetchManga", "Collection is empty.");
    }
    return data("fetchManga", new JsonObject().put("manga", mangaJson(manga)));
  }

  private JsonObject chapters(Integer id) {
    Manga manga = id == null ? null : mangas.get(id);
    if (manga == null) {
      return error("fetchChapters", "Collection is empty.");
    }
    JsonArray chapters = new JsonArray();
    // Suwayomi answers in ascending sourceOrder; the fake answers newest first to show the bridge sorts them itself.
    for (int i = manga.chapters().size() - 1; i >= 0; i--) {
      Chapter c = manga.chapters().get(i);
      chapters.add(new JsonObject().put("id", c.id()).put("name", c.name()).put("chapterNumber", c.number())
          .put("scanlator", null).put("uploadDate", String.valueOf(c.uploadDate())).put("sourceOrder", c.sourceOrder())
          .put("url", "/chapter/" + c.id()).put("realUrl", "https://le-site.example/chapter/" + c.id())
          .put("pageCount", fetched.contains(manga.id() + "/" + c.sourceOrder()) ? c.pages() : -1)
          .put("mangaId", manga.id()));
    }
    return data("fetchChapters", new JsonObject().put("chapters", chapters));
  }

  private JsonObject pages(Integer chapterId) {
    for (Manga manga : mangas.values()) {
      for (Chapter c : manga.chapters()) {
        if (chapterId != null && c.id() == chapterId) {
          fetched.add(manga.id() + "/" + c.sourceOrder());
          JsonArray pages = new JsonArray();
          for (int i = 0; i < c.pages(); i++) {
            pages.add("/api/v1/manga/" + manga.id() + "/chapter/" + c.sourceOrder() + "/page/" + i);
          }
          return data("fetchChapterPages", new JsonObject().put("pages", pages).put("chapter", new JsonObject()
              .put("id", c.id()).put("mangaId", manga.id()).put("sourceOrder", c.sourceOrder())
              .put("pageCount", c.pages())));
        }
      }
    }
    return error("fetchChapterPages", "Collection is empty.");
  }

  private ResponseDefinitionBuilder pageAnswer(int manga, int sourceOrder, int index) {
    Manga m = mangas.get(manga);
    boolean served;
    synchronized (this) {
      served = m != null && fetched.contains(manga + "/" + sourceOrder)
          && !missingPages.contains(manga + "/" + sourceOrder + "/" + index)
          && m.chapters().stream().anyMatch(c -> c.sourceOrder() == sourceOrder && index < c.pages());
    }
    // Suwayomi reads the page table row at the index; before fetchChapterPages there is none (NoSuchElement → 404).
    Integer delay = slowPages.get(manga + "/" + sourceOrder + "/" + index);
    ResponseDefinitionBuilder answer = served ? image(page(manga, sourceOrder, index))
        : new ResponseDefinitionBuilder().withStatus(404).withBody("Collection is empty.");
    return delay == null ? answer : answer.withFixedDelay(delay);
  }

  private static ResponseDefinitionBuilder image(byte[] bytes) {
    return new ResponseDefinitionBuilder().withStatus(200).withHeader("Content-Type", "image/png")
        .withHeader("Cache-Control", "max-age=86400").withBody(bytes);
  }

  private static JsonObject mangaJson(Manga m) {
    return new JsonObject().put("id", m.id()).put("title", m.title()).put("thumbnailUrl", "/api/v1/manga/" + m.id()
            + "/thumbnail").put("url", "/manga/" + m.id()).put("realUrl", "https://le-site.example/manga/" + m.id())
        .put("initialized", true).put("sourceId", m.sourceId()).put("author", "Une Autrice").put("artist", null)
        .put("description", "Un pont entre deux rives.").put("genre", new JsonArray().add("Drame").add("Aventure"))
        .put("status", "ONGOING");
  }

  private static JsonObject data(String field, JsonObject payload) {
    return new JsonObject().put("data", new JsonObject().put(field, payload));
  }

  /** An error as Suwayomi's handler sends it: the message, "\r\n\r\n", the stack trace; the field's data null. */
  private static JsonObject error(String field, String message) {
    Map<String, Object> location = new LinkedHashMap<>();
    location.put("line", 1);
    location.put("column", 40);
    return new JsonObject().put("errors", new JsonArray().add(new JsonObject()
            .put("message", "Exception while fetching data (/" + field + ") : " + message + "\r\n\r\n"
                + "java.lang.IllegalStateException: " + message + "\n\t" + STACK_MARK + "(Secret.kt:1)\n")
            .put("locations", new JsonArray().add(new JsonObject(location)))
            .put("path", new JsonArray().add(field))))
        .put("data", new JsonObject().put(field, (Object) null));
  }

  private static ResponseDefinitionBuilder json(JsonObject body) {
    return new ResponseDefinitionBuilder().withStatus(200).withHeader("Content-Type", "application/json")
        .withBody(body.encode());
  }
}
