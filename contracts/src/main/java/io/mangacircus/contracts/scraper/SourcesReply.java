package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The reply of {@code mc.scraper.sources.list}: {@code {v, sources:[{name, type, canSearch, circuit, titlePage}]}},
 * in configuration order.
 *
 * @param sources every configured source
 */
public record SourcesReply(List<Source> sources) {

  public static final int VERSION = 1;

  private static final String TYPE = "SourcesReply";

  private static final Set<String> CIRCUITS = Set.of("closed", "half_open", "open");

  public SourcesReply {
    sources = List.copyOf(sources);
  }

  /**
   * One source.
   *
   * @param name source name
   * @param type source type ({@code mangadex}, {@code html}, {@code local}, {@code demo})
   * @param canSearch whether {@code mc.scraper.titles.search} can search it
   * @param circuit {@code closed}, {@code half_open} or {@code open}
   * @param titlePage the address of a title's page on the source's site, {@code {titleId}} standing for the title id;
   *     null when titles have no page there by their id (absent from older scrapers' replies)
   */
  public record Source(String name, String type, boolean canSearch, String circuit, String titlePage) {

    /** A source without a title page address. */
    public Source(String name, String type, boolean canSearch, String circuit) {
      this(name, type, canSearch, circuit, null);
    }

    public JsonObject toJson() {
      return new JsonObject().put("name", name).put("type", type).put("canSearch", canSearch).put("circuit", circuit)
          .put("titlePage", titlePage);
    }

    /** Parses one source; throws {@link InvalidMessageException} when it does not match. */
    public static Source fromJson(Object body) {
      String type = "SourcesReply.Source";
      JsonObject json = MessageFields.object(body, type);
      String circuit = MessageFields.string(json, type, "circuit");
      if (!CIRCUITS.contains(circuit)) {
        throw new InvalidMessageException(io.mangacircus.contracts.ErrorCode.MALFORMED_MESSAGE,
            type + ": field 'circuit' must be closed, half_open or open, got '" + circuit + "'");
      }
      return new Source(MessageFields.string(json, type, "name"), MessageFields.string(json, type, "type"),
          MessageFields.bool(json, type, "canSearch"), circuit, MessageFields.optionalString(json, type, "titlePage"));
    }
  }

  public JsonObject toJson() {
    JsonArray list = new JsonArray();
    sources.forEach(source -> list.add(source.toJson()));
    return new JsonObject().put("v", VERSION).put("sources", list);
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static SourcesReply fromJson(Object body) {
    JsonObject json = MessageFields.object(body, TYPE);
    MessageFields.requireVersion(json, TYPE, VERSION);
    List<Source> sources = new ArrayList<>();
    for (Object entry : MessageFields.array(json, TYPE, "sources")) {
      sources.add(Source.fromJson(entry));
    }
    return new SourcesReply(sources);
  }
}
