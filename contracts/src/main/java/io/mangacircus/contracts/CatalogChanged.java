package io.mangacircus.contracts;

/**
 * Published on {@link Addresses#READER_CATALOG_CHANGED} by a reader whose admin changed the catalog (series metadata,
 * a collection or its cover), so that the other readers of the cluster read the catalog from the database again at
 * once. It names nothing changed: a receiver reads the whole catalog.
 *
 * @param from the publishing reader's instance id (a reader ignores its own publications)
 */
public record CatalogChanged(String from) implements Message {

  /** The message version this record reads and writes. */
  public static final int VERSION = 1;

  public CatalogChanged {
    MessageFields.nonBlank(CatalogChanged.class, "from", from);
    MessageFields.atMost(CatalogChanged.class, "from", from, 100);
  }

  /** Parses a body; throws {@link InvalidMessageException} when it does not match the contract. */
  public static CatalogChanged fromJson(Object body) {
    return MessageJson.read(body, CatalogChanged.class, VERSION);
  }
}
