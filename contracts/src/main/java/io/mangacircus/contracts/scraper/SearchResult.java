package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * One title a search found. It carries no {@code v}: the reply around it does.
 *
 * @param source source name
 * @param titleId the source's title id (what {@code mc.scraper.jobs.add} and the preview take)
 * @param title the title's name
 * @param altTitles other names, maybe empty
 * @param year year of first publication, or null
 * @param status e.g. {@code ongoing}, {@code completed}, or null
 * @param languages languages chapters are available in, maybe empty when unknown
 * @param chapterCount chapters, where cheap to know, else null
 * @param coverId opaque cover id for {@code mc.scraper.covers.fetch}, or null
 * @param url the title's page on the source, or null
 */
public record SearchResult(String source, String titleId, String title, List<String> altTitles, Integer year,
    String status, List<String> languages, Integer chapterCount, String coverId, String url) {

  public SearchResult {
    altTitles = List.copyOf(altTitles);
    languages = List.copyOf(languages);
  }

  public JsonObject toJson() {
    return new JsonObject().put("source", source).put("titleId", titleId).put("title", title)
        .put("altTitles", new JsonArray(altTitles)).put("year", year).put("status", status)
        .put("languages", new JsonArray(languages)).put("chapterCount", chapterCount).put("coverId", coverId)
        .put("url", url);
  }

  /** Parses one result; throws {@link InvalidMessageException} when it does not match. */
  public static SearchResult fromJson(Object body) {
    String type = "SearchResult";
    JsonObject json = MessageFields.object(body, type);
    return new SearchResult(MessageFields.string(json, type, "source"), MessageFields.string(json, type, "titleId"),
        MessageFields.text(json, type, "title"), MessageFields.strings(json, type, "altTitles"),
        MessageFields.optionalInt(json, type, "year"), MessageFields.optionalString(json, type, "status"),
        MessageFields.strings(json, type, "languages"), MessageFields.optionalInt(json, type, "chapterCount"),
        MessageFields.optionalString(json, type, "coverId"), MessageFields.optionalString(json, type, "url"));
  }
}
