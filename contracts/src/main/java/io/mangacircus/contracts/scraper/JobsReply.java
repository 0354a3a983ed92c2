package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reply of {@code mc.scraper.jobs.list}: {@code {v, jobs:[JobView], total, page?, size?, counts}}, in the order the
 * jobs were added. An unpaged request gets every job (of its state) and no {@code page}/{@code size}.
 *
 * @param jobs the jobs asked for (one page, or every job of the state asked for)
 * @param total how many jobs match the request's state filter (across every page)
 * @param page the page answered (1-based), or null for an unpaged request
 * @param size the page size answered, or null for an unpaged request
 * @param counts jobs per state in the whole queue, whatever the filter (states with no job are absent)
 */
public record JobsReply(List<JobView> jobs, int total, Integer page, Integer size, Map<String, Integer> counts) {

  public static final int VERSION = 1;

  private static final String TYPE = "JobsReply";

  public JobsReply {
    jobs = List.copyOf(jobs);
    counts = counts == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counts));
  }

  /** Every job, unpaged (the reply before paging). */
  public JobsReply(List<JobView> jobs) {
    this(jobs, jobs.size(), null, null, null);
  }

  public JsonObject toJson() {
    JsonArray list = new JsonArray();
    jobs.forEach(job -> list.add(job.toJson()));
    JsonObject json = new JsonObject().put("v", VERSION).put("jobs", list).put("total", total);
    if (page != null) {
      json.put("page", page).put("size", size);
    }
    JsonObject perState = new JsonObject();
    counts.forEach(perState::put);
    return json.put("counts", perState);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static JobsReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    MessageFields.requireVersion(json, TYPE, VERSION);
    List<JobView> jobs = new ArrayList<>();
    for (Object entry : MessageFields.array(json, TYPE, "jobs")) {
      jobs.add(JobView.fromJson(entry));
    }
    Integer total = MessageFields.optionalInt(json, TYPE, "total");
    Map<String, Integer> counts = new LinkedHashMap<>();
    JsonObject perState = MessageFields.optionalObject(json, TYPE, "counts");
    if (perState != null) {
      perState.forEach(entry -> counts.put(entry.getKey(), MessageFields.optionalInt(perState, TYPE, entry.getKey())));
    }
    return new JobsReply(jobs, total == null ? jobs.size() : total, MessageFields.optionalInt(json, TYPE, "page"),
        MessageFields.optionalInt(json, TYPE, "size"), counts);
  }
}
