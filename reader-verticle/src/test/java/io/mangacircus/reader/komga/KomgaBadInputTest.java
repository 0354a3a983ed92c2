package io.mangacircus.reader.komga;

import static io.mangacircus.reader.ReaderUnderTest.basic;
import static io.mangacircus.reader.komga.KomgaDtoKeys.assertShape;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Komga API answers to requests it cannot serve: unknown ids in Komga's error shape, paging out of range,
 * and credentials it does not accept (none, or the account's own password), against the real reader.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KomgaBadInputTest {

  private static final String READER_PASSWORD = "rita-reads-a-lot-of-manga";

  @TempDir
  static Path data;

  private ReaderUnderTest reader;
  private String secret;

  @BeforeAll
  void start() throws Exception {
    new LibraryFixture(data).chapter("moon", "Moon Circus", 1, 2, Instant.parse("2026-01-02T03:04:05Z"));
    reader = ReaderUnderTest.start(data);
    ReaderUnderTest.Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    reader.createReader(admin, "rita", READER_PASSWORD);
    secret = reader.createAppPassword(reader.login("rita", READER_PASSWORD), "Mihon").getString("password");
  }

  @AfterAll
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void unknownSeriesAndBooksAre404InKomgasErrorShape() throws Exception {
    String[] unknown = {
        "/komga/api/v1/series/nowhere",
        "/komga/api/v1/series/nowhere/books?unpaged=true",
        "/komga/api/v1/books/" + KomgaIds.bookId("moon", "chapter-0099"),
        "/komga/api/v1/books/" + KomgaIds.bookId("nowhere", "chapter-0001") + "/pages",
        "/komga/api/v1/books/not-a-book-id",
        "/komga/api/v1/collections/nowhere/series",
        "/komga/api/v1/books/" + KomgaIds.bookId("moon", "chapter-0001") + "/pages/3",
    };
    for (String path : unknown) {
      HttpResponse<String> answer = get(path);
      assertThat(answer.statusCode()).as(path + ": " + answer.body()).isEqualTo(404);
      JsonObject error = new JsonObject(answer.body());
      assertShape("error " + path, error, KomgaDtoKeys.ERROR);
      assertThat(error.getInteger("status")).isEqualTo(404);
      assertThat(error.getString("path")).isEqualTo(path.split("\\?")[0]);
    }
  }

  @Test
  void pagingOutOfRangeOrNotANumberIs400() throws Exception {
    String[] bad = {
        "/komga/api/v1/series?page=-1",
        "/komga/api/v1/series?size=100000",
        "/komga/api/v1/series?size=0",
        "/komga/api/v1/series?page=two",
        "/komga/api/v1/series/moon/books?page=-1",
        "/komga/api/v1/books/" + KomgaIds.bookId("moon", "chapter-0001") + "/pages/zero",
    };
    for (String path : bad) {
      HttpResponse<String> answer = get(path);
      assertThat(answer.statusCode()).as(path + ": " + answer.body()).isEqualTo(400);
      assertShape("error " + path, new JsonObject(answer.body()), KomgaDtoKeys.ERROR);
    }
  }

  @Test
  void aPageBeyondTheLastIsEmptyAndLast() throws Exception {
    HttpResponse<String> answer = get("/komga/api/v1/series?page=5&size=20");

    assertThat(answer.statusCode()).isEqualTo(200);
    JsonObject page = new JsonObject(answer.body());
    assertThat(page.getJsonArray("content")).isEmpty();
    assertThat(page.getBoolean("empty")).isTrue();
    assertThat(page.getBoolean("last")).isTrue();
    assertThat(page.getInteger("number")).isEqualTo(5);
  }

  @Test
  void withoutCredentialsTheAnswerIs401WithABasicChallenge() throws Exception {
    for (String path : new String[] {"/komga/api/v1/series", "/komga/api/v1/libraries",
        "/komga/api/v1/books/" + KomgaIds.bookId("moon", "chapter-0001") + "/pages/1",
        "/komga/api/v1/readlists", "/opds/v1.2/nothing-here"}) {
      HttpResponse<String> answer = reader.text(reader.get(path));
      assertThat(answer.statusCode()).as(path).isEqualTo(401);
      assertThat(answer.headers().firstValue("WWW-Authenticate")).as(path)
          .hasValueSatisfying(v -> assertThat(v).startsWith("Basic realm=\"MangaCircus\""));
    }
  }

  @Test
  void theAccountPasswordIsRefused() throws Exception {
    HttpResponse<String> answer = reader.text(basic("rita", READER_PASSWORD, reader.get("/komga/api/v1/series")));

    assertThat(answer.statusCode()).isEqualTo(401);
    assertThat(answer.headers().firstValue("WWW-Authenticate"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("Basic realm=\"MangaCircus\""));
  }

  @Test
  void anAppPasswordStillOpensNoAdminRoute() throws Exception {
    HttpResponse<String> answer = reader.text(basic("rita", secret, reader.get("/api/admin/users")));

    assertThat(answer.statusCode()).isIn(401, 403);
  }

  private HttpResponse<String> get(String path) throws Exception {
    return reader.text(basic("rita", secret, reader.get(path)));
  }
}
