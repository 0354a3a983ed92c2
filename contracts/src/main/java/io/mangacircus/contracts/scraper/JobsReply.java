package io.mangacircus.contracts.scraper;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.Message;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reply of {@code mc.scraper.jobs.list}: {@code {v, jobs:[JobView], total, page?, size?, counts}}, in the order the
 * jobs were added. An unpaged request gets every job (of its state) and no {@code page}/{@code size}.
 *
 * @param jobs the jobs asked for (one page, or every job of the state asked for)
 * @param total how many jobs match the request's state filter (across every page)
 * @param page the page answered (1-based), or null (and absent) for an unpaged request
 * @param size the page size answered, or null (and absent) for an unpaged request
 * @param counts jobs per state in the whole queue, whatever the filter (states with no job are absent)
 */
public record JobsReply(List<JobView> jobs, int total, @JsonInclude(JsonInclude.Include.NON_NULL) Integer page,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer size, Map<String, Integer> counts) implements Message {

  public static final int VERSION = 1;

  public JobsReply {
    jobs = MessageFields.list(JobsReply.class, "jobs", jobs);
    counts = counts == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counts));
  }

  /** Every job, unpaged (the reply before paging). */
  public JobsReply(List<JobView> jobs) {
    this(jobs, jobs.size(), null, null, null);
  }

  /** A reply of a scraper from before paging has no {@code total}: it is the jobs the reply holds. */
  @JsonCreator
  static JobsReply read(@JsonProperty("jobs") List<JobView> jobs, @JsonProperty("total") Integer total,
      @JsonProperty("page") Integer page, @JsonProperty("size") Integer size,
      @JsonProperty("counts") Map<String, Integer> counts) {
    MessageFields.required(JobsReply.class, "jobs", jobs);
    return new JobsReply(jobs, total == null ? jobs.size() : total, page, size, counts);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static JobsReply fromJson(Object body) {
    return MessageJson.read(body, JobsReply.class, VERSION);
  }
}
