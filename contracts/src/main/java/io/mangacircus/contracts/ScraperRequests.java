package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/** Bodies of the scraper's parameterless requests ({@code jobs.list}, {@code lanes.list}). */
public final class ScraperRequests {

  public static final int VERSION = 1;

  private ScraperRequests() {
  }

  /** The body of a list request: {@code {v:1}}. */
  public static JsonObject list() {
    return new JsonObject().put("v", VERSION);
  }

  /** Checks a list request's body. */
  public static Void checkList(Object body) {
    MessageJson.checkVersion(body, "ListRequest", VERSION);
    return null;
  }
}
