package io.mangacircus.reader.komga;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The {@code page} (from 0), {@code size} and {@code unpaged} query parameters of a Komga list, and the Spring page
 * object it answers with ({@code content, empty, first, last, number, numberOfElements, size, totalElements,
 * totalPages}). No Vert.x routing.
 *
 * @param page from 0
 * @param size items per page; 0 with {@code unpaged}
 */
public record KomgaPaging(int page, int size) {

  /** Items per page when the request names no size, as Komga's default. */
  public static final int DEFAULT_SIZE = 20;

  /** The largest page a request may ask for. */
  public static final int MAX_SIZE = 500;

  /** Parsed paging, or why the parameters are refused. */
  public record Parsed(KomgaPaging paging, String problem) {
  }

  /** Whether every item is on the one page ({@code unpaged=true}). */
  public boolean unpaged() {
    return size == 0;
  }

  /** Reads the parameters as sent (null when absent). */
  public static Parsed parse(String page, String size, String unpaged) {
    if ("true".equalsIgnoreCase(unpaged)) {
      return new Parsed(new KomgaPaging(0, 0), null);
    }
    try {
      int p = page == null || page.isEmpty() ? 0 : Integer.parseInt(page);
      int s = size == null || size.isEmpty() ? DEFAULT_SIZE : Integer.parseInt(size);
      if (p >= 0 && s >= 1 && s <= MAX_SIZE) {
        return new Parsed(new KomgaPaging(p, s), null);
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    return new Parsed(null, "page is a whole number from 0 and size one from 1 to " + MAX_SIZE);
  }

  /** This page of {@code all} as a Spring page object, each item made by {@code shape}. */
  public <T> JsonObject answer(List<T> all, java.util.function.Function<T, JsonObject> shape) {
    int total = all.size();
    int perPage = unpaged() ? Math.max(total, 1) : size;
    long from = Math.min((long) page * perPage, total);
    List<T> shown = all.subList((int) from, (int) Math.min(from + perPage, total));
    JsonArray content = new JsonArray();
    shown.forEach(item -> content.add(shape.apply(item)));
    int totalPages = unpaged() ? 1 : (total + perPage - 1) / perPage;
    return new JsonObject().put("content", content).put("empty", shown.isEmpty()).put("first", page == 0)
        .put("last", (long) (page + 1) * perPage >= total).put("number", page)
        .put("numberOfElements", shown.size()).put("size", unpaged() ? total : size)
        .put("totalElements", total).put("totalPages", totalPages);
  }
}
