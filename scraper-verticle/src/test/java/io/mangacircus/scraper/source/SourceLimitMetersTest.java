package io.mangacircus.scraper.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SourceLimitMetersTest {

  /** A source whose limits the test sets. */
  private static final class Limited implements Source {
    volatile SourceLimits limits = SourceLimits.NONE;

    @Override
    public String name() {
      return "mangadex";
    }

    @Override
    public Future<FetchOutcome<TitleInfo>> title(String titleRef) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Future<FetchOutcome<PageBytes>> page(PageRef page) {
      throw new UnsupportedOperationException();
    }

    @Override
    public SourceLimits limits() {
      return limits;
    }
  }

  @Test
  void theLearnedRateTheHoldsAndTheRefusalsAreReadEachTimeTheyAreScraped() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Limited source = new Limited();
    SourceLimitMeters.register(registry, Map.of("mangadex", source));

    source.limits = new SourceLimits(Instant.ofEpochSecond(1_800_000_000L), "waiting for MangaDex's at-home limit", 3,
        2, 1.0, 4.0);

    assertThat(registry.get("mc.source.rate.limit.rps").tag("source", "mangadex").gauge().value()).isEqualTo(1.0);
    assertThat(registry.get("mc.source.holds").functionCounter().count()).isEqualTo(3);
    assertThat(registry.get("mc.source.refused").functionCounter().count()).isEqualTo(2);
    assertThat(registry.get("mc.source.hold.until").gauge().value()).isEqualTo(1_800_000_000.0);
  }
}
