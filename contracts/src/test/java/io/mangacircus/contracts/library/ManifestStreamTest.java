package io.mangacircus.contracts.library;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.rating.AgeRating;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The streaming read of chapter.json answers exactly as the tree read: same manifest, same refusal, same reason. */
class ManifestStreamTest {

  private static final String USUAL = new ChapterManifest(ChapterManifest.SCHEMA, "demo", "t1", "Circus Nights", "c1",
      "1", "Opening", "en", "f".repeat(64), Instant.parse("2026-01-02T03:04:05Z"),
      List.of(new ChapterManifest.Page(1, "001.jpg", 10, "ab"), new ChapterManifest.Page(2, "002.png", 20, "cd")))
      .toJsonText();

  /** Files of every shape met or feared: usual, old, odd, hostile, broken. */
  private static final List<String> FILES = List.of(USUAL,
      USUAL.replace("\"schema\" : 1", "\"schema\" : null"),
      USUAL.replace("\"schema\" : 1,", ""),
      USUAL.replace("\"schema\" : 1", "\"schema\" : 2"),
      USUAL.replace("\"schema\" : 1", "\"schema\" : \"1\""),
      USUAL.replace("\"schema\" : 1", "\"schema\" : -1"),
      USUAL.replace("\"schema\" : 1", "\"schema\" : 1.5"),
      USUAL.replace("\"schema\" : 1", "\"schema\" : 99999999999"),
      USUAL.replace("\"schema\" : 1", "\"schema\" : {\"a\": [1]}"),
      USUAL.replace("\"number\" : \"1\"", "\"number\" : 7"),
      USUAL.replace("\"number\" : \"1\"", "\"number\" : null"),
      USUAL.replace("\"title\" : \"Opening\"", "\"title\" : [\"x\"]"),
      USUAL.replace("\"language\" : \"en\"", "\"language\" : \"\""),
      USUAL.replace("\"language\" : \"en\"", "\"language\" : \"fr\""),
      USUAL.replace("\"fingerprint\" : \"" + "f".repeat(64) + "\"", "\"fingerprint\" : null"),
      USUAL.replace("\"fingerprint\" : \"" + "f".repeat(64) + "\"", "\"fingerprint\" : 5"),
      USUAL.replace("2026-01-02T03:04:05Z", "yesterday"),
      USUAL.replace("\"publishedAt\" : \"2026-01-02T03:04:05Z\"", "\"publishedAt\" : null"),
      USUAL.replace("\"schema\" : 1,", "\"published\" : \"2025-05-05T05:05:05Z\","),
      USUAL.replace("\"schema\" : 1,", "\"schema\" : 1, \"published\" : \"2025-05-05T05:05:05Z\","),
      USUAL.replace("\"schema\" : 1,", "\"published\" : null,"),
      USUAL.replace("\"source\" : \"demo\"", "\"source\" : \"demo\", \"source\" : \"other\""),
      USUAL.replace("\"source\" : \"demo\"", "\"extra\" : {\"deep\" : [1, {\"x\" : null}]}, \"source\" : \"demo\""),
      USUAL.replace("\"file\" : \"001.jpg\"", "\"file\" : \"../../etc/passwd\""),
      USUAL.replace("\"file\" : \"001.jpg\"", "\"file\" : \"\""),
      USUAL.replace("\"file\" : \"001.jpg\"", "\"file\" : null"),
      USUAL.replace("\"file\" : \"001.jpg\"", "\"file\" : 12"),
      USUAL.replace("\"file\" : \"001.jpg\"", "\"file\" : \"001.jpg\", \"file\" : \"003.jpg\""),
      USUAL.replace("\"file\" : \"001.jpg\"", "\"name\" : \"001.jpg\""),
      USUAL.replace("\"size\" : 10", "\"size\" : \"10\""),
      USUAL.replace("\"size\" : 10", "\"size\" : -3"),
      USUAL.replace("\"size\" : 10", "\"size\" : 1e3"),
      USUAL.replace("\"sha256\" : \"ab\"", "\"sha256\" : null"),
      USUAL.replace("\"sha256\" : \"ab\",", ""),
      USUAL.replace("\"index\" : 1", "\"index\" : 9, \"extra\" : [{}]"),
      USUAL.replace("\"pages\" :", "\"ageRating\" : \"15\", \"pages\" :"),
      USUAL.replace("\"pages\" :", "\"ageRating\" : \"18+\", \"pages\" :"),
      USUAL.replace("\"pages\" :", "\"ageRating\" : \"unrated\", \"pages\" :"),
      USUAL.replace("\"pages\" :", "\"ageRating\" : \"R18+\", \"pages\" :"),
      USUAL.replace("\"pages\" :", "\"ageRating\" : null, \"pages\" :"),
      USUAL.replace("\"pages\" :", "\"ageRating\" : 15, \"pages\" :"),
      USUAL.replace("\"pages\" :", "\"ageRating\" : \"12\", \"ageRating\" : \"18\", \"pages\" :"),
      "{\"pages\": {\"one\": {\"file\": \"001.jpg\"}}}",
      "{\"pages\": \"001.jpg\"}",
      "{\"pages\": null}",
      "{\"pages\": [\"001.jpg\"]}",
      "{\"pages\": [null]}",
      "{\"pages\": []}",
      "{}",
      "[1]",
      "\"text\"",
      "",
      "   ",
      "null",
      "{\"source\": \"demo\", ",
      "{\"pages\": [{\"file\": \"../x\"}], \"broken\": ",
      USUAL + " trailing garbage {",
      USUAL + "{}",
      "{\"source\": \"d\\u00e9mo\", \"series\": \"\\\"quoted\\\" \\ud83d\\ude00\", \"pages\": [{\"file\": \"001.jpg\"}]}",
      "{\"a\":" + "[".repeat(2000) + "]".repeat(2000) + ", \"pages\": [{\"file\": \"001.jpg\"}]}");

