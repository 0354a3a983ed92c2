package io.mangacircus.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fast path answers as {@link Instant#parse} does, and only for the shape {@link Instant#toString} writes. */
class IsoInstantTest {

  @Test
  void everyInstantAsToStringWritesItIsReadBackOnTheFastPath() {
    Random random = new Random(18);
    for (int i = 0; i < 20_000; i++) {
      long second = random.nextLong(Instant.parse("0000-01-01T00:00:00Z").getEpochSecond(),
          Instant.parse("9999-12-31T23:59:59Z").getEpochSecond());
      int nanos = switch (i % 4) {
        case 0 -> 0;
        case 1 -> random.nextInt(1000) * 1_000_000;
        case 2 -> random.nextInt(1_000_000) * 1_000;
        default -> random.nextInt(1_000_000_000);
      };
      Instant instant = Instant.ofEpochSecond(second, nanos);
      String text = instant.toString();
      assertThat(IsoInstant.fast(text)).as(text).isEqualTo(instant);
      assertThat(IsoInstant.parse(text)).as(text).isEqualTo(Instant.parse(text));
    }
  }

  @Test
  void fractionsOfAnyLengthAndLeapDaysReadAsJavaTimeReadsThem() {
    for (String text : List.of("2026-12-02T13:55:29.4Z", "2026-12-02T13:55:29.46Z", "2026-12-02T13:55:29.4661Z",
        "2026-12-02T13:55:29.123456789Z", "2024-02-29T23:59:59Z", "2000-02-29T00:00:00.5Z", "1970-01-01T00:00:00Z")) {
      assertThat(IsoInstant.fast(text)).as(text).isNotNull().isEqualTo(Instant.parse(text));
    }
  }

  @Test
  void anythingElseIsLeftToJavaTimeWhichDecides() {
    // Other shapes java.time reads (a lower-case t, an offset, 24:00, a leap second...): its answer, not the fast path's.
    for (String text : List.of("2026-12-02t13:55:29z", "+12026-12-02T13:55:29Z", "2026-12-02T13:55Z",
        "2026-12-02T24:00:00Z", "2026-12-02T23:59:60Z", "2026-12-02T13:55:29.Z", "2026-12-02T13:55:29+01:00")) {
      assertThat(IsoInstant.fast(text)).as(text).isNull();
      assertThat(catching(() -> IsoInstant.parse(text))).as(text).isEqualTo(catching(() -> Instant.parse(text)));
    }
    // Dates and times that do not exist, and text that is no instant: refused as java.time refuses them.
    for (String text : List.of("2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-12-02T13:60:00Z", "2026-12-02T13:55:29.1234567890Z", "2026-12-0xT13:55:29Z", "2026-12-02 13:55:29Z", "",
        "yesterday")) {
      assertThat(IsoInstant.fast(text)).as(text).isNull();
      assertThatThrownBy(() -> IsoInstant.parse(text)).as(text).isInstanceOf(DateTimeParseException.class);
    }
  }

  private static Object catching(java.util.function.Supplier<Instant> parse) {
    try {
      return parse.get();
    } catch (DateTimeParseException e) {
      return DateTimeParseException.class;
    }
  }
}
