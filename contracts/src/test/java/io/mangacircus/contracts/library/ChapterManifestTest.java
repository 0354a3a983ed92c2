package io.mangacircus.contracts.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.rating.AgeRating;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChapterManifestTest {

  /** A chapter.json as written before the schema number existed: number as a JSON number, no language. */
  static final String OLD_SCHEMA = """
      {"source": "demo", "titleId": "t1", "series": "Circus Nights", "chapterId": "c7", "number": 7,
       "publishedAt": "2026-01-02T03:04:05Z", "pages": [{"index": 1, "file": "001.jpg"}, {"file": "002.png"}]}
      """;

  @TempDir
  Path dir;

  @Test
  void aManifestWrittenThenReadIsTheSame() throws Exception {
    ChapterManifest manifest = new ChapterManifest(ChapterManifest.SCHEMA, "demo", "t1", "Circus Nights", "c1", "1",
        "Opening", "en", "f".repeat(64), Instant.parse("2026-01-02T03:04:05Z"),
        List.of(new ChapterManifest.Page(1, "001.jpg", 10, "ab")));
    manifest.write(dir);
    assertThat(ChapterManifest.read(dir)).isEqualTo(manifest);
    assertThat(Files.readString(dir.resolve("chapter.json"))).contains("\"schema\" : 1");
  }

  @Test
  void chapterJsonIsWrittenPrettyWithEveryFieldInItsOrderAndNullsKept() {
    ChapterManifest full = new ChapterManifest(ChapterManifest.SCHEMA, "demo", "t1", "Circus \"Nights\"", "c1", "1",
        "Opening", "en", "f".repeat(64), Instant.parse("2026-01-02T03:04:05Z"),
        List.of(new ChapterManifest.Page(1, "001.jpg", 10, "ab"), new ChapterManifest.Page(2, "002.png",
            5_000_000_000L, "cd")));
    ChapterManifest bare = new ChapterManifest(ChapterManifest.SCHEMA, "demo", "t1", "S", "c2", "2", "", "ja", null,
        null, List.of());

    assertThat(new String(full.toBytes(), StandardCharsets.UTF_8)).isEqualTo("""
        {
          "schema" : %d,
          "source" : "demo",
          "titleId" : "t1",
          "series" : "Circus \\"Nights\\"",
          "chapterId" : "c1",
          "number" : "1",
          "title" : "Opening",
          "language" : "en",
          "fingerprint" : "%s",
          "publishedAt" : "2026-01-02T03:04:05Z",
          "pages" : [ {
            "index" : 1,
            "file" : "001.jpg",
            "size" : 10,
            "sha256" : "ab"
          }, {
            "index" : 2,
            "file" : "002.png",
            "size" : 5000000000,
            "sha256" : "cd"
          } ]
        }""".formatted(ChapterManifest.SCHEMA, "f".repeat(64)));
    assertThat(new String(bare.toBytes(), StandardCharsets.UTF_8)).isEqualTo("""
        {
          "schema" : %d,
          "source" : "demo",
          "titleId" : "t1",
          "series" : "S",
          "chapterId" : "c2",
          "number" : "2",
          "title" : "",
          "language" : "ja",
          "fingerprint" : null,
          "publishedAt" : null,
          "pages" : [ ]
        }""".formatted(ChapterManifest.SCHEMA));
  }

  @Test
  void aRatedManifestWrittenThenReadKeepsItsRatingAsACodeBeforeThePages() throws Exception {
    for (AgeRating rating : AgeRating.values()) {
      ChapterManifest manifest = new ChapterManifest(ChapterManifest.SCHEMA, "mangadex", "t1", "Circus Nights", "c1",
          "1", "", "en", "f".repeat(64), Instant.parse("2026-01-02T03:04:05Z"),
          List.of(new ChapterManifest.Page(1, "001.jpg", 10, "ab")), rating);
      manifest.write(dir);
      String text = Files.readString(dir.resolve("chapter.json"));

      assertThat(ChapterManifest.read(dir)).as(rating.name()).isEqualTo(manifest);
      assertThat(ChapterManifest.fromJson(new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(
          manifest.toMap())).ageRating()).as(rating.name()).isEqualTo(rating);
      if (rating.rated()) {
        assertThat(text).as(rating.name()).contains("\"publishedAt\" : \"2026-01-02T03:04:05Z\",\n  \"ageRating\" : \""
            + rating.code() + "\",\n  \"pages\"");
      } else {
        assertThat(text).doesNotContain("ageRating");
      }
    }
  }

  @Test
  void aManifestWithoutARatingIsUnratedAndStaysSchemaOne() throws Exception {
    ChapterManifest manifest = ChapterManifest.parse(("{\"schema\": 1, \"source\": \"demo\", \"titleId\": \"t1\", "
        + "\"pages\": [{\"file\": \"001.jpg\"}]}").getBytes(StandardCharsets.UTF_8));

    assertThat(manifest.ageRating()).isEqualTo(AgeRating.UNRATED);
    assertThat(ChapterManifest.parse(OLD_SCHEMA.getBytes(StandardCharsets.UTF_8)).ageRating())
        .isEqualTo(AgeRating.UNRATED);
    assertThat(ChapterManifest.SCHEMA).isEqualTo(1);
  }

  @Test
  void anUnknownOrMistypedRatingReadsAsUnratedAndRefusesNothing() throws Exception {
    for (String value : List.of("\"PG-13\"", "\"-12\"", "15", "null", "[\"18\"]", "\"\"")) {
      ChapterManifest manifest = ChapterManifest.parse(("{\"schema\": 1, \"ageRating\": " + value
          + ", \"pages\": [{\"file\": \"001.jpg\"}]}").getBytes(StandardCharsets.UTF_8));
      assertThat(manifest.ageRating()).as(value).isEqualTo(AgeRating.UNRATED);
    }
  }

  @Test
  void anOldSchemaFileIsMigratedOnRead() throws Exception {
    ChapterManifest manifest = ChapterManifest.parse(OLD_SCHEMA.getBytes(StandardCharsets.UTF_8));
    assertThat(manifest.schema()).isEqualTo(ChapterManifest.SCHEMA);
    assertThat(manifest.number()).isEqualTo("7");
    assertThat(manifest.language()).isEqualTo("en");
    assertThat(manifest.fingerprint()).isNull();
    assertThat(manifest.pages()).extracting(ChapterManifest.Page::index, ChapterManifest.Page::file)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(1, "001.jpg"), org.assertj.core.groups.Tuple.tuple(2,
            "002.png"));
    assertThat(manifest.publishedAt()).isEqualTo(Instant.parse("2026-01-02T03:04:05Z"));
  }

  @Test
  void aCorruptFileIsRefusedWithTheReasonAndNothingIsGuessed() {
    assertThatThrownBy(() -> ChapterManifest.parse("{\"source\": \"demo\", ".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(ChapterManifest.InvalidException.class).hasMessage("chapter.json is not valid JSON");
    assertThatThrownBy(() -> ChapterManifest.parse("[1]".getBytes(StandardCharsets.UTF_8)))
        .hasMessage("chapter.json is not a JSON object");
    assertThatThrownBy(() -> ChapterManifest.parse("{\"pages\": [{\"file\": \"../../etc/passwd\"}]}"
        .getBytes(StandardCharsets.UTF_8))).hasMessage("chapter.json names an unusable page file");
  }

  @Test
  void aNewerSchemaIsRefusedRatherThanMisread() {
    assertThatThrownBy(() -> ChapterManifest.parse("{\"schema\": 9, \"pages\": [{\"file\": \"001.jpg\"}]}"
        .getBytes(StandardCharsets.UTF_8))).hasMessage("chapter.json has schema 9, this version reads up to 1");
  }

  @Test
  void aForeignSourceIsReadButNamesAnotherChapter() throws Exception {
    ChapterManifest foreign = ChapterManifest.parse(OLD_SCHEMA.replace("\"demo\"", "\"mangadex\"")
        .getBytes(StandardCharsets.UTF_8));
    assertThat(foreign.names("demo", "t1", "c7")).isFalse();
    assertThat(foreign.names("mangadex", "t1", "c7")).isTrue();
    assertThat(foreign.holder()).isEqualTo("mangadex/t1 chapter c7");
  }

  @Test
  void aHandMadeFileWithoutOriginIsReadButHasNone() throws Exception {
    ChapterManifest manifest = ChapterManifest.parse("{\"schema\": 1, \"pages\": [{\"file\": \"001.jpg\"}]}"
        .getBytes(StandardCharsets.UTF_8));
    assertThat(manifest.hasOrigin()).isFalse();
    assertThat(manifest.series()).isEmpty();
  }
}
