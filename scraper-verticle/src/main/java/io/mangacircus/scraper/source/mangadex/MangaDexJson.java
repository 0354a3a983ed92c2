package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads MangaDex API answers ({@code /manga/{id}}, {@code /manga/{id}/feed}, {@code /at-home/server/{id}}). An answer
 * that does not have the documented shape is a {@link FetchOutcome.ParseError} naming the field.
 */
final class MangaDexJson {

  /** One page of a chapter feed. */
  record FeedPage(List<Chapter> chapters, int limit, int offset, int total) {
  }

  /** A chapter as the feed lists it. */
  record Chapter(String id, String number, String title, String language, String externalUrl, int pages) {
  }

  /** An at-home server answer: where the chapter's pages are now. */
  record AtHome(String baseUrl, String hash, List<String> data, List<String> dataSaver) {
  }

  private MangaDexJson() {
  }

  /** The body as a JSON object, or a parse error naming {@code what}. */
  static FetchOutcome<JsonObject> object(String body, String what) {
    try {
      Object parsed = body == null || body.isBlank() ? null : io.vertx.core.json.Json.decodeValue(body);
      if (parsed instanceof JsonObject json) {
        return new FetchOutcome.Ok<>(json);
      }
      return new FetchOutcome.ParseError<>(what + ": the answer is not a JSON object");
    } catch (DecodeException e) {
      return new FetchOutcome.ParseError<>(what + ": the answer is not JSON (" + e.getMessage() + ")");
    }
  }

  /** The first error's detail of an error answer ({@code {"result":"error","errors":[{"detail":...}]}}), or "". */
  static String errorDetail(String body) {
    try {
      Object parsed = body == null || body.isBlank() ? null : io.vertx.core.json.Json.decodeValue(body);
      if (parsed instanceof JsonObject json && json.getValue("errors") instanceof JsonArray errors
          && !errors.isEmpty() && errors.getValue(0) instanceof JsonObject first) {
        Object detail = first.getValue("detail") != null ? first.getValue("detail") : first.getValue("title");
        return detail == null ? "" : String.valueOf(detail);
      }
    } catch (DecodeException e) {
      return "";
    }
    return "";
  }

  /**
   * The human title of {@code /manga/{id}}: {@code data.attributes.title}, English if there, else the first text; when
   * that is empty (the API then sends {@code []}), the same choice among {@code altTitles}, else the title's id.
   */
  static FetchOutcome<String> title(JsonObject answer, String what) {
    if (!(answer.getValue("data") instanceof JsonObject data)) {
      return new FetchOutcome.ParseError<>(what + ": 'data' with 'attributes' is missing");
    }
    FetchOutcome<JsonObject> attributes = attributes(data, what + " data");
    if (!attributes.ok()) {
      return attributes.failure();
    }
    Object main = attributes.value().getValue("title");
    if (main != null && !(main instanceof JsonObject) && !(main instanceof JsonArray array && array.isEmpty())) {
      return new FetchOutcome.ParseError<>(what + ": data.attributes.title is not a map of languages to titles");
    }
    List<JsonObject> candidates = new ArrayList<>();
    if (main instanceof JsonObject titles) {
      candidates.add(titles);
    }
    if (attributes.value().getValue("altTitles") instanceof JsonArray alternatives) {
      alternatives.stream().filter(JsonObject.class::isInstance).map(JsonObject.class::cast).forEach(candidates::add);
    }
    for (JsonObject titles : candidates) {
      if (titles.getValue("en") instanceof String s && !s.isBlank()) {
        return new FetchOutcome.Ok<>(s.trim());
      }
      if (titles == main) {
        for (Map.Entry<String, Object> entry : titles) {
          if (entry.getValue() instanceof String s && !s.isBlank()) {
            return new FetchOutcome.Ok<>(s.trim());
          }
        }
      }
    }
    for (JsonObject titles : candidates) {
      for (Map.Entry<String, Object> entry : titles) {
        if (entry.getValue() instanceof String s && !s.isBlank()) {
          return new FetchOutcome.Ok<>(s.trim());
        }
      }
    }
    return new FetchOutcome.Ok<>(text(data.getValue("id")).isEmpty() ? "untitled" : text(data.getValue("id")));
  }

  /**
   * The languages {@code /manga/{id}} says the title has chapters in ({@code data.attributes.availableTranslatedLanguages}),
   * lower-case; empty when it does not say.
   */
  static List<String> languages(JsonObject answer) {
    if (answer.getValue("data") instanceof JsonObject data && data.getValue("attributes") instanceof JsonObject a
        && a.getValue("availableTranslatedLanguages") instanceof JsonArray languages) {
      return languages.stream().filter(String.class::isInstance).map(l -> ((String) l).trim()
          .toLowerCase(java.util.Locale.ROOT)).filter(l -> !l.isEmpty()).distinct().toList();
    }
    return List.of();
  }

