package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.Message;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;
import java.util.List;

/**
 * The reply of {@code mc.scraper.titles.search}: {@code {v, query, results:[SearchResult], problems:[SourceProblem]}};
 * results grouped by source in configuration order, each source's in its own relevance order.
 *
 * @param query the query as searched (trimmed)
 * @param results what the sources found
 * @param problems sources that gave nothing, and why
 */
public record SearchReply(String query, List<SearchResult> results, List<SourceProblem> problems) implements Message {

  public static final int VERSION = 1;

  public SearchReply {
    MessageFields.required(SearchReply.class, "query", query);
    results = MessageFields.list(SearchReply.class, "results", results);
    problems = MessageFields.list(SearchReply.class, "problems", problems);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static SearchReply fromJson(Object body) {
    return MessageJson.read(body, SearchReply.class, VERSION);
  }
}
