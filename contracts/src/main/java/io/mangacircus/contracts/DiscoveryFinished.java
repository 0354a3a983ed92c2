package io.mangacircus.contracts;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Published on {@link Addresses#SCRAPER_DISCOVERY_FINISHED} after a discovery pass queued its jobs.
 *
 * @param at when the pass ran
 * @param titles library titles looked at
 * @param queued the jobs it queued to look for new chapters
 * @param skipped titles it skipped
 */
public record DiscoveryFinished(Instant at, int titles, List<Queued> queued, int skipped) {

  public static final int VERSION = 1;

  /** One job a pass queued: its id and the title it looks at. */
  public record Queued(String jobId, String source, String titleId) {
  }

  public DiscoveryFinished {
    queued = List.copyOf(queued);
  }

  public JsonObject toJson() {
    JsonArray jobs = new JsonArray();
    queued.forEach(q -> jobs.add(new JsonObject().put("jobId", q.jobId()).put("source", q.source())
        .put("titleId", q.titleId())));
    return new JsonObject().put("v", VERSION).put("at", at.toString()).put("titles", titles).put("queued", jobs)
        .put("skipped", skipped);
  }

  public static DiscoveryFinished fromJson(Object body) {
    String type = "DiscoveryFinished";
    JsonObject json = MessageFields.object(body, type);
    MessageFields.requireVersion(json, type, VERSION);
    List<Queued> queued = new ArrayList<>();
    for (Object entry : MessageFields.array(json, type, "queued")) {
      JsonObject q = MessageFields.object(entry, type + ".queued");
      queued.add(new Queued(MessageFields.string(q, type, "jobId"), MessageFields.string(q, type, "source"),
          MessageFields.string(q, type, "titleId")));
    }
    Instant at;
    try {
      at = Instant.parse(MessageFields.string(json, type, "at"));
    } catch (java.time.format.DateTimeParseException e) {
      throw new InvalidMessageException(ErrorCode.MALFORMED_MESSAGE, type + ": field 'at' is not an ISO-8601 instant");
    }
    return new DiscoveryFinished(at, (int) MessageFields.number(json, type, "titles"), queued,
        (int) MessageFields.number(json, type, "skipped"));
  }
}