  /** One page of {@code /manga/{id}/feed}. */
  static FetchOutcome<FeedPage> feedPage(JsonObject answer, String what) {
    if (!(answer.getValue("data") instanceof JsonArray data)) {
      return new FetchOutcome.ParseError<>(what + ": 'data' is not a list");
    }
    if (!(answer.getValue("limit") instanceof Number limit) || !(answer.getValue("offset") instanceof Number offset)
        || !(answer.getValue("total") instanceof Number total)) {
      return new FetchOutcome.ParseError<>(what + ": 'limit', 'offset' or 'total' is missing");
    }
    List<Chapter> chapters = new ArrayList<>();
    for (int i = 0; i < data.size(); i++) {
      String where = what + " data[" + (offset.intValue() + i) + "]";
      if (!(data.getValue(i) instanceof JsonObject entry) || !(entry.getValue("id") instanceof String id)
          || !MangaDexRefs.isId(id)) {
        return new FetchOutcome.ParseError<>(where + ": no chapter id");
      }
      FetchOutcome<JsonObject> attributes = attributes(entry, where);
      if (!attributes.ok()) {
        return attributes.failure();
      }
      JsonObject a = attributes.value();
      chapters.add(new Chapter(id.toLowerCase(java.util.Locale.ROOT), text(a.getValue("chapter")),
          text(a.getValue("title")), text(a.getValue("translatedLanguage")), text(a.getValue("externalUrl")),
          a.getValue("pages") instanceof Number n ? n.intValue() : -1));
    }
    return new FetchOutcome.Ok<>(new FeedPage(chapters, limit.intValue(), offset.intValue(), total.intValue()));
  }

  /**
   * The chapters worth listing, in feed order: chapters hosted elsewhere ({@code externalUrl}) or without pages are
   * left out, a chapter without a number is numbered by its id, and when several groups translated the same chapter
   * number into the same language only the first listed is kept (the library holds one folder per number).
   */
  static List<ChapterInfo> chapters(List<Chapter> feed) {
    List<ChapterInfo> chapters = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Chapter chapter : feed) {
      if (!chapter.externalUrl().isEmpty() || chapter.pages() == 0) {
        continue;
      }
      String number = chapter.number().isEmpty() ? chapter.id() : chapter.number();
      if (seen.add(chapter.language() + "\u0000" + number)) {
        chapters.add(new ChapterInfo(chapter.id(), number, chapter.title(), chapter.language()));
      }
    }
    return chapters;
  }

  /** {@code /at-home/server/{chapterId}}. */
  static FetchOutcome<AtHome> atHome(JsonObject answer, String what) {
    if (!(answer.getValue("baseUrl") instanceof String baseUrl) || !baseUrl.matches("https?://[^\\s/]+(/\\S*)?")) {
      return new FetchOutcome.ParseError<>(what + ": 'baseUrl' is missing or not an http(s) URL");
    }
    if (!(answer.getValue("chapter") instanceof JsonObject chapter) || !(chapter.getValue("hash") instanceof String hash)
        || !hash.matches("[0-9a-zA-Z]{1,128}")) {
      return new FetchOutcome.ParseError<>(what + ": 'chapter.hash' is missing or malformed");
    }
    FetchOutcome<List<String>> data = files(chapter.getValue("data"), what + " chapter.data");
    if (!data.ok()) {
      return data.failure();
    }
    FetchOutcome<List<String>> saver = files(chapter.getValue("dataSaver"), what + " chapter.dataSaver");
    if (!saver.ok()) {
      return saver.failure();
    }
    return new FetchOutcome.Ok<>(new AtHome(baseUrl, hash, data.value(), saver.value()));
  }

  private static FetchOutcome<List<String>> files(Object value, String what) {
    if (value == null) {
      return new FetchOutcome.Ok<>(List.of());
    }
    if (!(value instanceof JsonArray array)) {
      return new FetchOutcome.ParseError<>(what + " is not a list");
    }
    List<String> files = new ArrayList<>();
    for (Object file : array) {
      if (!(file instanceof String name) || !MangaDexRefs.isFileName(name)) {
        return new FetchOutcome.ParseError<>(what + " holds an unusable file name: " + file);
      }
      files.add(name);
    }
    return new FetchOutcome.Ok<>(List.copyOf(files));
  }

  private static FetchOutcome<JsonObject> attributes(Object entity, String what) {
    if (!(entity instanceof JsonObject object) || !(object.getValue("attributes") instanceof JsonObject attributes)) {
      return new FetchOutcome.ParseError<>(what + ": 'attributes' is missing");
    }
    return new FetchOutcome.Ok<>(attributes);
  }

  private static String text(Object value) {
    return value == null ? "" : String.valueOf(value).trim();
  }
}
