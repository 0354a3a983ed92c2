package io.mangacircus.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class OperatorOperationTest {

  @Test
  void everyOperationAddressIsAnAddressesConstantOfTheScraper() throws Exception {
    Set<Object> declared = Arrays.stream(Addresses.class.getFields())
        .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == String.class)
        .map(OperatorOperationTest::value).collect(Collectors.toSet());
    for (OperatorOperation operation : OperatorOperation.values()) {
      assertThat(declared).as(operation.name()).contains(operation.address());
      assertThat(operation.address()).startsWith("mc.scraper.").isNotIn(Addresses.SCRAPER_PING,
          Addresses.SCRAPER_DOWNLOADS_YIELD);
      assertThat(operation.path()).startsWith("/api/admin/");
    }
  }

  private static Object value(Field field) {
    try {
      return field.get(null);
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }
}
