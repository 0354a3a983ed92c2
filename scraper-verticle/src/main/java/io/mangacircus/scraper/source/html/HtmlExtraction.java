package io.mangacircus.scraper.source.html;

import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.LanguageCode;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.TitleInfo;
import io.mangacircus.scraper.source.html.HtmlDefinition.Field;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;

/**
 * Applies a {@link HtmlDefinition} to parsed pages: the title and chapters of a title page (one page of its chapter
 * list), the page images of a chapter page, and the URLs in between. Pure: no I/O, no Vert.x. Whatever the HTML, the
 * answer is a value; a selector that matches nothing is a {@link FetchOutcome.ParseError} naming the selector, the
 * definition key and the page.
 */
public final class HtmlExtraction {

  /** More chapters than this on one title is not a chapter list. */
  static final int MAX_CHAPTERS = 5_000;
  /** More images than this on one chapter page is not a chapter. */
  static final int MAX_PAGES = 1_000;

  private static final int MAX_MATCHED_TEXT = 4_000;
  private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*");

  /**
   * One page of a title's chapter list.
   *
   * @param title the title's name (read on every page; the caller keeps the first page's)
   * @param chapters the chapters of this page, in the page's order
   * @param next the absolute URL of the next list page, or null when this is the last
   */
  public record ListPage(String title, List<ChapterInfo> chapters, String next) {
  }

  private final HtmlDefinition definition;
  private final Pattern titleId;
  private final Pattern chapterIdPattern;
  private final Pattern numberPattern;
  private final Pattern chapterTitlePattern;
  private final Pattern chapterLanguagePattern;
  private final Pattern titlePattern;
  private final HtmlSearchResults search;

  /** @param definition a definition checked by {@link HtmlDefinitions} */
  public HtmlExtraction(HtmlDefinition definition) {
    this.definition = definition;
    this.titleId = Pattern.compile(definition.titleIdPattern());
    this.chapterIdPattern = compile(definition.chapters().id());
    this.numberPattern = compile(definition.chapters().number());
    this.chapterTitlePattern = definition.chapters().title() == null ? null : compile(definition.chapters().title());
    this.chapterLanguagePattern = definition.chapters().language() == null ? null
        : compile(definition.chapters().language());
    this.titlePattern = compile(definition.title());
    this.search = definition.search() == null ? null : new HtmlSearchResults(this);
  }

  static Pattern compile(Field field) {
    return field.pattern() == null ? null : Pattern.compile(field.pattern());
  }

  public HtmlDefinition definition() {
    return definition;
  }

  // ---- ids and URLs -------------------------------------------------------------------------------------------

  /** The title id in a reference: the {@code id} group of {@code titleIdPattern}, or the reference itself. */
  public String titleIdOf(String titleRef) {
    String ref = titleRef.trim();
    Matcher m = titleId.matcher(ref.length() > MAX_MATCHED_TEXT ? ref.substring(0, MAX_MATCHED_TEXT) : ref);
    if (m.find() && m.group("id") != null && !m.group("id").isBlank()) {
      ref = m.group("id");
    }
    while (ref.endsWith("/")) {
      ref = ref.substring(0, ref.length() - 1);
    }
    return ref;
  }

  /** Whether an id can go into a URL path as it is: letters, digits, {@code ._~-} and inner slashes, no dot segments. */
  public static boolean usableId(String id) {
    if (id == null || id.isEmpty() || id.length() > 200 || !SAFE_ID.matcher(id).matches()) {
      return false;
    }
    for (String segment : id.split("/")) {
      if (segment.equals(".") || segment.equals("..")) {
        return false;
      }
    }
    return true;
  }

  /** The absolute URL of a title page. */
  public String titleUrl(String baseUrl, String titleId) {
    return baseUrl + definition.titleUrl().replace("{titleId}", titleId);
  }

