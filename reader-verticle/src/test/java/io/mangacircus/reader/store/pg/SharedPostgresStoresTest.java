package io.mangacircus.reader.store.pg;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.ReaderStores;
import io.mangacircus.reader.store.StoreEngines;
import io.mangacircus.testing.TestPostgres;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two readers on one PostgreSQL database, each with its own Vert.x and pool: what one writes, the other reads at
 * once (nothing is kept in memory per reader), and one's account change reaches the other's sessions.
 */
class SharedPostgresStoresTest {

  private final Instant now = Instant.parse("2026-11-29T10:00:00Z");
  private final Vertx vertxA = Vertx.vertx();
  private final Vertx vertxB = Vertx.vertx();

  @AfterEach
  void closeVertx() {
    vertxA.close().await();
    vertxB.close().await();
  }

  @Test
  void progressAndSessionsWrittenThroughOneReaderAreReadThroughTheOtherAtOnce() throws Exception {
    PostgresTarget target = StoreEngines.target(TestPostgres.freshDatabase());
    try (ReaderStores a = ReaderStores.openPostgres(vertxA, target);
        ReaderStores b = ReaderStores.openPostgres(vertxB, target)) {
      long rita = a.users().createUser("rita", "hash", "reader", now);
      a.sessions().createSession("cookie", rita, "csrf", now, now.plus(Duration.ofHours(1)));
      assertThat(b.progress().progress(rita)).as("B's reading, read before A writes").isEmpty();
      a.progress().saveProgress(rita, "moon", "chapter-0002", 4, false, now);
      assertThat(b.progress().progress(rita)).extracting(p -> p.series() + " " + p.page()).containsExactly("moon 4");

      assertThat(a.progress().readChapters(rita)).as("A's read chapters, read before B writes").isEmpty();
      b.progress().saveProgress(rita, "sun", "chapter-0001", 9, true, now.plusSeconds(1));
      assertThat(a.progress().readChapters(rita)).isEqualTo(Map.of("sun", Set.of("chapter-0001")));

      assertThat(b.sessions().session("cookie", now)).hasValueSatisfying(
          s -> assertThat(s.username()).isEqualTo("rita"));
      b.users().setDisabled("rita", true);
      assertThat(a.sessions().session("cookie", now)).isEmpty();
    }
  }
}
