package io.mangacircus.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.library.ChapterManifest;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChapterPublishedTest {

  private static final ChapterManifest MANIFEST = new ChapterManifest(ChapterManifest.SCHEMA, "demo", "t1",
      "Circus Nights", "c1", "1", "", "en", "f".repeat(64), Instant.parse("2026-01-02T03:04:05Z"),
      List.of(new ChapterManifest.Page(1, "001.jpg", 10, "ab"), new ChapterManifest.Page(2, "002.jpg", 11, "cd")));

  @Test
  void theEventCarriesTheManifestItsPlaceAndItsSequenceNumber() {
    ChapterPublished event = new ChapterPublished("scraper-1", 7, "circus-nights", "circus-nights/chapter-0001",
        MANIFEST);

    ChapterPublished back = ChapterPublished.fromJson(event.toJson());

    assertThat(back).isEqualTo(event);
    assertThat(back.chapterFolder()).isEqualTo("chapter-0001");
    assertThat(event.toJson().getInteger("v")).isEqualTo(2);
    assertThat(event.toJson().getInteger("pages")).isEqualTo(2);
  }

  @Test
  void theEventsManifestIsTheChapterJsonObjectAndCrossesTheWireAsIt() {
    ChapterPublished event = new ChapterPublished("scraper-1", 7, "circus-nights", "circus-nights/chapter-0001",
        MANIFEST);
    io.vertx.core.json.JsonObject fromFile = new io.vertx.core.json.JsonObject(MANIFEST.toJsonText());

    io.vertx.core.json.JsonObject carried = event.toJson().getJsonObject("manifest");

    assertThat(carried).isEqualTo(fromFile);
    assertThat(carried.encode()).isEqualTo(fromFile.encode());
    assertThat(carried.getJsonArray("pages").getJsonObject(1).getLong("size")).isEqualTo(11L);
    // what the clustered bus and a consumer's copy see: the same event after a round trip through text and a copy
    assertThat(ChapterPublished.fromJson(new io.vertx.core.json.JsonObject(event.toJson().encode()))).isEqualTo(event);
    assertThat(ChapterPublished.fromJson(event.toJson().copy())).isEqualTo(event);
  }

  @Test
  void aPathOutsideItsSeriesOrAnInvalidManifestIsRefused() {
    assertThatThrownBy(() -> ChapterPublished.fromJson(new ChapterPublished("s", 1, "circus-nights",
        "circus-nights/../../etc", MANIFEST).toJson())).isInstanceOf(InvalidMessageException.class);
    assertThatThrownBy(() -> ChapterPublished.fromJson(new ChapterPublished("s", 1, "circus-nights",
        "other/chapter-0001", MANIFEST).toJson())).isInstanceOf(InvalidMessageException.class);
    assertThatThrownBy(() -> ChapterPublished.fromJson(new ChapterPublished("s", 1, "a", "a/chapter-0001", MANIFEST)
        .toJson().put("manifest", new io.vertx.core.json.JsonObject().put("schema", 9))))
        .hasMessageContaining("chapter.json has schema 9");
  }
}
