package io.mangacircus.reader.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;

/**
 * How both engines keep the catalog's lists (a series' tags, a collection's series) in one text column: a JSON array
 * of strings, written and read alike so that rows copy verbatim from one engine to the other.
 */
public final class CatalogColumns {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final TypeReference<List<String>> STRINGS = new TypeReference<>() { };

  private CatalogColumns() {
  }

  /** The column value of a list. */
  public static String list(List<String> values) {
    try {
      return MAPPER.writeValueAsString(values);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a list of strings always writes as JSON", e);
    }
  }

  /** The list a column value holds. */
  public static List<String> list(String column) throws StoreException {
    try {
      return List.copyOf(MAPPER.readValue(column, STRINGS));
    } catch (JsonProcessingException e) {
      throw new StoreException("a catalog list column is not a JSON array of strings: " + e.getOriginalMessage(), e);
    }
  }
}
