package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The reply of {@code mc.scraper.incidents.list}: {@code {v, open, incidents:[IncidentView]}}, newest first.
 *
 * @param open incidents no operator retry or resume has cleared yet
 * @param incidents the kept incidents (at most 200), newest first
 */
public record IncidentsReply(long open, List<IncidentView> incidents) {

  public static final int VERSION = 1;

  private static final String TYPE = "IncidentsReply";

  public IncidentsReply {
    incidents = List.copyOf(incidents);
  }

  public JsonObject toJson() {
    JsonArray list = new JsonArray();
    incidents.forEach(incident -> list.add(incident.toJson()));
    return new JsonObject().put("v", VERSION).put("open", open).put("incidents", list);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static IncidentsReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    MessageFields.requireVersion(json, TYPE, VERSION);
    List<IncidentView> incidents = new ArrayList<>();
    for (Object entry : MessageFields.array(json, TYPE, "incidents")) {
      incidents.add(IncidentView.fromJson(entry));
    }
    return new IncidentsReply(MessageFields.number(json, TYPE, "open"), incidents);
  }
}
