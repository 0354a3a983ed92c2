package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.Message;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;
import java.util.List;

/**
 * The reply of {@code mc.scraper.incidents.list}: {@code {v, open, incidents:[IncidentView]}}, newest first.
 *
 * @param open incidents no operator retry or resume has cleared yet
 * @param incidents the kept incidents (at most 200), newest first
 */
public record IncidentsReply(long open, List<IncidentView> incidents) implements Message {

  public static final int VERSION = 1;

  public IncidentsReply {
    incidents = MessageFields.list(IncidentsReply.class, "incidents", incidents);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static IncidentsReply fromJson(Object body) {
    return MessageJson.read(body, IncidentsReply.class, VERSION);
  }
}
