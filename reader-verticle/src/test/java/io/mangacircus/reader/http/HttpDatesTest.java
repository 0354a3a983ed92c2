package io.mangacircus.reader.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.ext.web.impl.Utils;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class HttpDatesTest {

  @Test
  void formatsAsVertxWebDoesToTheSecond() {
    Instant published = Instant.parse("2026-11-20T10:00:00.750Z");

    assertThat(HttpDates.format(published)).isEqualTo("Fri, 20 Nov 2026 10:00:00 GMT")
        .isEqualTo(Utils.formatRFC1123DateTime(published.toEpochMilli()));
    assertThat(HttpDates.format(Instant.parse("2026-12-02T03:04:05Z"))).isEqualTo("Wed, 2 Dec 2026 03:04:05 GMT")
        .isEqualTo(Utils.formatRFC1123DateTime(Instant.parse("2026-12-02T03:04:05Z").toEpochMilli()));
  }

  @Test
  void aRepublishedChapterGetsItsNewDateNotTheOldOnesKeptText() {
    Instant first = Instant.parse("2026-11-20T10:00:00Z");
    // 256 s later falls in the same slot of the table: the kept text of the first must not answer for it.
    Instant republished = first.plusSeconds(256);

    assertThat(HttpDates.format(first)).isEqualTo("Fri, 20 Nov 2026 10:00:00 GMT");
    assertThat(HttpDates.format(republished)).isEqualTo("Fri, 20 Nov 2026 10:04:16 GMT");
    assertThat(HttpDates.format(first)).isEqualTo("Fri, 20 Nov 2026 10:00:00 GMT");
    assertThat(HttpDates.format(first.plusMillis(999))).as("the same second").isEqualTo("Fri, 20 Nov 2026 10:00:00 GMT");
    assertThat(HttpDates.format(first.plusSeconds(1))).isEqualTo("Fri, 20 Nov 2026 10:00:01 GMT");
  }
}
