package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.Message;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;
import java.util.List;
import java.util.Set;

/**
 * The reply of {@code mc.scraper.sources.list}: {@code {v, sources:[{name, type, canSearch, circuit, titlePage}]}},
 * in configuration order.
 *
 * @param sources every configured source
 */
public record SourcesReply(List<Source> sources) implements Message {

  public static final int VERSION = 1;

  private static final Set<String> CIRCUITS = Set.of("closed", "half_open", "open");

  public SourcesReply {
    sources = MessageFields.list(SourcesReply.class, "sources", sources);
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

    public Source {
      MessageFields.nonBlank(Source.class, "name", name);
      MessageFields.nonBlank(Source.class, "type", type);
      if (!CIRCUITS.contains(MessageFields.nonBlank(Source.class, "circuit", circuit))) {
        throw MessageFields.refused(Source.class, "circuit", "must be closed, half_open or open, got '" + circuit + "'");
      }
    }
  }

  /** Parses a reply; throws {@link InvalidMessageException} when it does not match the contract. */
  public static SourcesReply fromJson(Object body) {
    return MessageJson.read(body, SourcesReply.class, VERSION);
  }
}
