package io.mangacircus.contracts;

import java.time.Instant;
import java.util.List;

/**
 * Published on {@link Addresses#SCRAPER_DISCOVERY_FINISHED} after a discovery pass queued its jobs.
 *
 * @param at when the pass ran
 * @param titles library titles looked at
 * @param queued the jobs it queued to look for new chapters
 * @param skipped titles it skipped
 */
public record DiscoveryFinished(Instant at, int titles, List<Queued> queued, int skipped) implements Message {

  public static final int VERSION = 1;

  /** One job a pass queued: its id and the title it looks at. */
  public record Queued(String jobId, String source, String titleId) {

    public Queued {
      MessageFields.nonBlank(Queued.class, "jobId", jobId);
      MessageFields.nonBlank(Queued.class, "source", source);
      MessageFields.nonBlank(Queued.class, "titleId", titleId);
    }
  }

  public DiscoveryFinished {
    MessageFields.required(DiscoveryFinished.class, "at", at);
    queued = MessageFields.list(DiscoveryFinished.class, "queued", queued);
  }

  public static DiscoveryFinished fromJson(Object body) {
    return MessageJson.read(body, DiscoveryFinished.class, VERSION);
  }
}
