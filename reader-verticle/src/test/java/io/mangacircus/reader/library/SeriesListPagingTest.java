package io.mangacircus.reader.library;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /api/series} in pages: a big library is not sent whole to every request that shows one page of it. */
class SeriesListPagingTest {

  private static final Instant PUBLISHED = Instant.parse("2026-11-20T10:00:00Z");

  @TempDir
  Path data;

  private LibraryFixture library;
  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;

  @BeforeEach
  void start() throws Exception {
    library = new LibraryFixture(data);
    int hour = 0;
    for (String name : List.of("alpha", "bravo", "charlie", "delta", "echo")) {
      library.chapter(name, name.substring(0, 1).toUpperCase() + name.substring(1), 1, 1,
          PUBLISHED.plusSeconds(3600L * hour++));
    }
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  private JsonObject list(String query) throws Exception {
    HttpResponse<String> answer = reader.text(as(admin, reader.get("/api/series" + query)));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return new JsonObject(answer.body());
  }

  private static List<String> ids(JsonObject answer) {
    return answer.getJsonArray("series").stream().map(s -> ((JsonObject) s).getString("id")).toList();
  }

  @Test
  void aPageListsItsSliceOfTheOrderedListWithTheTotal() throws Exception {
    JsonObject second = list("?page=2&size=2");
    assertThat(ids(second)).containsExactly("charlie", "delta");
    assertThat(second.getInteger("total")).isEqualTo(5);
    assertThat(second.getInteger("page")).isEqualTo(2);
    assertThat(second.getInteger("size")).isEqualTo(2);
    assertThat(second.getBoolean("partial")).isFalse();

    assertThat(ids(list("?page=3&size=2"))).containsExactly("echo");
    assertThat(ids(list("?page=4&size=2"))).as("past the end").isEmpty();
    assertThat(ids(list("?sort=updated&page=1&size=2"))).as("newest first, then paged").containsExactly("echo", "delta");
    JsonObject found = list("?q=ha&page=2&size=1");
    assertThat(ids(found)).containsExactly("charlie");
    assertThat(found.getInteger("total")).as("the search's total").isEqualTo(2);
    assertThat(ids(list("?page=1"))).as("100 a page by default").hasSize(5);
  }

  @Test
  void sortAddedListsTheSeriesThatCameIntoTheLibraryLastFirstNotTheLastUpdated() throws Exception {
    // Alpha came first but has the newest chapter: first by "updated", last by "added".
    library.chapter("alpha", "Alpha", 2, 1, PUBLISHED.plusSeconds(3600L * 24));
    HttpResponse<String> rescan = reader.text(as(admin, reader.request("POST", "/api/admin/library/rescan", "{}")));
    assertThat(rescan.statusCode()).as(rescan.body()).isEqualTo(200);

    assertThat(ids(list("?sort=updated&page=1&size=2"))).containsExactly("alpha", "echo");
    JsonObject added = list("?sort=added&page=1&size=2");
    assertThat(ids(added)).containsExactly("echo", "delta");
    assertThat(added.getJsonArray("series").getJsonObject(0).getString("addedAt"))
        .isEqualTo(PUBLISHED.plusSeconds(3600L * 4).toString());
    assertThat(ids(list("?sort=added"))).last().isEqualTo("alpha");
    assertThat(ids(list("?sort=sideways&page=1&size=2"))).as("an unknown sort: by title, as before")
        .containsExactly("alpha", "bravo");
  }

  @Test
  void aCollectionListsItsMembersInItsOwnOrderPagedAndSearchable() throws Exception {
    HttpResponse<String> saved = reader.text(as(admin, reader.request("PUT", "/api/admin/catalog/collections/picks",
        new JsonObject().put("name", "Picks").put("series", List.of("echo", "gone", "bravo", "delta")).encode())));
    assertThat(saved.statusCode()).as(saved.body()).isEqualTo(200);

    JsonObject first = list("?collection=picks&page=1&size=2");
    assertThat(ids(first)).as("the collection's order; a member not in the library is left out")
        .containsExactly("echo", "bravo");
    assertThat(first.getInteger("total")).isEqualTo(3);
    assertThat(ids(list("?collection=picks&page=2&size=2"))).containsExactly("delta");
    assertThat(ids(list("?collection=picks&sort=title"))).containsExactly("bravo", "delta", "echo");
    assertThat(ids(list("?collection=picks&q=RAV"))).containsExactly("bravo");

    HttpResponse<String> unknown = reader.text(as(admin, reader.get("/api/series?collection=nothing")));
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(new JsonObject(unknown.body()).getString("error")).isEqualTo("not_found");
  }

  @Test
  void withoutPageTheWholeListIsAnsweredAsBefore() throws Exception {
    JsonObject all = list("");
    assertThat(ids(all)).containsExactly("alpha", "bravo", "charlie", "delta", "echo");
    assertThat(all.getInteger("total")).isEqualTo(5);
    assertThat(all.containsKey("page")).isFalse();
  }

  @Test
  void aPageOrSizeThatIsNotOneIsRefused() throws Exception {
    for (String bad : List.of("?page=0", "?page=x", "?page=1&size=0", "?page=1&size=501", "?size=-1")) {
      HttpResponse<String> answer = reader.text(as(admin, reader.get("/api/series" + bad)));
      assertThat(answer.statusCode()).as(bad).isEqualTo(400);
      assertThat(new JsonObject(answer.body()).getString("error")).as(bad).isEqualTo("bad_request");
    }
  }
}
