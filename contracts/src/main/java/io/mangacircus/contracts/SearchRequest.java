package io.mangacircus.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Searches titles by name ({@code mc.scraper.titles.search}).
 *
 * @param source the source to search, or null for every source that can search
 * @param query what to look for, trimmed, 1..200 characters
 * @param limit the most results per source, 1..50
 */
public record SearchRequest(String source, String query, int limit) implements Message {

  public static final int VERSION = 1;

  /** The limit of a request that names none. */
  public static final int DEFAULT_LIMIT = 20;

  /** The longest query. */
  public static final int MAX_QUERY = 200;

  /** The largest limit. */
  public static final int MAX_LIMIT = 50;

  public SearchRequest {
    if (source != null) {
      MessageFields.operatorText(SearchRequest.class, "source", source);
    }
    query = MessageFields.operatorText(SearchRequest.class, "query", query).trim();
    MessageFields.atMost(SearchRequest.class, "query", query, MAX_QUERY);
    MessageFields.within(SearchRequest.class, "limit", limit, 1, MAX_LIMIT);
  }

  /** A body without {@code limit} asks for {@link #DEFAULT_LIMIT}. */
  @JsonCreator
  static SearchRequest read(@JsonProperty("source") String source, @JsonProperty("query") String query,
      @JsonProperty("limit") Integer limit) {
    return new SearchRequest(source, query, limit == null ? DEFAULT_LIMIT : limit);
  }

  public static SearchRequest fromJson(Object body) {
    return MessageJson.read(body, SearchRequest.class, VERSION);
  }
}
