package io.mangacircus.reader.catalog;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An admin's age rating of a series, set through the catalog's series route against the real reader. */
class SeriesAgeRatingRoutesTest {

  private static final String SERIES = "/api/admin/catalog/series/moon";

  @TempDir
  Path data;

  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;

  @BeforeEach
  void start() throws Exception {
    new LibraryFixture(data).chapter("moon", "Moon Circus", 1, 1, Instant.parse("2026-01-02T03:04:05Z"));
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void anAdminsRatingIsKeptWhenOnlyTheDescriptionChangesAndRemovedByNull() throws Exception {
    HttpResponse<String> rated = put(new JsonObject().put("description", "Moons.").put("tags", new JsonArray())
        .put("ageRating", "15+"));
    assertThat(rated.statusCode()).as(rated.body()).isEqualTo(200);
    assertThat(new JsonObject(rated.body()).getString("ageRating")).isEqualTo("15");

    HttpResponse<String> described = put(new JsonObject().put("description", "More moons."));
    assertThat(new JsonObject(described.body()).getString("ageRating")).as("absent keeps it").isEqualTo("15");
    assertThat(storedRating()).as("in the database").isEqualTo("15");

    HttpResponse<String> cleared = put(new JsonObject().put("description", "More moons.").putNull("ageRating"));
    assertThat(new JsonObject(cleared.body()).getString("ageRating")).as("null removes it").isNull();
  }

  @Test
  void aRatingThatNamesNoLevelIsRefusedWithWhatIsAccepted() throws Exception {
    for (Object bad : new Object[] {"13", "pg", 12, ""}) {
      HttpResponse<String> answer = put(new JsonObject().put("description", "").put("ageRating", bad));
      assertThat(answer.statusCode()).as("%s: %s", bad, answer.body()).isEqualTo(400);
      assertThat(answer.body()).contains("all, 9, 12, 15, 18");
    }
    assertThat(storedRating()).isNull();
  }

  /** The admin's rating of the series as {@code reader.db} holds it, read beside the running reader. */
  private String storedRating() throws Exception {
    try (ReaderStores stores = ReaderStores.openSqlite(data.resolve("reader.db"))) {
      return stores.catalog().series("moon").ageRating();
    }
  }

  private HttpResponse<String> put(JsonObject body) throws Exception {
    return reader.text(as(admin, reader.request("PUT", SERIES, body.encode())));
  }
}
