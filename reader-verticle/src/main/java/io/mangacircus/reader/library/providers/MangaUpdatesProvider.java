package io.mangacircus.reader.library.providers;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.library.metadata.SeriesMetadata;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * MangaUpdates' public API v1: {@code POST /v1/series/search} with the title, {@code GET /v1/series/{id}} for one
 * series. Sends the title or the id and nothing else; one request a second at most (MangaUpdates publishes no limit:
 * a polite pace), paced by its client.
 */
public final class MangaUpdatesProvider implements MetadataProvider {

  public static final String NAME = "mangaupdates";

  /** Candidates asked for per search. */
  static final int PER_PAGE = 8;
  /** Genres MangaUpdates uses for explicit series. */
  private static final Set<String> ADULT = Set.of("adult", "hentai", "smut");
  /** At most this many categories (MangaUpdates' user-voted tags, most voted first) are kept as tags. */
  static final int TAGS = 20;

  private final PacedJsonClient client;
  private final String base;

  /** @param base the API's base address ({@code reader.metadataProviders.mangaUpdatesUrl}), without {@code /v1} */
  public MangaUpdatesProvider(PacedJsonClient client, String base) {
    this.client = client;
    this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Future<List<ProviderEntry>> search(String title) {
    JsonObject body = new JsonObject().put("search", title).put("perpage", PER_PAGE);
    return client.post(base + "/v1/series/search", body).map(answer -> {
      List<ProviderEntry> entries = new ArrayList<>();
      for (Object r : answer.map(a -> a.getJsonArray("results")).orElse(new JsonArray())) {
        if (r instanceof JsonObject result && result.getJsonObject("record") != null) {
          JsonObject record = result.getJsonObject("record");
          ProviderEntry entry = entry(record);
          // hit_title is the title (often an associated one) the search matched: a title like any other.
          List<String> titles = new ArrayList<>(entry.titles());
          titles.add(result.getString("hit_title"));
          entries.add(new ProviderEntry(NAME, entry.id(), entry.url(), titles, entry.metadata()));
        }
      }
      return entries;
    });
  }

  @Override
  public Future<Optional<ProviderEntry>> details(String id) {
    if (!id.matches("[0-9]{1,20}")) {
      return Future.succeededFuture(Optional.empty());
    }
    return client.get(base + "/v1/series/" + id).map(answer -> answer.map(MangaUpdatesProvider::entry));
  }

  /** A search result's {@code record} or a series' details: the same field names, the details have more. */
  static ProviderEntry entry(JsonObject series) {
    List<String> titles = new ArrayList<>();
    titles.add(series.getString("title"));
    for (Object a : series.getJsonArray("associated", new JsonArray())) {
      if (a instanceof JsonObject associated) {
        titles.add(associated.getString("title"));
      }
    }
    List<String> genres = new ArrayList<>();
    for (Object g : series.getJsonArray("genres", new JsonArray())) {
      if (g instanceof JsonObject genre && genre.getString("genre") != null) {
        genres.add(genre.getString("genre"));
      }
    }
    List<JsonObject> categories = new ArrayList<>();
    for (Object c : series.getJsonArray("categories", new JsonArray())) {
      if (c instanceof JsonObject category && category.getString("category") != null) {
        categories.add(category);
      }
    }
    categories.sort((a, b) -> Integer.compare(b.getInteger("votes", 0), a.getInteger("votes", 0)));
    List<String> tags = categories.stream().limit(TAGS).map(c -> c.getString("category")).toList();
    List<SeriesMetadata.Author> authors = new ArrayList<>();
    for (Object a : series.getJsonArray("authors", new JsonArray())) {
      if (a instanceof JsonObject author && author.getString("name") != null && !author.getString("name").isBlank()) {
        SeriesMetadata.Role role = "Artist".equalsIgnoreCase(author.getString("type"))
            ? SeriesMetadata.Role.PENCILLER : SeriesMetadata.Role.WRITER;
        authors.add(new SeriesMetadata.Author(author.getString("name"), role));
      }
    }
    String url = series.getString("url");
    String publisher = null;
    for (Object p : series.getJsonArray("publishers", new JsonArray())) {
      if (p instanceof JsonObject pub && "Original".equals(pub.getString("type"))) {
        publisher = pub.getString("publisher_name");
        break;
      }
    }
    boolean adult = genres.stream().anyMatch(g -> ADULT.contains(g.toLowerCase(Locale.ROOT)));
    SeriesMetadata metadata = new SeriesMetadata(series.getString("title"),
        ProviderText.plain(series.getString("description")), authors, genres, tags,
        adult ? AgeRating.EIGHTEEN_PLUS : AgeRating.UNRATED, null, url == null ? List.of() : List.of(url),
        year(series.getValue("year")), status(series), publisher);
    return new ProviderEntry(NAME, String.valueOf(series.getValue("series_id")), url, titles, metadata);
  }

  /** MangaUpdates gives the year as text ("2019"). */
  private static Integer year(Object year) {
    if (year instanceof Number n) {
      return n.intValue();
    }
    if (year instanceof String s && s.trim().matches("[0-9]{4}")) {
      return Integer.parseInt(s.trim());
    }
    return null;
  }

  /** From {@code completed} and the free-text {@code status} ("10 Volumes (Ongoing)", "(Hiatus)", "(Cancelled)"). */
  static SeriesMetadata.Status status(JsonObject series) {
    String text = series.getString("status", "").toLowerCase(Locale.ROOT);
    if (text.contains("hiatus")) {
      return SeriesMetadata.Status.HIATUS;
    }
    if (text.contains("cancelled") || text.contains("discontinued")) {
      return SeriesMetadata.Status.CANCELLED;
    }
    if (series.getBoolean("completed", false) || text.contains("complete")) {
      return SeriesMetadata.Status.COMPLETED;
    }
    if (text.contains("ongoing")) {
      return SeriesMetadata.Status.ONGOING;
    }
    return null;
  }
}
