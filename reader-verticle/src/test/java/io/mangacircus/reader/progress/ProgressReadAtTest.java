package io.mangacircus.reader.progress;

import static io.mangacircus.reader.ReaderUnderTest.as;
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
 * {@code PUT /api/progress/{series}} with {@code "at"} (a browser's queue sent after being offline) against the real
 * reader, each test as its own user: a position read before the stored one never moves it back, one read after does,
 * and a chapter finished offline is still marked read.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProgressReadAtTest {

  @TempDir
  static Path data;

  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;

  @BeforeAll
  void start() throws Exception {
    LibraryFixture library = new LibraryFixture(data);
    library.chapter("moon", "Moon Circus", 1, 3, Instant.parse("2026-01-01T00:00:00Z"));
    library.chapter("moon", "Moon Circus", 2, 4, Instant.parse("2026-01-02T00:00:00Z"));
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
  }

  @AfterAll
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void aPositionReadBeforeTheStoredOneLeavesTheStoredOne() throws Exception {
    ReaderUnderTest.Session ann = user("ann");
    save(ann, "{\"chapter\": \"chapter-0002\", \"page\": 3}", 200);
    String earlier = Instant.now().minusSeconds(3_600).toString();
    JsonObject answer = save(ann, "{\"chapter\": \"chapter-0001\", \"page\": 2, \"at\": \"" + earlier + "\"}", 200);

    assertThat(answer.getBoolean("moved")).as(answer.encode()).isFalse();
    JsonObject progress = series(ann).getJsonObject("progress");
    assertThat(progress.getString("chapter") + " p" + progress.getInteger("page"))
        .as("the position read elsewhere since stays").isEqualTo("chapter-0002 p3");
  }

  @Test
  void aPositionReadAfterTheStoredOneMovesIt() throws Exception {
    ReaderUnderTest.Session bea = user("bea");
    save(bea, "{\"chapter\": \"chapter-0001\", \"page\": 1}", 200);
    String later = Instant.now().plusSeconds(60).toString();
    JsonObject answer = save(bea, "{\"chapter\": \"chapter-0002\", \"page\": 2, \"at\": \"" + later + "\"}", 200);

    assertThat(answer.getBoolean("moved")).as(answer.encode()).isTrue();
    JsonObject progress = series(bea).getJsonObject("progress");
    assertThat(progress.getString("chapter") + " p" + progress.getInteger("page")).isEqualTo("chapter-0002 p2");
  }

  @Test
  void positionsQueuedOfflineAndSentInReadingOrderEndAtTheLastOneRead() throws Exception {
    ReaderUnderTest.Session eve = user("eve");
    Instant read = Instant.now().minusSeconds(1_200);
    save(eve, "{\"chapter\": \"chapter-0001\", \"page\": 3, \"at\": \"" + read + "\"}", 200);
    JsonObject answer = save(eve, "{\"chapter\": \"chapter-0002\", \"page\": 2, \"at\": \""
        + read.plusSeconds(300) + "\"}", 200);

    assertThat(answer.getBoolean("moved")).as(answer.encode()).isTrue();
    JsonObject moon = series(eve);
    assertThat(moon.getJsonObject("progress").getString("chapter") + " p" + moon.getJsonObject("progress")
        .getInteger("page")).isEqualTo("chapter-0002 p2");
    assertThat(moon.getJsonArray("chapters").getJsonObject(0).getString("state")).isEqualTo("read");
  }

  @Test
  void aChapterFinishedBeforeTheStoredPositionIsStillMarkedRead() throws Exception {
    ReaderUnderTest.Session cid = user("cid");
    save(cid, "{\"chapter\": \"chapter-0002\", \"page\": 1}", 200);
    String earlier = Instant.now().minusSeconds(600).toString();
    JsonObject answer = save(cid, "{\"chapter\": \"chapter-0001\", \"page\": 3, \"at\": \"" + earlier + "\"}", 200);

    assertThat(answer.getBoolean("chapterRead")).as(answer.encode()).isTrue();
    JsonObject moon = series(cid);
    assertThat(moon.getJsonArray("chapters").getJsonObject(0).getString("state")).isEqualTo("read");
    assertThat(moon.getJsonObject("progress").getString("chapter")).isEqualTo("chapter-0002");
  }

  @Test
  void anAtThatIsNoInstantIsRefused() throws Exception {
    ReaderUnderTest.Session dee = user("dee");
    JsonObject answer = save(dee, "{\"chapter\": \"chapter-0001\", \"page\": 1, \"at\": \"yesterday\"}", 400);
    assertThat(answer.getString("message")).contains("ISO-8601");
  }

  private ReaderUnderTest.Session user(String name) throws Exception {
    reader.createReader(admin, name, name + "-reads-on-the-train");
    return reader.login(name, name + "-reads-on-the-train");
  }

  private JsonObject save(ReaderUnderTest.Session session, String body, int status) throws Exception {
    HttpResponse<String> answer = reader.text(as(session, reader.request("PUT", "/api/progress/moon", body)));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
    return new JsonObject(answer.body());
  }

  private JsonObject series(ReaderUnderTest.Session session) throws Exception {
    HttpResponse<String> answer = reader.text(as(session, reader.get("/api/series/moon")));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return new JsonObject(answer.body());
  }
}