  /** The absolute URL of a chapter page. */
  public String chapterUrl(String baseUrl, String titleId, String chapterId) {
    return baseUrl + definition.chapterUrl().replace("{chapterId}", chapterId).replace("{titleId}", titleId);
  }

  // ---- title pages --------------------------------------------------------------------------------------------

  /**
   * Reads one page of a title's chapter list.
   *
   * @param document the page, parsed with its URL as base URI
   * @param baseUrl the site root; a next-page link must stay on it
   */
  public FetchOutcome<ListPage> listPage(Document document, String baseUrl) {
    String where = where(document);
    Field titleField = definition.title();
    Element heading = document.selectFirst(titleField.selector());
    if (heading == null) {
      return nothing(titleField.selector(), "title.selector", where);
    }
    Optional<String> title = value(heading, titleField);
    if (title.isEmpty()) {
      return new FetchOutcome.ParseError<>(describeRead(titleField) + " of '" + titleField.selector()
          + "' (title) is empty on " + where);
    }
    String name = title.get();
    if (titlePattern != null) {
      Matcher m = titlePattern.matcher(cap(name));
      if (!m.find() || m.group("value") == null || m.group("value").isBlank()) {
        return new FetchOutcome.ParseError<>("pattern '" + titleField.pattern() + "' (title.pattern) did not match '"
            + shown(name) + "' on " + where);
      }
      name = m.group("value").trim();
    }

    String item = definition.chapters().item();
    Elements items = document.select(item);
    if (items.isEmpty()) {
      return nothing(item, "chapters.item", where);
    }
    if (items.size() > MAX_CHAPTERS) {
      return new FetchOutcome.ParseError<>("selector '" + item + "' (chapters.item) matched " + items.size()
          + " elements on " + where + ", more than " + MAX_CHAPTERS + " chapters");
    }
    List<ChapterInfo> chapters = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      String itemWhere = "item " + (i + 1) + " of '" + item + "' on " + where;
      Element element = items.get(i);
      FetchOutcome<String> id = read(element, definition.chapters().id(), chapterIdPattern, "chapters.id", itemWhere);
      if (!id.ok()) {
        return id.failure();
      }
      if (!usableId(id.value())) {
        return new FetchOutcome.ParseError<>("chapter id '" + shown(id.value()) + "' (chapters.id) in " + itemWhere
            + " cannot go into a URL (letters, digits, ._~- and inner slashes only)");
      }
      FetchOutcome<String> number = read(element, definition.chapters().number(), numberPattern, "chapters.number",
          itemWhere);
      if (!number.ok()) {
        return number.failure();
      }
      String chapterTitle = "";
      if (definition.chapters().title() != null) {
        FetchOutcome<String> read = read(element, definition.chapters().title(), chapterTitlePattern,
            "chapters.title", itemWhere);
        chapterTitle = read.ok() ? read.value() : "";
      }
      FetchOutcome<String> language = language(element, itemWhere);
      if (!language.ok()) {
        return language.failure();
      }
      chapters.add(new ChapterInfo(id.value(), number.value(), chapterTitle, language.value()));
    }

