package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The reply of {@code mc.scraper.titles.search}: {@code {v, query, results:[SearchResult], problems:[SourceProblem]}};
 * results grouped by source in configuration order, each source's in its own relevance order.
 *
 * @param query the query as searched (trimmed)
 * @param results what the sources found
 * @param problems sources that gave nothing, and why
 */
public record SearchReply(String query, List<SearchResult> results, List<SourceProblem> problems) {

  public static final int VERSION = 1;

  private static final String TYPE = "SearchReply";

  public SearchReply {
    results = List.copyOf(results);
    problems = List.copyOf(problems);
  }

  public JsonObject toJson() {
    JsonArray list = new JsonArray();
    results.forEach(result -> list.add(result.toJson()));
    JsonArray problemList = new JsonArray();
    problems.forEach(problem -> problemList.add(problem.toJson()));
    return new JsonObject().put("v", VERSION).put("query", query).put("results", list).put("problems", problemList);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static SearchReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    MessageFields.requireVersion(json, TYPE, VERSION);
    List<SearchResult> results = new ArrayList<>();
    for (Object entry : MessageFields.array(json, TYPE, "results")) {
      results.add(SearchResult.fromJson(entry));
    }
    List<SourceProblem> problems = new ArrayList<>();
    for (Object entry : MessageFields.array(json, TYPE, "problems")) {
      problems.add(SourceProblem.fromJson(entry));
    }
    return new SearchReply(MessageFields.text(json, TYPE, "query"), results, problems);
  }
}
