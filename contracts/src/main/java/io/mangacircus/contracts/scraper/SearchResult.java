package io.mangacircus.contracts.scraper;

import io.mangacircus.contracts.InvalidMessageException;
import io.mangacircus.contracts.MessageFields;
import io.mangacircus.contracts.MessageJson;
import io.mangacircus.contracts.MessagePart;
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
    String status, List<String> languages, Integer chapterCount, String coverId, String url) implements MessagePart {

  public SearchResult {
    MessageFields.required(SearchResult.class, "source", source);
    MessageFields.required(SearchResult.class, "titleId", titleId);
    altTitles = MessageFields.list(SearchResult.class, "altTitles", altTitles);
    languages = MessageFields.list(SearchResult.class, "languages", languages);
  }

  /** Parses one result; throws {@link InvalidMessageException} when it does not match. */
  public static SearchResult fromJson(Object body) {
    return MessageJson.read(body, SearchResult.class);
  }
}
