package io.mangacircus.reader.komga;

import static io.mangacircus.reader.ReaderUnderTest.basic;
import static io.mangacircus.reader.komga.KomgaDtoKeys.assertShape;
import static io.mangacircus.reader.komga.KomgaDtoKeys.assertTime;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replays, in order, the requests Mihon's Komga source makes to browse a server, against the real reader over a
 * library of three series, and checks every key the source decodes. The requests are those of
 * keiyoushi/extensions-source {@code src/all/komga/src/eu/kanade/tachiyomi/extension/all/komga/Komga.kt}:
 * {@code fetchFilterOptions} (libraries, {@code collections?unpaged=true}, genres, tags, publishers, authors),
 * {@code popularMangaRequest}, {@code latestUpdatesRequest} and the collection filter (through
 * {@code searchMangaRequest}: {@code search}, {@code page} from 0, {@code deleted=false},
 * {@code sort=metadata.titleSort,asc} / {@code lastModifiedDate,desc}, {@code collections/{id}/series}),
 * {@code mangaDetailsRequest} (the series' url), {@code chapterListRequest}
 * ({@code /books?unpaged=true&media_status=READY&deleted=false}), {@code pageListRequest} ({@code /pages}) and
 * {@code imageRequest} ({@code /pages/{number}} with {@code Accept: image/*}). Its client sends credentials only after
 * a 401 that challenges Basic (its {@code authenticator}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KomgaSourceReplayTest {

  private static final String READER_PASSWORD = "rita-reads-a-lot-of-manga";
  private static final String UA = "TachiyomiKomga/0.17.0";

  @TempDir
  static Path data;

  private ReaderUnderTest reader;
  private String secret;
  private final List<Path> moonChapters = new ArrayList<>();

  @BeforeAll
  void start() throws Exception {
    LibraryFixture library = new LibraryFixture(data);
    for (int n = 1; n <= 3; n++) {
      moonChapters.add(library.chapter("moon", "Moon Circus", n, 2 + n, Instant.parse("2026-01-0" + n + "T03:04:05Z")));
    }
    library.chapter("sun", "Sun Parade", 1, 2, Instant.parse("2026-02-01T00:00:00Z"));
    library.chapter("sun", "Sun Parade", 2, 2, Instant.parse("2026-03-01T00:00:00Z"));
    library.chapter("aster", "Aster Fair", 1, 1, Instant.parse("2025-12-01T00:00:00Z"));
    reader = ReaderUnderTest.start(data);
    ReaderUnderTest.Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    HttpResponse<String> saved = reader.text(ReaderUnderTest.as(admin, reader.request("PUT",
        "/api/admin/catalog/collections/picks", "{\"name\": \"Picks\", \"series\": [\"sun\", \"aster\"]}")));
    assertThat(saved.statusCode()).as(saved.body()).isEqualTo(200);
    reader.createReader(admin, "rita", READER_PASSWORD);
    secret = reader.createAppPassword(reader.login("rita", READER_PASSWORD), "Mihon").getString("password");
  }

  @AfterAll
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void theKomgaSourceBrowsesSeriesChaptersPagesAndImages() throws Exception {
    // The filter options, fetched when the source's filters or settings are first shown.
    JsonArray libraries = new JsonArray(get("/komga/api/v1/libraries").body());
    assertThat(libraries).hasSize(1);
    assertShape("LibraryDto", libraries.getJsonObject(0), KomgaDtoKeys.LIBRARY);
    JsonObject collections = new JsonObject(get("/komga/api/v1/collections?unpaged=true").body());
    assertShape("PageWrapperDto<CollectionDto>", collections, KomgaDtoKeys.PAGE_WRAPPER);
    assertThat(collections.getJsonArray("content")).hasSize(1);
    JsonObject picks = collections.getJsonArray("content").getJsonObject(0);
    assertShape("CollectionDto", picks, KomgaDtoKeys.COLLECTION);
    assertThat(picks.getString("name")).isEqualTo("Picks");
    for (String list : List.of("genres", "tags", "publishers", "authors")) {
      HttpResponse<String> answer = get("/komga/api/v1/" + list);
      assertThat(answer.statusCode()).as(list).isEqualTo(200);
      assertThat(new JsonArray(answer.body())).as(list).isEmpty();
    }

    // Popular: titles A to Z, first page (the source's page 1 is Komga's page 0).
    JsonObject popular = new JsonObject(get("/komga/api/v1/series?search=&page=0&deleted=false"
        + "&sort=metadata.titleSort%2Casc").body());
    assertShape("PageWrapperDto<SeriesDto>", popular, KomgaDtoKeys.PAGE_WRAPPER);
    assertThat(titles(popular)).containsExactly("Aster Fair", "Moon Circus", "Sun Parade");
    assertThat(popular.getBoolean("last")).isTrue();
    assertThat(popular.getInteger("totalElements")).isEqualTo(3);
    for (Object item : popular.getJsonArray("content")) {
      assertSeries((JsonObject) item);
    }

    // Latest: the series with the newest chapter first.
    JsonObject latest = new JsonObject(get("/komga/api/v1/series?search=&page=0&deleted=false"
        + "&sort=lastModifiedDate%2Cdesc").body());
    assertThat(titles(latest)).containsExactly("Sun Parade", "Moon Circus", "Aster Fair");

    // Search, titles A to Z (the source's default sort).
    JsonObject search = new JsonObject(get("/komga/api/v1/series?search=moon&page=0&deleted=false"
        + "&sort=metadata.titleSort%2Casc").body());
    assertThat(titles(search)).containsExactly("Moon Circus");
    String seriesUrl = "/komga/api/v1/series/" + search.getJsonArray("content").getJsonObject(0).getString("id");

    // The collection filter: searchMangaRequest's "collections/{id}/series" with the default sort, titles A to Z.
    JsonObject collection = new JsonObject(get("/komga/api/v1/collections/" + picks.getString("id")
        + "/series?search=&page=0&deleted=false&sort=metadata.titleSort%2Casc").body());
    assertShape("PageWrapperDto<SeriesDto>", collection, KomgaDtoKeys.PAGE_WRAPPER);
    assertThat(titles(collection)).containsExactly("Aster Fair", "Sun Parade");

    // Details.
    JsonObject details = new JsonObject(get(seriesUrl).body());
    assertSeries(details);
    assertThat(details.getJsonObject("metadata").getString("title")).isEqualTo("Moon Circus");
    assertThat(details.getInteger("booksCount")).isEqualTo(3);

    // The chapter list.
    JsonObject books = new JsonObject(get(seriesUrl + "/books?unpaged=true&media_status=READY&deleted=false").body());
    assertShape("PageWrapperDto<BookDto>", books, KomgaDtoKeys.PAGE_WRAPPER);
    JsonArray content = books.getJsonArray("content");
    assertThat(content).hasSize(3);
    assertThat(books.getBoolean("last")).isTrue();
    for (int i = 0; i < content.size(); i++) {
      JsonObject book = content.getJsonObject(i);
      assertBook(book);
      assertThat(book.getJsonObject("metadata").getFloat("numberSort")).isEqualTo(i + 1f);
      assertThat(book.getJsonObject("media").getInteger("pagesCount")).isEqualTo(3 + i);
    }

    // The page list and every page image of the last chapter, as the source builds their urls.
    String bookUrl = "/komga/api/v1/books/" + content.getJsonObject(2).getString("id");
    // The thumbnails the source sets on what it lists (SeriesDto and BookDto's toSManga): a series' and a book's.
    HttpResponse<byte[]> seriesThumbnail = reader.bytes(authorized(seriesUrl + "/thumbnail"));
    assertThat(seriesThumbnail.statusCode()).isEqualTo(200);
    assertThat(seriesThumbnail.body()).isEqualTo(Files.readAllBytes(moonChapters.get(0).resolve("001.png")));
    HttpResponse<byte[]> bookThumbnail = reader.bytes(authorized(bookUrl + "/thumbnail"));
    assertThat(bookThumbnail.statusCode()).isEqualTo(200);
    assertThat(bookThumbnail.body()).isEqualTo(Files.readAllBytes(moonChapters.get(2).resolve("001.png")));
    assertBook(new JsonObject(get(bookUrl).body()));
    JsonArray pages = new JsonArray(get(bookUrl + "/pages").body());
    assertThat(pages).hasSize(5);
    for (int i = 0; i < pages.size(); i++) {
      JsonObject page = pages.getJsonObject(i);
      assertShape("PageDto", page, KomgaDtoKeys.PAGE);
      assertThat(page.getInteger("number")).isEqualTo(i + 1);
      assertThat(page.getString("mediaType")).isEqualTo("image/png");
      HttpResponse<byte[]> image = reader.bytes(authorized(bookUrl + "/pages/" + page.getInteger("number"))
          .header("Accept", "image/*,*/*;q=0.8"));
      assertThat(image.statusCode()).isEqualTo(200);
      assertThat(image.headers().firstValue("Content-Type")).hasValue("image/png");
      assertThat(image.body()).isEqualTo(Files.readAllBytes(moonChapters.get(2).resolve(page.getString("fileName"))));
    }
  }

  @Test
  void theSourcesFirstRequestWithoutCredentialsIsChallengedForBasic() throws Exception {
    HttpResponse<String> answer = reader.text(reader.get("/komga/api/v1/series?search=&page=0&deleted=false")
        .header("User-Agent", UA));

    assertThat(answer.statusCode()).isEqualTo(401);
    assertThat(answer.headers().firstValue("WWW-Authenticate"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("Basic realm=\"MangaCircus\""));
  }

  @Test
  void bookIdsAreOneOpaqueSegmentUniqueAcrossSeriesWithTheSameChapterFolder() throws Exception {
    String moon = bookIds("moon").get(0);
    String sun = bookIds("sun").get(0);

    assertThat(moon).isNotEqualTo(sun).doesNotContain("/").isEqualTo(bookIds("moon").get(0));
    assertThat(new JsonObject(get("/komga/api/v1/books/" + sun).body()).getString("seriesId")).isEqualTo("sun");
  }

  private List<String> bookIds(String series) throws Exception {
    JsonArray content = new JsonObject(get("/komga/api/v1/series/" + series + "/books?unpaged=true").body())
        .getJsonArray("content");
    return content.stream().map(b -> ((JsonObject) b).getString("id")).toList();
  }

  private static void assertSeries(JsonObject series) {
    assertShape("SeriesDto", series, KomgaDtoKeys.SERIES);
    assertShape("SeriesMetadataDto", series.getJsonObject("metadata"), KomgaDtoKeys.SERIES_METADATA);
    assertShape("BookMetadataAggregationDto", series.getJsonObject("booksMetadata"), KomgaDtoKeys.BOOKS_METADATA);
    assertTime("SeriesDto.fileLastModified", series.getString("fileLastModified"));
  }

  private static void assertBook(JsonObject book) {
    assertShape("BookDto", book, KomgaDtoKeys.BOOK);
    assertShape("MediaDto", book.getJsonObject("media"), KomgaDtoKeys.MEDIA);
    assertShape("BookMetadataDto", book.getJsonObject("metadata"), KomgaDtoKeys.BOOK_METADATA);
    assertThat(book.getJsonObject("metadata").getString("releaseDate")).matches("\\d{4}-\\d{2}-\\d{2}");
    assertTime("BookDto.created", book.getString("created"));
  }

  private static List<String> titles(JsonObject page) {
    return page.getJsonArray("content").stream().map(s -> ((JsonObject) s).getJsonObject("metadata")
        .getString("title")).toList();
  }

  private HttpRequest.Builder authorized(String path) {
    return basic("rita", secret, reader.get(path).header("User-Agent", UA));
  }

  private HttpResponse<String> get(String path) throws Exception {
    HttpResponse<String> answer = reader.text(authorized(path));
    assertThat(answer.statusCode()).as(path + ": " + answer.body()).isEqualTo(200);
    assertThat(answer.headers().firstValue("Content-Type")).as(path)
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
    return answer;
  }
}
