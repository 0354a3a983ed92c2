package io.mangacircus.reader.shelves;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The library list as each reader sees it: unread, read and new counts, when a series was added, the visit route. */
class ReadingSummaryRoutesTest {

  private static final Instant PUBLISHED = Instant.parse("2026-11-20T10:00:00Z");

  @TempDir
  Path data;

  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;
  private ReaderUnderTest.Session rita;

  @BeforeEach
  void start() throws Exception {
    LibraryFixture library = new LibraryFixture(data);
    library.chapter("moon", "Moon Circus", 1, 2, PUBLISHED);
    library.chapter("moon", "Moon Circus", 2, 2, PUBLISHED.plusSeconds(60));
    library.chapter("moon", "Moon Circus", 3, 2, PUBLISHED.plusSeconds(120));
    library.chapter("sun", "Sun Circus", 1, 2, PUBLISHED.plusSeconds(3600));
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    reader.createReader(admin, "rita", "rita-reads-a-lot-of-manga");
    rita = reader.login("rita", "rita-reads-a-lot-of-manga");
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  private JsonObject card(ReaderUnderTest.Session who, String series) throws Exception {
    HttpResponse<String> list = reader.text(as(who, reader.get("/api/series")));
    assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
    return new JsonObject(list.body()).getJsonArray("series").stream().map(JsonObject.class::cast)
        .filter(s -> s.getString("id").equals(series)).findFirst().orElseThrow();
  }

  @Test
  void eachReadersCardCountsTheirOwnUnreadChaptersAndReadingOneLowersIt() throws Exception {
    JsonObject before = card(rita, "moon");
    assertThat(before.getInteger("chapters")).isEqualTo(3);
    assertThat(before.getInteger("unread")).isEqualTo(3);
    assertThat(before.getInteger("read")).isZero();
    assertThat(before.getInteger("newSince")).isZero();
    assertThat(before.getString("addedAt")).isEqualTo(PUBLISHED.toString());

    HttpResponse<String> marked = reader.text(as(rita, reader.request("PUT",
        "/api/series/moon/chapters/chapter-0002/read", new JsonObject().put("read", true).encode())));
    assertThat(marked.statusCode()).as(marked.body()).isEqualTo(200);

    JsonObject after = card(rita, "moon");
    assertThat(after.getInteger("unread")).isEqualTo(2);
    assertThat(after.getInteger("read")).isEqualTo(1);
    assertThat(card(admin, "moon").getInteger("unread")).as("the admin's count is their own").isEqualTo(3);
    assertThat(card(rita, "sun").getString("addedAt")).isEqualTo(PUBLISHED.plusSeconds(3600).toString());
  }

  @Test
  void theFirstLibraryVisitHasNoCutoffAndTheNextLoadOfTheSameVisitKeepsIt() throws Exception {
    HttpResponse<String> first = reader.text(as(rita, reader.request("POST", "/api/series/visit", null)));
    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    assertThat(new JsonObject(first.body()).getString("since")).isNull();
    assertThat(new JsonObject(first.body()).getString("lastVisitAt")).isNotNull();

    HttpResponse<String> again = reader.text(as(rita, reader.request("POST", "/api/series/visit", null)));
    assertThat(new JsonObject(again.body()).getString("since")).as("one visit").isNull();
    assertThat(reader.text(reader.request("POST", "/api/series/visit", null)).statusCode())
        .as("a visit needs a session").isEqualTo(401);
  }
}