  @Test
  void everyFileIsReadOrRefusedExactlyAsTheTreeReadsIt() {
    for (String file : FILES) {
      byte[] bytes = file.getBytes(StandardCharsets.UTF_8);
      assertThat(outcome(() -> ChapterManifest.parse(bytes))).as(file)
          .isEqualTo(outcome(() -> ChapterManifest.parseTree(bytes)));
    }
  }

  @Test
  void anOutlineRefusesWhatTheFullReadRefusesAndKeepsTheCardsFields() {
    for (String file : FILES) {
      byte[] bytes = file.getBytes(StandardCharsets.UTF_8);
      String full = outcome(() -> ChapterManifest.parse(bytes));
      String outline = outcome(() -> ChapterManifest.parseOutline(bytes, bytes.length));
      assertThat(outline.startsWith("read")).as(file).isEqualTo(full.startsWith("read"));
      if (full.startsWith("refused")) {
        assertThat(outline).as(file).isEqualTo(full);
      } else {
        assertThat(card(outline(bytes))).as(file).isEqualTo(card(parsed(bytes)));
      }
    }
  }

  @Test
  void anOutlineOfTheUsualManifestLeavesOutWhatAListingDrops() throws Exception {
    byte[] bytes = USUAL.getBytes(StandardCharsets.UTF_8);

    ChapterManifest outline = ChapterManifest.parseOutline(bytes, bytes.length);

    assertThat(outline.pages()).extracting(ChapterManifest.Page::sha256).containsExactly("", "");
    assertThat(outline.chapterId()).isEmpty();
    assertThat(outline.fingerprint()).isNull();
    assertThat(card(outline)).isEqualTo(card(ChapterManifest.parse(bytes)));
  }

  /** What a listing keeps of a manifest: its card, the pages' files and sizes. */
  private static List<Object> card(ChapterManifest manifest) {
    return List.of(manifest.schema(), manifest.source(), manifest.titleId(), manifest.series(), manifest.number(),
        manifest.title(), String.valueOf(manifest.publishedAt()), manifest.ageRating(),
        manifest.pages().stream().map(p -> p.index() + " " + p.file() + " " + p.size()).toList());
  }

  private static ChapterManifest outline(byte[] bytes) {
    try {
      return ChapterManifest.parseOutline(bytes, bytes.length);
    } catch (ChapterManifest.InvalidException e) {
      throw new AssertionError(e);
    }
  }

  private static ChapterManifest parsed(byte[] bytes) {
    try {
      return ChapterManifest.parse(bytes);
    } catch (ChapterManifest.InvalidException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void theUsualManifestIsReadWithoutATree() {
    ChapterManifest streamed = ManifestStream.read(new ObjectMapper().getFactory(), USUAL.getBytes(
        StandardCharsets.UTF_8));

    assertThat(streamed).isNotNull().extracting(ChapterManifest::series, ChapterManifest::publishedAt)
        .containsExactly("Circus Nights", Instant.parse("2026-01-02T03:04:05Z"));
    assertThat(streamed.pages()).extracting(ChapterManifest.Page::file).containsExactly("001.jpg", "002.png");
  }

  @Test
  void aRatedManifestIsReadWithoutATreeAndItsOutlineKeepsTheRating() throws Exception {
    byte[] rated = USUAL.replace("\"pages\" :", "\"ageRating\" : \"15\", \"pages\" :")
        .getBytes(StandardCharsets.UTF_8);

    ChapterManifest streamed = ManifestStream.read(new ObjectMapper().getFactory(), rated);

    assertThat(streamed).isNotNull();
    assertThat(streamed.ageRating()).isEqualTo(AgeRating.FIFTEEN_PLUS);
    assertThat(ChapterManifest.parseOutline(rated, rated.length).ageRating()).isEqualTo(AgeRating.FIFTEEN_PLUS);
  }

  @Test
  void aPageFileNameIsAcceptedExactlyAsThePatternAcceptsIt() {
    java.util.regex.Pattern pattern = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
    for (String name : List.of("001.jpg", "a", "A-b_c.d", "", ".hidden", "-x", "_x", "a/b", "..", "a..b", "é.jpg",
        "a b", "a\n", "x".repeat(100), "x".repeat(101), "0", "Z.", "a\u0000")) {
      assertThat(ManifestStream.pageFile(name)).as(name).isEqualTo(pattern.matcher(name).matches());
    }
  }

  @Test
  void aManifestReadFromTheStartOfALargerBufferIsTheSame() throws Exception {
    byte[] usual = USUAL.getBytes(StandardCharsets.UTF_8);
    byte[] buffer = java.util.Arrays.copyOf(usual, usual.length + 100);
    java.util.Arrays.fill(buffer, usual.length, buffer.length, (byte) '{');

    assertThat(ChapterManifest.parse(buffer, usual.length)).isEqualTo(ChapterManifest.parse(usual));
    assertThat(outcome(() -> ChapterManifest.parse(buffer, 5))).isEqualTo("refused chapter.json is not valid JSON");
  }

  private interface Parse {
    ChapterManifest run() throws ChapterManifest.InvalidException;
  }

  private static String outcome(Parse parse) {
    try {
      return "read " + parse.run();
    } catch (ChapterManifest.InvalidException e) {
      return "refused " + e.getMessage();
    }
  }
}
