package io.mangacircus.reader.library;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.library.SourceSeriesMetadata;
import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A downloaded series' source metadata (the {@code .mangacircus-source-metadata.json} the scraper keeps in its folder)
 * in the reader's series answer; a file that cannot be used is passed over and left as it is.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SourceMetadataRoutesTest {

  private static final byte[] BROKEN = "{\"schema\": 1, \"summary\": ".getBytes(StandardCharsets.UTF_8);

  @TempDir
  static Path data;

  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;

  @BeforeAll
  void start() throws Exception {
    LibraryFixture library = new LibraryFixture(data);
    Instant at = Instant.parse("2026-01-02T03:04:05Z");
    library.chapter("starfall", "Starfall", 1, 1, at);
    library.chapter("broken-file", "Broken File", 1, 1, at);
    new SourceSeriesMetadata(1, "mangadex", "5a1c0e2b-7c3d-4e8f-9a0b-1c2d3e4f5a01", "Starfall",
        "Stars fall on a quiet town.\nNobody minds.",
        List.of(new SourceSeriesMetadata.Author("Aoi Hoshino", "writer"),
            new SourceSeriesMetadata.Author("Ren Takeda", "penciller")),
        List.of("Action", "Drama"), List.of("Isekai"), "completed", 2019, "ja",
        List.of(new SourceSeriesMetadata.Link("anilist", "112233", "https://anilist.co/manga/112233"),
            new SourceSeriesMetadata.Link("myanimelist", "44556", "https://myanimelist.net/manga/44556")))
        .write(library.library().resolve("starfall"));
    Files.write(library.library().resolve("broken-file").resolve(SourceSeriesMetadata.FILE), BROKEN);
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
  }

  @AfterAll
  void stop() throws Exception {
    reader.close();
  }

  private JsonObject metadata(String series) throws Exception {
    HttpResponse<String> answer = reader.text(as(admin, reader.get("/api/series/" + series)));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return new JsonObject(answer.body()).getJsonObject("metadata");
  }

  @Test
  void aDownloadedSeriesAnswersWhatItsSourceSaysOfIt() throws Exception {
    JsonObject metadata = metadata("starfall");

    assertThat(metadata.getString("summary")).isEqualTo("Stars fall on a quiet town.\nNobody minds.");
    assertThat(metadata.getJsonArray("authors").getList()).containsExactly(
        java.util.Map.of("name", "Aoi Hoshino", "role", "writer"),
        java.util.Map.of("name", "Ren Takeda", "role", "penciller"));
    assertThat(metadata.getJsonArray("genres").getList()).containsExactly("Action", "Drama");
    assertThat(metadata.getJsonArray("tags").getList()).containsExactly("Isekai");
    assertThat(metadata.getString("status")).isEqualTo("completed");
    assertThat(metadata.getInteger("year")).isEqualTo(2019);
    assertThat(metadata.getJsonArray("links").getList()).containsExactly("https://anilist.co/manga/112233",
        "https://myanimelist.net/manga/44556");
    assertThat(metadata.getString("ageRating")).as("the source's file never rates a series").isEqualTo("unrated");
  }

  @Test
  void aFileThatDoesNotParseIsPassedOverAndLeftAsItIs() throws Exception {
    JsonObject metadata = metadata("broken-file");

    assertThat(metadata.getString("summary")).isNull();
    assertThat(metadata.getJsonArray("authors")).isEmpty();
    assertThat(Files.readAllBytes(data.resolve("library/broken-file").resolve(SourceSeriesMetadata.FILE)))
        .isEqualTo(BROKEN);
  }
}
