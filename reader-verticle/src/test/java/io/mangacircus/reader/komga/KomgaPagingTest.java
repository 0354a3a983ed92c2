package io.mangacircus.reader.komga;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class KomgaPagingTest {

  private static final List<Integer> FIFTY = java.util.stream.IntStream.range(0, 50).boxed().toList();

  @Test
  void pagesCountFromZeroWithKomgasDefaultSize() {
    JsonObject second = KomgaPaging.parse("1", null, null).paging()
        .answer(FIFTY, n -> new JsonObject().put("n", n));

    assertThat(second.getJsonArray("content").getJsonObject(0).getInteger("n")).isEqualTo(20);
    assertThat(second.getInteger("numberOfElements")).isEqualTo(20);
    assertThat(second.getBoolean("first")).isFalse();
    assertThat(second.getBoolean("last")).isFalse();
    assertThat(second.getInteger("totalPages")).isEqualTo(3);
    assertThat(second.getInteger("totalElements")).isEqualTo(50);
  }

  @Test
  void unpagedIsEverythingOnOnePage() {
    JsonObject all = KomgaPaging.parse("3", "5", "true").paging().answer(FIFTY, n -> new JsonObject());

    assertThat(all.getJsonArray("content")).hasSize(50);
    assertThat(all.getBoolean("first")).isTrue();
    assertThat(all.getBoolean("last")).isTrue();
    assertThat(all.getInteger("totalPages")).isEqualTo(1);
  }

  @Test
  void negativeHugeOrNonNumericPagingIsRefused() {
    assertThat(KomgaPaging.parse("-1", null, null).problem()).isNotNull();
    assertThat(KomgaPaging.parse(null, "100000", null).problem()).isNotNull();
    assertThat(KomgaPaging.parse("x", null, null).problem()).isNotNull();
    assertThat(KomgaPaging.parse(null, "0", null).problem()).isNotNull();
  }
}
