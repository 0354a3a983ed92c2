package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.contracts.library.SourceSeriesMetadata;
import io.mangacircus.scraper.source.FetchOutcome;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A title's descriptive metadata from a {@code /manga/{id}} answer requested with {@code includes[]=author} and
 * {@code includes[]=artist}: description, authors and artists, genres and other tags by their group, status, year,
 * original language and the title's pages on other sites ({@code attributes.links}, MangaDex's keys turned into URLs).
 * Whatever is missing or malformed is left out; it never refuses an answer the rest of the inspection accepted.
 */
final class MangaDexDescription {

  /** MangaDex's link keys whose value is an id or slug, with our site name and the page it names. */
  private static final Map<String, Site> SITES = Map.of(
      "al", new Site("anilist", "https://anilist.co/manga/"),
      "mal", new Site("myanimelist", "https://myanimelist.net/manga/"),
      "kt", new Site("kitsu", "https://kitsu.app/manga/"),
      "ap", new Site("animeplanet", "https://www.anime-planet.com/manga/"),
      "nu", new Site("novelupdates", "https://www.novelupdates.com/series/"),
      "bw", new Site("bookwalker", "https://bookwalker.jp/"));

  /** MangaDex's link keys whose value is a full URL already, with our site name. */
  private static final Map<String, String> URL_SITES = Map.of("raw", "raw", "engtl", "official-english",
      "amz", "amazon", "ebj", "ebookjapan", "cdj", "cdjapan");

  /** The order links are listed in: trackers first, then shops and publishers. */
  private static final List<String> ORDER = List.of("al", "mal", "mu", "kt", "ap", "nu", "raw", "engtl", "bw", "amz",
      "ebj", "cdj");

  /** What an id or slug may hold to be put into a URL as it is. */
  private static final java.util.regex.Pattern PLAIN_ID = java.util.regex.Pattern.compile("[A-Za-z0-9._~/-]{1,200}");

  private record Site(String name, String prefix) {
  }

  private MangaDexDescription() {
  }

  /** The metadata of a {@code /manga/{id}} answer for source {@code source}; null when it names no title. */
  static SourceSeriesMetadata of(String source, JsonObject answer) {
    if (!(answer.getValue("data") instanceof JsonObject data) || !(data.getValue("id") instanceof String id)
        || !(data.getValue("attributes") instanceof JsonObject a)) {
      return null;
    }
    FetchOutcome<String> title = MangaDexJson.title(answer, "title");
    List<String> genres = new ArrayList<>();
    List<String> tags = new ArrayList<>();
    if (a.getValue("tags") instanceof io.vertx.core.json.JsonArray list) {
      for (Object tag : list) {
        if (tag instanceof JsonObject t && t.getValue("attributes") instanceof JsonObject ta
            && ta.getValue("name") instanceof JsonObject names) {
          String name = MangaDexJson.localised(names);
          List<String> into = "genre".equals(ta.getValue("group")) ? genres : tags;
          if (!name.isEmpty() && !into.contains(name)) {
            into.add(name);
          }
        }
      }
    }
    return new SourceSeriesMetadata(SourceSeriesMetadata.SCHEMA, source, id.toLowerCase(Locale.ROOT),
        title.ok() ? title.value() : null,
        a.getValue("description") instanceof JsonObject d ? MangaDexJson.localised(d) : null,
        authors(data), genres, tags, a.getValue("status") instanceof String status ? status : null,
        a.getValue("year") instanceof Number year && year.intValue() > 0 ? year.intValue() : null,
        a.getValue("originalLanguage") instanceof String language ? language : null,
        links(a.getValue("links")));
  }

  /** Authors as writers, then artists as pencillers, each name once per role; relationships without a name are left out. */
  private static List<SourceSeriesMetadata.Author> authors(JsonObject data) {
    List<SourceSeriesMetadata.Author> authors = new ArrayList<>();
    for (String[] type : new String[][] {{"author", "writer"}, {"artist", "penciller"}}) {
      for (JsonObject relation : MangaDexJson.relationships(data, type[0])) {
        if (relation.getValue("attributes") instanceof JsonObject ra && ra.getValue("name") instanceof String name
            && !name.isBlank()) {
          SourceSeriesMetadata.Author author = new SourceSeriesMetadata.Author(name.strip(), type[1]);
          if (!authors.contains(author)) {
            authors.add(author);
          }
        }
      }
    }
    return authors;
  }

  /** The title's pages on other sites, the known keys only, in {@link #ORDER}. */
  private static List<SourceSeriesMetadata.Link> links(Object value) {
    List<SourceSeriesMetadata.Link> links = new ArrayList<>();
    if (!(value instanceof JsonObject byKey)) {
      return links;
    }
    for (String key : ORDER) {
      if (!(byKey.getValue(key) instanceof String raw) || raw.isBlank() || raw.strip().matches(".*\\s.*")) {
        continue;
      }
      String id = raw.strip();
      boolean plainId = PLAIN_ID.matcher(id).matches() && !id.contains("..");
      if (!plainId && !URL_SITES.containsKey(key)) {
        continue;
      }
      if (key.equals("mu")) {
        // MangaUpdates' old numeric ids have their own page; its current ids are base-36 texts.
        links.add(new SourceSeriesMetadata.Link("mangaupdates", id, id.matches("\\d+")
            ? "https://www.mangaupdates.com/series.html?id=" + id : "https://www.mangaupdates.com/series/" + id));
      } else if (SITES.containsKey(key)) {
        links.add(new SourceSeriesMetadata.Link(SITES.get(key).name(), id, SITES.get(key).prefix() + id));
      } else if (id.startsWith("https://") || id.startsWith("http://")) {
        links.add(new SourceSeriesMetadata.Link(URL_SITES.get(key), id, id));
      }
    }
    return links;
  }
}