    String next = null;
    if (definition.chapters().pagination() != null) {
      Element link = document.selectFirst(definition.chapters().pagination().next());
      String href = link == null ? "" : link.attr("href").trim();
      if (!href.isEmpty()) {
        Optional<URI> resolved = resolve(document.baseUri(), href);
        if (resolved.isEmpty() || !sameSite(resolved.get(), baseUrl)) {
          return new FetchOutcome.ParseError<>("next-page link '" + shown(href) + "' (chapters.pagination.next) on "
              + where + " does not lead to a page of " + baseUrl);
        }
        next = resolved.get().toString();
      }
    }
    return new FetchOutcome.Ok<>(new ListPage(name, chapters, next));
  }

  /**
   * The title's chapters from all its list pages: the first listing of an id wins (pages may overlap), in reading
   * order ({@code chapters.order} newest-first lists are reversed).
   */
  public FetchOutcome<TitleInfo> titleInfo(String titleId, String title, List<ChapterInfo> listed) {
    Map<String, ChapterInfo> byId = new LinkedHashMap<>();
    listed.forEach(chapter -> byId.putIfAbsent(chapter.id(), chapter));
    if (byId.size() > MAX_CHAPTERS) {
      return new FetchOutcome.ParseError<>("title " + titleId + " lists " + byId.size() + " chapters, more than "
          + MAX_CHAPTERS);
    }
    List<ChapterInfo> chapters = new ArrayList<>(byId.values());
    if (HtmlDefinition.NEWEST_FIRST.equals(definition.chapters().order())) {
      Collections.reverse(chapters);
    }
    List<String> languages = chapters.stream().map(ChapterInfo::language).distinct().toList();
    return new FetchOutcome.Ok<>(new TitleInfo(titleId, title, chapters, languages));
  }

  /**
   * A chapter item's language: what {@code chapters.language} reads there as a language code, else (no such key, or
   * nothing read) the definition's language.
   */
  private FetchOutcome<String> language(Element item, String itemWhere) {
    Field field = definition.chapters().language();
    if (field == null) {
      return new FetchOutcome.Ok<>(definition.language());
    }
    Element element = field.selector().isEmpty() ? item : item.selectFirst(field.selector());
    Optional<String> raw = element == null ? Optional.empty() : value(element, field);
    if (raw.isPresent() && chapterLanguagePattern != null) {
      Matcher m = chapterLanguagePattern.matcher(cap(raw.get()));
      raw = m.find() && m.group("value") != null && !m.group("value").isBlank()
          ? Optional.of(m.group("value").trim()) : Optional.empty();
    }
    if (raw.isEmpty()) {
      return new FetchOutcome.Ok<>(definition.language());
    }
    Optional<String> code = LanguageCode.of(raw.get());
    if (code.isEmpty()) {
      return new FetchOutcome.ParseError<>("'" + shown(raw.get()) + "' (chapters.language) in " + itemWhere
          + " is not a language code such as en or pt-br");
    }
    return new FetchOutcome.Ok<>(code.get());
  }

  // ---- search -------------------------------------------------------------------------------------------------

  /** The absolute URL of the search results page for {@code query} (URL-encoded), or null without a search block. */
  public String searchUrl(String baseUrl, String query) {
    return search == null ? null : search.url(baseUrl, query);
  }

  /** Reads a search results page ({@link HtmlSearchResults#read}); only for a definition with a search block. */
  public FetchOutcome<List<io.mangacircus.scraper.source.TitleHit>> searchResults(Document document, String baseUrl,
      int limit) {
    return search.read(document, baseUrl, limit);
  }

  // ---- chapter pages ------------------------------------------------------------------------------------------

  /** Reads the page images of a chapter page, in order. */
  public FetchOutcome<List<PageRef>> pages(Document document) {
    String where = where(document);
    String selector = definition.pages().image();
    Elements images = document.select(selector);
    if (images.isEmpty()) {
      return nothing(selector, "pages.image", where);
    }
    if (images.size() > MAX_PAGES) {
      return new FetchOutcome.ParseError<>("selector '" + selector + "' (pages.image) matched " + images.size()
          + " elements on " + where + ", more than " + MAX_PAGES + " pages");
    }
    List<PageRef> pages = new ArrayList<>();
    for (Element image : images) {
      int index = pages.size() + 1;
      String src = definition.pages().attributes().stream().map(a -> image.attr(a).trim()).filter(s -> !s.isEmpty())
          .findFirst().orElse("");
      if (src.isEmpty()) {
        return new FetchOutcome.ParseError<>("image " + index + " of '" + selector + "' on " + where + " has none of "
            + String.join(", ", definition.pages().attributes()) + " (pages.attributes)");
      }
      Optional<URI> url = resolve(document.baseUri(), src);
      if (url.isEmpty()) {
        return new FetchOutcome.ParseError<>("image " + index + " of '" + selector + "' on " + where
            + " has an unusable URL '" + shown(src) + "'");
      }
      String path = url.get().getRawPath();
      pages.add(new PageRef(index, path == null || path.isEmpty() ? "page-" + index : path, url.get().toString()));
    }
    return new FetchOutcome.Ok<>(pages);
  }

  // ---- helpers ------------------------------------------------------------------------------------------------

  static FetchOutcome<String> read(Element item, Field field, Pattern pattern, String key, String itemWhere) {
    Element element = item;
    if (!field.selector().isEmpty()) {
      element = item.selectFirst(field.selector());
      if (element == null) {
        return new FetchOutcome.ParseError<>("selector '" + field.selector() + "' (" + key + ".selector) matched "
            + "nothing in " + itemWhere);
      }
    }
    Optional<String> raw = value(element, field);
    if (raw.isEmpty()) {
      return new FetchOutcome.ParseError<>(describeRead(field) + " (" + key + ") is empty in " + itemWhere);
    }
    if (pattern == null) {
      return new FetchOutcome.Ok<>(raw.get());
    }
    Matcher m = pattern.matcher(cap(raw.get()));
    if (!m.find() || m.group("value") == null || m.group("value").isBlank()) {
      return new FetchOutcome.ParseError<>("pattern '" + field.pattern() + "' (" + key + ".pattern) did not match '"
          + shown(raw.get()) + "' in " + itemWhere);
    }
    return new FetchOutcome.Ok<>(m.group("value").trim());
  }

  private static Optional<String> value(Element element, Field field) {
    String value = HtmlDefinition.TEXT.equals(field.attribute()) ? element.text() : element.attr(field.attribute());
    value = value.trim();
    return value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  private static String describeRead(Field field) {
    return HtmlDefinition.TEXT.equals(field.attribute()) ? "the text" : "attribute '" + field.attribute() + "'";
  }

  private static <T> FetchOutcome<T> nothing(String selector, String key, String where) {
    return new FetchOutcome.ParseError<>("selector '" + selector + "' (" + key + ") matched nothing on " + where);
  }

  /** The page's path and query, which is what an operator recognises in a message. */
  static String where(Document document) {
    String location = document.location();
    try {
      URI uri = new URI(location);
      String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
      return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    } catch (URISyntaxException e) {
      return location;
    }
  }

  /** An http(s) URL resolved against the page, or empty when it is not one. */
  static Optional<URI> resolve(String pageUrl, String reference) {
    if (reference.length() > 2_000) {
      return Optional.empty();
    }
    try {
      URL base = new URL(pageUrl);
      String relative = reference.replace(" ", "%20");
      // RFC 3986: a bare "?page=2" keeps the page's path; java.net resolves it against the parent folder.
      relative = relative.startsWith("?") ? base.getPath() + relative : relative;
      URI resolved = new URL(base, relative).toURI();
      String scheme = resolved.getScheme() == null ? "" : resolved.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https")) || resolved.getHost() == null) {
        return Optional.empty();
      }
      return Optional.of(resolved);
    } catch (URISyntaxException | MalformedURLException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static boolean sameSite(URI url, String baseUrl) {
    URI base = URI.create(baseUrl);
    return url.getScheme().equalsIgnoreCase(base.getScheme()) && url.getHost().equalsIgnoreCase(base.getHost())
        && port(url) == port(base);
  }

  private static int port(URI uri) {
    return uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }

  private static String cap(String text) {
    return text.length() > MAX_MATCHED_TEXT ? text.substring(0, MAX_MATCHED_TEXT) : text;
  }

  /** A value as quoted in a message: at most 120 characters, no line breaks. */
  static String shown(String text) {
    String flat = text.replaceAll("[\\r\\n\\t]+", " ");
    return flat.length() > 120 ? flat.substring(0, 120) + "…" : flat;
  }
}
