package io.mangacircus.scraper.source.html;

import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.TitleHit;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;

/** Applies a definition's {@code search} block to a results page. Pure, as {@link HtmlExtraction} is. */
final class HtmlSearchResults {

  private final HtmlExtraction extraction;
  private final HtmlDefinition.Search search;
  private final Pattern idPattern;
  private final Pattern titlePattern;
  private final Pattern coverPattern;

  /** @param extraction the definition's extraction; its definition has a search block */
  HtmlSearchResults(HtmlExtraction extraction) {
    this.extraction = extraction;
    this.search = extraction.definition().search();
    this.idPattern = HtmlExtraction.compile(search.id());
    this.titlePattern = HtmlExtraction.compile(search.title());
    this.coverPattern = search.cover() == null ? null : HtmlExtraction.compile(search.cover());
  }

  /** The absolute URL of the search results page for {@code query}, URL-encoded. */
  String url(String baseUrl, String query) {
    return baseUrl + search.url().replace("{query}", URLEncoder.encode(query, StandardCharsets.UTF_8));
  }

  /**
   * Reads a search results page: each {@code search.item} is a title (its id, name and, when configured, cover); no
   * item is no result. A result whose id cannot go into a URL is a parser failure.
   */
  FetchOutcome<List<TitleHit>> read(Document document, String baseUrl, int limit) {
    String where = HtmlExtraction.where(document);
    List<TitleHit> hits = new ArrayList<>();
    Elements items = document.select(search.item());
    for (int i = 0; i < items.size() && hits.size() < limit; i++) {
      String itemWhere = "item " + (i + 1) + " of '" + search.item() + "' on " + where;
      Element element = items.get(i);
      FetchOutcome<String> read = HtmlExtraction.read(element, search.id(), idPattern, "search.id", itemWhere);
      if (!read.ok()) {
        return read.failure();
      }
      String id = extraction.titleIdOf(read.value());
      if (!HtmlExtraction.usableId(id)) {
        return new FetchOutcome.ParseError<>("title id '" + HtmlExtraction.shown(id) + "' (search.id) in " + itemWhere
            + " cannot go into a URL (letters, digits, ._~- and inner slashes only)");
      }
      FetchOutcome<String> title = HtmlExtraction.read(element, search.title(), titlePattern, "search.title",
          itemWhere);
      if (!title.ok()) {
        return title.failure();
      }
      String cover = null;
      if (search.cover() != null) {
        FetchOutcome<String> src = HtmlExtraction.read(element, search.cover(), coverPattern, "search.cover",
            itemWhere);
        cover = src.ok() ? HtmlExtraction.resolve(document.baseUri(), src.value()).map(URI::toString).orElse(null)
            : null;
      }
      if (hits.stream().noneMatch(hit -> hit.titleId().equals(id))) {
        hits.add(new TitleHit(id, title.value(), List.of(), null, null, languages(), null, cover,
            extraction.titleUrl(baseUrl, id)));
      }
    }
    return new FetchOutcome.Ok<>(hits);
  }

  /** The definition's language, or none known when each chapter says its own (a results page does not say). */
  private List<String> languages() {
    HtmlDefinition definition = extraction.definition();
    return definition.chapters().language() == null ? List.of(definition.language()) : List.of();
  }
}
