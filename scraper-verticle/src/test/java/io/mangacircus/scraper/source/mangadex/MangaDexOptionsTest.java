package io.mangacircus.scraper.source.mangadex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.InvalidConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MangaDexOptionsTest {

  private static final String KEY = "scraper.sources.md.options";

  @Test
  void noOptionsMeanTheDefaults() {
    assertThat(MangaDexOptions.of(KEY, Map.of())).isEqualTo(new MangaDexOptions(false, 500));
  }

  @Test
  void dataSaverAndFeedPageSizeAreRead() {
    assertThat(MangaDexOptions.of(KEY, Map.of("dataSaver", true, "feedPageSize", 100)))
        .isEqualTo(new MangaDexOptions(true, 100));
    assertThat(MangaDexOptions.of(KEY, Map.of("feedPageSize", 7L)).feedPageSize()).isEqualTo(7);
  }

  @Test
  void anUnknownOptionIsRefusedWithItsKeyAndTheKnownOnes() {
    assertThatThrownBy(() -> MangaDexOptions.of(KEY, Map.of("datasaver", true)))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageContaining(KEY + ".datasaver")
        .hasMessageContaining("dataSaver, feedPageSize")
        .satisfies(e -> assertThat(((InvalidConfigException) e).key()).isEqualTo(KEY + ".datasaver"));
  }

  @Test
  void aDataSaverThatIsNotABooleanIsRefused() {
    assertThatThrownBy(() -> MangaDexOptions.of(KEY, Map.of("dataSaver", "yes")))
        .isInstanceOf(InvalidConfigException.class).hasMessageContaining(KEY + ".dataSaver: must be true or false");
  }

  @Test
  void aFeedPageSizeOutsideTheApisRangeIsRefused() {
    for (Object bad : new Object[] {0, 501, -3, 2.5, "100"}) {
      assertThatThrownBy(() -> MangaDexOptions.of(KEY, Map.of("feedPageSize", bad)))
          .as("feedPageSize %s", bad)
          .isInstanceOf(InvalidConfigException.class).hasMessageContaining(KEY + ".feedPageSize");
    }
  }
}
