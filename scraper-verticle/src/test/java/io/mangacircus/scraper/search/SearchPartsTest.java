package io.mangacircus.scraper.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.testing.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The search service's plain parts: its pacing, its cache and its cover ids, on a clock the test moves. */
class SearchPartsTest {

  private final MutableClock clock = new MutableClock();

  @Test
  void requestsToOneSourceLeaveAtLeastThePageDelayApartAndOtherSourcesDoNotWait() {
    SearchPacing pacing = new SearchPacing(clock);
    Duration delay = Duration.ofMillis(800);

    assertThat(pacing.reserve("md", delay)).isZero();
    assertThat(pacing.reserve("md", delay)).isEqualTo(delay);
    assertThat(pacing.reserve("md", delay)).isEqualTo(delay.multipliedBy(2));
    assertThat(pacing.reserve("site", delay)).isZero();
    clock.advance(Duration.ofSeconds(5));
    assertThat(pacing.reserve("md", delay)).as("a quiet source sends at once").isZero();
  }

  @Test
  void aCachedAnswerExpiresAfterItsTimeAndTheLeastUsedGoesFirst() {
    TimedCache<String, String> cache = new TimedCache<>(clock, Duration.ofMinutes(5), 2);
    cache.put("a", "1");
    cache.put("b", "2");
    cache.get("a");
    cache.put("c", "3");

    assertThat(cache.get("b")).as("least used, dropped").isEmpty();
    assertThat(cache.get("a")).contains("1");
    clock.advance(Duration.ofMinutes(5));
    assertThat(cache.get("a")).isEmpty();
  }

  @Test
  void aCoverIdIsStableOpaqueAndValidOnlyForItsSource() {
    CoverIds ids = new CoverIds(2);
    String id = ids.idOf("md", "https://uploads.mangadex.org/covers/x/y.jpg.256.jpg");

    assertThat(id).matches("[A-Za-z0-9_-]{32}").isEqualTo(ids.idOf("md",
        "https://uploads.mangadex.org/covers/x/y.jpg.256.jpg"));
    assertThat(ids.cover("md", id)).hasValueSatisfying(c -> assertThat(c.url()).endsWith("y.jpg.256.jpg"));
    assertThat(ids.cover("site", id)).isEmpty();
    assertThat(ids.idOf("md", null)).isNull();
    ids.idOf("md", "https://a/1");
    ids.idOf("md", "https://a/2");
    assertThat(ids.cover("md", id)).as("bounded: the oldest is forgotten").isEmpty();
  }

  @Test
  void onlyImageBytesCountAsACover() {
    assertThat(TitleSearch.imageType(new byte[] {(byte) 0xff, (byte) 0xd8, (byte) 0xff, 0})).isEqualTo("image/jpeg");
    assertThat(TitleSearch.imageType("RIFF0000WEBPVP8 ".getBytes())).isEqualTo("image/webp");
    assertThat(TitleSearch.imageType("<html>".getBytes())).isNull();
    assertThat(TitleSearch.normalised("  Star   FALL ")).isEqualTo("star fall");
  }
}
