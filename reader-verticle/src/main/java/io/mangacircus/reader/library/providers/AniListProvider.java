package io.mangacircus.reader.library.providers;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.library.metadata.SeriesMetadata;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * AniList's GraphQL API ({@code POST {query, variables}}): manga searched by title, one by id. Sends the title or the
 * id and nothing else; 90 requests a minute at most (AniList's published limit), paced by its client.
 */
public final class AniListProvider implements MetadataProvider {

  public static final String NAME = "anilist";

  /** The fields asked for, in the search and the details alike. */
  private static final String FIELDS = "id siteUrl title { romaji english native } synonyms description(asHtml: false)"
      + " genres tags { name isMediaSpoiler } status startDate { year } isAdult countryOfOrigin"
      + " staff(sort: RELEVANCE, perPage: 10) { edges { role node { name { full } } } }";
  static final String SEARCH = "query ($search: String, $perPage: Int) { Page(page: 1, perPage: $perPage) {"
      + " media(search: $search, type: MANGA) { " + FIELDS + " } } }";
  static final String DETAILS = "query ($id: Int) { Media(id: $id, type: MANGA) { " + FIELDS + " } }";
  /** Candidates asked for per search. */
  static final int PER_PAGE = 8;

  private final PacedJsonClient client;
  private final String url;

  /** @param url the GraphQL endpoint ({@code reader.metadataProviders.anilistUrl}) */
  public AniListProvider(PacedJsonClient client, String url) {
    this.client = client;
    this.url = url;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Future<List<ProviderEntry>> search(String title) {
    JsonObject body = new JsonObject().put("query", SEARCH)
        .put("variables", new JsonObject().put("search", title).put("perPage", PER_PAGE));
    return client.post(url, body).map(answer -> {
      JsonArray media = answer.map(a -> a.getJsonObject("data")).map(d -> d.getJsonObject("Page"))
          .map(p -> p.getJsonArray("media")).orElse(new JsonArray());
      List<ProviderEntry> entries = new ArrayList<>();
      for (Object m : media) {
        if (m instanceof JsonObject o) {
          entries.add(entry(o));
        }
      }
      return entries;
    });
  }

  @Override
  public Future<Optional<ProviderEntry>> details(String id) {
    int number;
    try {
      number = Integer.parseInt(id);
    } catch (NumberFormatException e) {
      return Future.succeededFuture(Optional.empty());
    }
    JsonObject body = new JsonObject().put("query", DETAILS).put("variables", new JsonObject().put("id", number));
    // AniList answers an unknown id with 404 and {"data": {"Media": null}, "errors": [...]}.
    return client.post(url, body).map(answer -> answer.map(a -> a.getJsonObject("data"))
        .map(d -> d.getJsonObject("Media")).map(AniListProvider::entry));
  }

  static ProviderEntry entry(JsonObject media) {
    JsonObject title = media.getJsonObject("title", new JsonObject());
    List<String> titles = new ArrayList<>();
    titles.add(title.getString("romaji"));
    titles.add(title.getString("english"));
    titles.add(title.getString("native"));
    strings(media.getJsonArray("synonyms")).forEach(titles::add);
    List<String> tags = new ArrayList<>();
    for (Object t : media.getJsonArray("tags", new JsonArray())) {
      if (t instanceof JsonObject tag && !tag.getBoolean("isMediaSpoiler", false) && tag.getString("name") != null) {
        tags.add(tag.getString("name"));
      }
    }
    List<SeriesMetadata.Author> authors = new ArrayList<>();
    JsonObject staff = media.getJsonObject("staff", new JsonObject());
    for (Object e : staff.getJsonArray("edges", new JsonArray())) {
      if (e instanceof JsonObject edge) {
        String name = Optional.ofNullable(edge.getJsonObject("node")).map(n -> n.getJsonObject("name"))
            .map(n -> n.getString("full")).orElse(null);
        if (name != null && !name.isBlank()) {
          roles(edge.getString("role")).forEach(role -> authors.add(new SeriesMetadata.Author(name, role)));
        }
      }
    }
    String site = media.getString("siteUrl");
    Integer year = Optional.ofNullable(media.getJsonObject("startDate")).map(d -> d.getInteger("year")).orElse(null);
    String main = titles.stream().filter(t -> t != null && !t.isBlank()).findFirst().orElse(null);
    SeriesMetadata metadata = new SeriesMetadata(title.getString("english") != null ? title.getString("english")
        : main, ProviderText.plain(media.getString("description")), authors, strings(media.getJsonArray("genres")),
        tags, media.getBoolean("isAdult", false) ? AgeRating.EIGHTEEN_PLUS : AgeRating.UNRATED, null,
        site == null ? List.of() : List.of(site), year, status(media.getString("status")), null);
    return new ProviderEntry(NAME, String.valueOf(media.getValue("id")), site, titles, metadata);
  }

  /** AniList's MediaStatus; NOT_YET_RELEASED is no status a reader has. */
  static SeriesMetadata.Status status(String status) {
    if (status == null) {
      return null;
    }
    return switch (status) {
      case "RELEASING" -> SeriesMetadata.Status.ONGOING;
      case "FINISHED" -> SeriesMetadata.Status.COMPLETED;
      case "HIATUS" -> SeriesMetadata.Status.HIATUS;
      case "CANCELLED" -> SeriesMetadata.Status.CANCELLED;
      default -> null;
    };
  }

  /** A staff role as AniList writes it ("Story & Art", "Story", "Art", "Original Story") as the record's roles. */
  static List<SeriesMetadata.Role> roles(String role) {
    if (role == null) {
      return List.of();
    }
    String r = role.toLowerCase(java.util.Locale.ROOT);
    if (r.startsWith("story & art")) {
      return List.of(SeriesMetadata.Role.WRITER, SeriesMetadata.Role.PENCILLER);
    }
    if (r.startsWith("story") || r.startsWith("original story") || r.startsWith("original creator")) {
      return List.of(SeriesMetadata.Role.WRITER);
    }
    if (r.startsWith("art")) {
      return List.of(SeriesMetadata.Role.PENCILLER);
    }
    if (r.startsWith("translator")) {
      return List.of(SeriesMetadata.Role.TRANSLATOR);
    }
    if (r.startsWith("lettering")) {
      return List.of(SeriesMetadata.Role.LETTERER);
    }
    return List.of();
  }

  private static List<String> strings(JsonArray array) {
    List<String> out = new ArrayList<>();
    if (array != null) {
      for (Object o : array) {
        if (o instanceof String s && !s.isBlank() && out.stream().noneMatch(s::equalsIgnoreCase)) {
          out.add(s);
        }
      }
    }
    return out;
  }
}
