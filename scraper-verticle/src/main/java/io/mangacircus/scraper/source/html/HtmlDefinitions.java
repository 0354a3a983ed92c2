package io.mangacircus.scraper.source.html;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.mangacircus.scraper.source.LanguageCode;
import io.mangacircus.scraper.source.html.HtmlDefinition.Chapters;
import io.mangacircus.scraper.source.html.HtmlDefinition.Field;
import io.mangacircus.scraper.source.html.HtmlDefinition.Pacing;
import io.mangacircus.scraper.source.html.HtmlDefinition.Pages;
import io.mangacircus.scraper.source.html.HtmlDefinition.Pagination;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;
import org.jsoup.select.Selector;

/**
 * Reads HTML source definitions from a file or the classpath and checks every key, so that a definition that
 * loads is one the adapter can run: selectors parse, regexes compile and have their named group, URLs and ranges
 * are sane. Unknown keys are refused. Returns the definition with its defaults filled in.
 */
public final class HtmlDefinitions {

  /** A definition reference naming a resource in the jar, e.g. {@code classpath:/sources/mangapill.json}. */
  public static final String CLASSPATH = "classpath:";

  private static final int MAX_FILE_BYTES = 1024 * 1024;
  private static final Pattern ATTRIBUTE = Pattern.compile("[A-Za-z_:][-A-Za-z0-9_:.]{0,63}");
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}]*)}");
  private static final Pattern BASE_URL = Pattern.compile("https?://[^\\s/?#@]+/?");
  private static final Pattern PREFIX = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");

  private HtmlDefinitions() {
  }

  /**
   * Loads a definition.
   *
   * @param reference {@code classpath:/sources/x.json}, or a file path; a relative path is resolved against
   *     {@code workingDir}
   * @throws InvalidDefinitionException naming {@code reference} and the key at fault
   */
  public static HtmlDefinition load(String reference, Path workingDir) {
    if (reference == null || reference.isBlank()) {
      throw new InvalidDefinitionException(String.valueOf(reference), "(file)", "no definition named");
    }
    return parse(read(reference, workingDir), reference);
  }

  /**
   * Parses and checks a definition's JSON.
   *
   * @param where how to name the definition in messages
   * @throws InvalidDefinitionException naming {@code where} and the key at fault
   */
  public static HtmlDefinition parse(byte[] json, String where) {
    HtmlDefinition raw;
    try {
      raw = mapper().readValue(json, HtmlDefinition.class);
    } catch (UnrecognizedPropertyException e) {
      String known = e.getKnownPropertyIds() == null ? "" : " (known here: " + e.getKnownPropertyIds().stream()
          .map(String::valueOf).sorted().collect(Collectors.joining(", ")) + ")";
      throw new InvalidDefinitionException(where, path(e), "is not a known key" + known);
    } catch (MismatchedInputException e) {
      if (e.getPath().isEmpty()) {
        throw new InvalidDefinitionException(where, "(file)", "must hold one JSON object: " + e.getOriginalMessage());
      }
      throw new InvalidDefinitionException(where, path(e), "has the wrong type: " + e.getOriginalMessage());
    } catch (JsonMappingException e) {
      throw new InvalidDefinitionException(where, path(e), e.getOriginalMessage());
    } catch (JsonProcessingException e) {
      String at = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
          + e.getLocation().getColumnNr();
      throw new InvalidDefinitionException(where, "(file)", "not valid JSON" + at + ": " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new InvalidDefinitionException(where, "(file)", "cannot be read: " + e.getMessage());
    }
    if (raw == null) {
      throw new InvalidDefinitionException(where, "(file)", "is empty");
    }
    return new Checker(where).check(raw);
  }

  private static byte[] read(String reference, Path workingDir) {
    if (reference.startsWith(CLASSPATH)) {
      String resource = reference.substring(CLASSPATH.length());
      resource = resource.startsWith("/") ? resource : "/" + resource;
      try (InputStream in = HtmlDefinitions.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new InvalidDefinitionException(reference, "(file)", "no such definition on the classpath");
        }
        byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
        return capped(bytes, reference);
      } catch (IOException e) {
        throw new InvalidDefinitionException(reference, "(file)", "cannot be read: " + e.getMessage());
      }
    }
    Path file = workingDir.resolve(reference).normalize();
    if (!Files.isRegularFile(file)) {
      throw new InvalidDefinitionException(reference, "(file)", "does not exist (looked for " + file.toAbsolutePath()
          + "; relative paths start at the working directory)");
    }
    try {
      if (Files.size(file) > MAX_FILE_BYTES) {
        throw new InvalidDefinitionException(reference, "(file)", "is larger than 1 MiB; not a source definition");
      }
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new InvalidDefinitionException(reference, "(file)", "cannot be read: " + e);
    }
  }

  private static byte[] capped(byte[] bytes, String reference) {
    if (bytes.length > MAX_FILE_BYTES) {
      throw new InvalidDefinitionException(reference, "(file)", "is larger than 1 MiB; not a source definition");
    }
    return bytes;
  }

  private static ObjectMapper mapper() {
    ObjectMapper mapper = new ObjectMapper()
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    mapper.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
    mapper.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
    mapper.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
    mapper.coercionConfigFor(LogicalType.Textual).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
    mapper.coercionConfigFor(LogicalType.Textual).setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
    return mapper;
  }

  private static String path(JsonMappingException e) {
    String path = e.getPath().stream()
        .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
        .collect(Collectors.joining(".")).replace(".[", "[");
    return path.isEmpty() ? "(file)" : path;
  }

  /** A title id pattern made from a title URL: the text around {@code {titleId}} matched literally. */
  static String titleIdPatternOf(String titleUrl) {
    int at = titleUrl.indexOf("{titleId}");
    String before = titleUrl.substring(0, at);
    String after = titleUrl.substring(at + "{titleId}".length());
    return (before.isEmpty() ? "" : Pattern.quote(before)) + (after.isEmpty() ? "(?<id>[^?#]+)"
        : "(?<id>[^?#]+?)" + Pattern.quote(after));
  }

  /** Checks one raw definition key by key and fills in defaults. */
  private static final class Checker {

    private final String where;

    Checker(String where) {
      this.where = where;
    }

    HtmlDefinition check(HtmlDefinition d) {
      String name = required(d.name(), "name");
      limit(name, 100, "name");
      String baseUrl = required(d.baseUrl(), "baseUrl");
      require(BASE_URL.matcher(baseUrl).matches(), "baseUrl", "must be http(s)://host[:port], without a path, got '"
          + baseUrl + "'");
      baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
      String titleUrl = urlTemplate(d.titleUrl(), "titleUrl", List.of("titleId"));
      require(titleUrl.contains("{titleId}"), "titleUrl", "must contain {titleId}");
      String chapterUrl = urlTemplate(d.chapterUrl(), "chapterUrl", List.of("chapterId", "titleId"));
      require(chapterUrl.contains("{chapterId}"), "chapterUrl", "must contain {chapterId}");
      String titleIdPattern = d.titleIdPattern() == null || d.titleIdPattern().isBlank()
          ? titleIdPatternOf(titleUrl) : regex(d.titleIdPattern(), "titleIdPattern", "id");
      String language = language(d.language(), "language");
      require(d.title() != null, "title", "is required (at least {\"selector\": \"h1\"})");
      Field title = field(d.title(), "title", true);
      Chapters chapters = chapters(d.chapters());
      Pages pages = pages(d.pages());
      Pacing pacing = pacing(d.pacing());
      List<String> markers = new ArrayList<>();
      List<String> declared = d.challengeMarkers() == null ? List.of() : d.challengeMarkers();
      for (int i = 0; i < declared.size(); i++) {
        String marker = declared.get(i);
        String key = "challengeMarkers[" + i + "]";
        require(marker != null && !marker.isBlank(), key, "must be a non-empty text");
        limit(marker, 200, key);
        markers.add(marker);
      }
      String prefix = d.seriesFolderPrefix() == null ? "" : d.seriesFolderPrefix();
      require(prefix.isEmpty() || PREFIX.matcher(prefix).matches(), "seriesFolderPrefix",
          "must be lower-case letters, digits and dashes (at most 40), e.g. mangapill-, got '" + prefix + "'");
      return new HtmlDefinition(name, d.notes(), baseUrl, titleUrl, titleIdPattern, chapterUrl, language, title,
          chapters, pages, pacing, List.copyOf(markers), prefix, search(d.search()));
    }

    private HtmlDefinition.Search search(HtmlDefinition.Search s) {
      if (s == null) {
        return null;
      }
      String url = urlTemplate(s.url(), "search.url", List.of("query"));
      require(url.contains("{query}"), "search.url", "must contain {query}, e.g. /search?q={query}");
      String item = selector(s.item(), "search.item", true);
      require(s.id() != null, "search.id", "is required (where the title id is inside a result)");
      require(s.title() != null, "search.title", "is required (where the title's name is inside a result)");
      Field id = field(s.id(), "search.id", false);
      Field title = field(s.title(), "search.title", false);
      Field cover = s.cover() == null ? null : field(s.cover(), "search.cover", false);
      return new HtmlDefinition.Search(url, item, id, title, cover);
    }

    private Chapters chapters(Chapters c) {
      require(c != null, "chapters", "is required");
      String item = selector(c.item(), "chapters.item", true);
      require(c.id() != null, "chapters.id", "is required");
      require(c.number() != null, "chapters.number", "is required");
      Field id = field(c.id(), "chapters.id", false);
      Field number = field(c.number(), "chapters.number", false);
      Field title = c.title() == null ? null : field(c.title(), "chapters.title", false);
      Field language = c.language() == null ? null : field(c.language(), "chapters.language", false);
      String order = c.order() == null ? HtmlDefinition.OLDEST_FIRST : c.order();
      require(order.equals(HtmlDefinition.OLDEST_FIRST) || order.equals(HtmlDefinition.NEWEST_FIRST),
          "chapters.order", "must be " + HtmlDefinition.OLDEST_FIRST + " or " + HtmlDefinition.NEWEST_FIRST
              + ", got '" + order + "'");
      Pagination pagination = null;
      if (c.pagination() != null) {
        String next = selector(c.pagination().next(), "chapters.pagination.next", true);
        int maxPages = c.pagination().maxPages() == null ? 20 : c.pagination().maxPages();
        require(maxPages >= 1 && maxPages <= 100, "chapters.pagination.maxPages", "must be between 1 and 100, got "
            + maxPages);
        pagination = new Pagination(next, maxPages);
      }
      return new Chapters(item, id, number, title, order, pagination, language);
    }

    private Pages pages(Pages p) {
      require(p != null, "pages", "is required");
      String image = selector(p.image(), "pages.image", true);
      List<String> attributes = p.attributes() == null ? List.of("data-src", "src") : p.attributes();
      require(!attributes.isEmpty() && attributes.size() <= 10, "pages.attributes",
          "must list 1 to 10 attribute names, e.g. [\"data-src\", \"src\"]");
      for (int i = 0; i < attributes.size(); i++) {
        String attribute = attributes.get(i);
        require(attribute != null && ATTRIBUTE.matcher(attribute).matches(), "pages.attributes[" + i + "]",
            "must be an attribute name such as data-src, got '" + attribute + "'");
      }
      return new Pages(image, List.copyOf(attributes), p.referer() == null || p.referer());
    }

    private Pacing pacing(Pacing p) {
      if (p == null) {
        return new Pacing(null, null);
      }
      require(p.pageDelayMs() == null || (p.pageDelayMs() >= 0 && p.pageDelayMs() <= 600_000), "pacing.pageDelayMs",
          "must be between 0 and 600000 ms");
      require(p.chapterDelayMs() == null || (p.chapterDelayMs() >= 0 && p.chapterDelayMs() <= 3_600_000),
          "pacing.chapterDelayMs", "must be between 0 and 3600000 ms");
      return p;
    }

    /** The definition's language, {@code en} when absent. */
    private String language(String raw, String key) {
      if (raw == null) {
        return LanguageCode.DEFAULT;
      }
      return LanguageCode.of(raw).orElseThrow(() -> new InvalidDefinitionException(where, key,
          "must be an ISO 639-1 code or a BCP 47 tag such as en, fr or pt-br, got '" + raw + "'"));
    }

    private Field field(Field f, String key, boolean selectorRequired) {
      String selector = selector(f.selector(), key + ".selector", selectorRequired);
      String attribute = f.attribute() == null || f.attribute().isBlank() ? HtmlDefinition.TEXT : f.attribute();
      require(attribute.equals(HtmlDefinition.TEXT) || ATTRIBUTE.matcher(attribute).matches(), key + ".attribute",
          "must be \"text\" or an attribute name such as href, got '" + attribute + "'");
      String pattern = f.pattern() == null || f.pattern().isEmpty() ? null : regex(f.pattern(), key + ".pattern",
          "value");
      return new Field(selector, attribute, pattern);
    }

    private String selector(String selector, String key, boolean required) {
      if (selector == null || selector.isBlank()) {
        require(!required, key, "is required (a CSS selector)");
        return "";
      }
      limit(selector, 500, key);
      try {
        Selector.evaluatorOf(selector);
      } catch (Selector.SelectorParseException | IllegalArgumentException e) {
        throw new InvalidDefinitionException(where, key, "'" + selector + "' is not a CSS selector jsoup understands: "
            + e.getMessage());
      }
      return selector.trim();
    }

    private String regex(String regex, String key, String group) {
      limit(regex, 500, key);
      try {
        Pattern.compile(regex);
      } catch (PatternSyntaxException e) {
        throw new InvalidDefinitionException(where, key, "is not a valid regex: " + e.getDescription() + " near index "
            + e.getIndex());
      }
      require(regex.contains("(?<" + group + ">"), key, "must have a named group (?<" + group + ">...)");
      return regex;
    }

    private String urlTemplate(String template, String key, List<String> placeholders) {
      String value = required(template, key);
      limit(value, 300, key);
      require(value.startsWith("/") && !value.startsWith("//"), key, "must be a path below the base URL starting "
          + "with one /, e.g. /manga/{titleId}");
      require(value.chars().noneMatch(Character::isWhitespace), key, "must not contain spaces");
      Matcher m = PLACEHOLDER.matcher(value);
      while (m.find()) {
        require(placeholders.contains(m.group(1)), key, "{" + m.group(1) + "} is not a placeholder here (known: "
            + placeholders.stream().map(p -> "{" + p + "}").collect(Collectors.joining(", ")) + ")");
      }
      return value;
    }

    private String required(String value, String key) {
      require(value != null && !value.isBlank(), key, "is required");
      return Objects.requireNonNull(value).trim();
    }

    private void limit(String value, int max, String key) {
      require(value.length() <= max, key, "is longer than " + max + " characters");
    }

    private void require(boolean ok, String key, String problem) {
      if (!ok) {
        throw new InvalidDefinitionException(where, key, problem);
      }
    }
  }
}
