package io.mangacircus.contracts;

import io.vertx.core.json.JsonObject;

/**
 * Searches titles by name ({@code mc.scraper.titles.search}).
 *
 * @param source the source to search, or null for every source that can search
 * @param query what to look for, trimmed, 1..200 characters
 * @param limit the most results per source, 1..50
 */
public record SearchRequest(String source, String query, int limit) {

  public static final int VERSION = 1;

  /** The limit of a request that names none. */
  public static final int DEFAULT_LIMIT = 20;

  /** The longest query. */
  public static final int MAX_QUERY = 200;

  /** The largest limit. */
  public static final int MAX_LIMIT = 50;

  public JsonObject toJson() {
    return new JsonObject().put("v", VERSION).put("source", source).put("query", query).put("limit", limit);
  }

  public static SearchRequest fromJson(Object body) {
    String type = "SearchRequest";
    JsonObject json = MessageFields.object(body, type);
    MessageFields.requireVersion(json, type, VERSION);
    Object source = json.getValue("source");
    if (source != null) {
      MessageFields.operatorString(json, type, "source");
    }
    String query = MessageFields.operatorString(json, type, "query").trim();
    if (query.length() > MAX_QUERY) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
          type + ": field 'query' is longer than " + MAX_QUERY + " characters");
    }
    Integer limit = MessageFields.optionalInt(json, type, "limit");
    if (limit != null && (limit < 1 || limit > MAX_LIMIT)) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE,
          type + ": field 'limit' must be between 1 and " + MAX_LIMIT + ", got " + limit);
    }
    return new SearchRequest((String) source, query, limit == null ? DEFAULT_LIMIT : limit);
  }
}
