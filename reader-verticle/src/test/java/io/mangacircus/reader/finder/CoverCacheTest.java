package io.mangacircus.reader.finder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoverCacheTest {

  @TempDir
  Path dir;

  @Test
  void theCacheKeepsAtMostItsBoundAndDropsTheLeastRecentlyUsedFirst() throws Exception {
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    CoverCache cache = new CoverCache(dir.resolve("covers"), 2, clock);
    cache.put("mangadex", "a", "image/png", new byte[] {1});
    clock.advance(Duration.ofSeconds(10));
    cache.put("mangadex", "b", "image/jpeg", new byte[] {2});
    clock.advance(Duration.ofSeconds(10));
    assertThat(cache.get("mangadex", "a")).isPresent(); // a is now more recent than b
    clock.advance(Duration.ofSeconds(10));

    cache.put("mangadex", "c", "image/webp", new byte[] {3});

    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.get("mangadex", "b")).isEmpty();
    assertThat(cache.get("mangadex", "a").orElseThrow().contentType()).isEqualTo("image/png");
    assertThat(cache.get("mangadex", "c").orElseThrow().bytes()).containsExactly(3);
  }

  @Test
  void coverIdsNeverBecomePathsAndTheSameIdOfAnotherSourceIsAnotherCover() throws Exception {
    CoverCache cache = new CoverCache(dir.resolve("covers"), 10, new MutableClock());
    cache.put("mangadex", "../../reader.db", "image/png", new byte[] {1});
    cache.put("pill", "../../reader.db", "image/png", new byte[] {2});

    try (Stream<Path> files = Files.list(dir.resolve("covers"))) {
      assertThat(files.map(p -> p.getFileName().toString())).hasSize(2).allMatch(n -> n.matches("c-[0-9a-f]{40}\\.png"));
    }
    assertThat(dir.resolve("reader.db")).doesNotExist();
    assertThat(cache.get("pill", "../../reader.db").orElseThrow().bytes()).containsExactly(2);
  }

  @Test
  void onlyImageTypesAreKept() {
    CoverCache cache = new CoverCache(dir.resolve("covers"), 10, new MutableClock());
    assertThat(CoverCache.imageType("image/JPG; charset=binary")).hasValue("image/jpeg");
    assertThat(CoverCache.imageType("text/html")).isEmpty();
    assertThat(CoverCache.imageType("image/svg+xml")).isEmpty();
    assertThatThrownBy(() -> cache.put("m", "a", "text/html", new byte[] {1}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(dir.resolve("covers")).doesNotExist();
  }
}
