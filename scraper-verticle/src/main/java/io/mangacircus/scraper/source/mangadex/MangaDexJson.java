package io.mangacircus.scraper.source.mangadex;

import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.GroupChoice;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads MangaDex API answers ({@code /manga/{id}}, {@code /manga/{id}/feed}, {@code /at-home/server/{id}}). An answer
 * that does not have the documented shape is a {@link FetchOutcome.ParseError} naming the field.
 */
final class MangaDexJson {

  /** One page of a chapter feed. */
  record FeedPage(List<Chapter> chapters, int limit, int offset, int total, Map<String, String> groups) {

    FeedPage(List<Chapter> chapters, int limit, int offset, int total) {
      this(chapters, limit, offset, total, Map.of());
    }
  }

  /**
   * A chapter as the feed lists it; {@code readableAt} is the later of {@code publishAt} and {@code readableAt} (null
   * when the feed gives neither).
   */
  record Chapter(String id, String number, String title, String language, String externalUrl, int pages,
      Instant readableAt, List<String> groupIds, Instant uploadedAt) {

    Chapter(String id, String number, String title, String language, String externalUrl, int pages,
        Instant readableAt) {
      this(id, number, title, language, externalUrl, pages, readableAt, List.of(), null);
    }

    Chapter(String id, String number, String title, String language, String externalUrl, int pages) {
      this(id, number, title, language, externalUrl, pages, null);
    }
  }

  /** The groups named in a feed page's {@code scanlation_group} relationships, by id, with their names when included. */
  record FeedGroups(Map<String, String> names) {
  }

  /**
   * A title as {@code /manga} and {@code /manga/{id}} describe it.
   *
   * @param coverFile the file name of its {@code cover_art} relationship (with {@code includes[]=cover_art}), or null
   */
  record Manga(String id, String title, List<String> altTitles, String description, List<String> tags, Integer year,
      String status, List<String> languages, String coverFile) {
  }

  /** One page of {@code /manga?title=...}. */
  record MangaPage(List<Manga> titles, int limit, int offset, int total) {
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

  /** A page of {@code GET /manga?title=...} search results. */
  static FetchOutcome<MangaPage> mangaPage(JsonObject answer, String what) {
    if (!(answer.getValue("data") instanceof JsonArray data)) {
      return new FetchOutcome.ParseError<>(what + ": 'data' is not a list");
    }
    List<Manga> titles = new ArrayList<>();
    for (int i = 0; i < data.size(); i++) {
      FetchOutcome<Manga> manga = manga(data.getValue(i), what + " data[" + i + "]");
      if (!manga.ok()) {
        return manga.failure();
      }
      titles.add(manga.value());
    }
    return new FetchOutcome.Ok<>(new MangaPage(titles, number(answer.getValue("limit"), titles.size()),
        number(answer.getValue("offset"), 0), number(answer.getValue("total"), titles.size())));
  }

  /** The {@code data} of {@code GET /manga/{id}}. */
  static FetchOutcome<Manga> manga(JsonObject answer, String what) {
    return manga(answer.getValue("data"), what);
  }

  private static FetchOutcome<Manga> manga(Object entity, String what) {
    if (!(entity instanceof JsonObject data) || !(data.getValue("id") instanceof String id) || !MangaDexRefs.isId(id)) {
      return new FetchOutcome.ParseError<>(what + ": no title id");
    }
    FetchOutcome<String> title = title(new JsonObject().put("data", data), what);
    if (!title.ok()) {
      return title.failure();
    }
    JsonObject a = data.getJsonObject("attributes");
    List<String> alt = new ArrayList<>();
    if (a.getValue("altTitles") instanceof JsonArray alternatives) {
      for (Object names : alternatives) {
        if (names instanceof JsonObject byLanguage) {
          byLanguage.forEach(entry -> {
            if (entry.getValue() instanceof String text && !text.isBlank() && !text.trim().equals(title.value())
                && !alt.contains(text.trim())) {
              alt.add(text.trim());
            }
          });
        }
      }
    }
    List<String> tags = new ArrayList<>();
    if (a.getValue("tags") instanceof JsonArray list) {
      for (Object tag : list) {
        if (tag instanceof JsonObject t && t.getValue("attributes") instanceof JsonObject ta
            && ta.getValue("name") instanceof JsonObject names) {
          String name = localised(names);
          if (!name.isEmpty()) {
            tags.add(name);
          }
        }
      }
    }
    String cover = null;
    for (JsonObject relation : relationships(data, "cover_art")) {
      if (relation.getValue("attributes") instanceof JsonObject ca && ca.getValue("fileName") instanceof String file
          && MangaDexRefs.isFileName(file)) {
        cover = file;
        break;
      }
    }
    String status = text(a.getValue("status"));
    return new FetchOutcome.Ok<>(new Manga(id.toLowerCase(java.util.Locale.ROOT), title.value(), alt,
        a.getValue("description") instanceof JsonObject d ? localised(d) : "", tags,
        a.getValue("year") instanceof Number year ? year.intValue() : null, status.isEmpty() ? null : status,
        languages(new JsonObject().put("data", data)), cover));
  }

  /** The English text of a map of languages to texts, else the first non-empty one, else "". */
  static String localised(JsonObject texts) {
    if (texts.getValue("en") instanceof String en && !en.isBlank()) {
      return en.trim();
    }
    for (Map.Entry<String, Object> entry : texts) {
      if (entry.getValue() instanceof String text && !text.isBlank()) {
        return text.trim();
      }
    }
    return "";
  }

  private static int number(Object value, int fallback) {
    return value instanceof Number n ? n.intValue() : fallback;
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
    Map<String, String> groups = new java.util.LinkedHashMap<>();
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
      List<String> groupIds = new ArrayList<>();
      for (JsonObject relation : relationships(entry, "scanlation_group")) {
        String groupId = text(relation.getValue("id")).toLowerCase(java.util.Locale.ROOT);
        groupIds.add(groupId);
        String groupName = relation.getValue("attributes") instanceof JsonObject ga ? text(ga.getValue("name")) : "";
        if (!groupName.isEmpty() || !groups.containsKey(groupId)) {
          groups.put(groupId, groupName);
        }
      }
      Instant published = instant(a.getValue("publishAt"));
      chapters.add(new Chapter(id.toLowerCase(java.util.Locale.ROOT), text(a.getValue("chapter")),
          text(a.getValue("title")), text(a.getValue("translatedLanguage")), text(a.getValue("externalUrl")),
          a.getValue("pages") instanceof Number n ? n.intValue() : -1,
          later(published, instant(a.getValue("readableAt"))), groupIds,
          published != null ? published : instant(a.getValue("createdAt"))));
    }
    return new FetchOutcome.Ok<>(new FeedPage(chapters, limit.intValue(), offset.intValue(), total.intValue(),
        groups));
  }

  /**
   * The chapters worth listing, in feed order, as of {@code now}: a chapter hosted elsewhere ({@code externalUrl}) is
   * listed with its URL, one readable only after {@code now} (whatever filter the server applied) with that time, one
   * without pages and neither of these is left out; a chapter without a number is numbered by its id, and when several
   * groups translated the same chapter number into the same language only one is kept (the library holds one folder
   * per number), chosen by {@link GroupChoice}: a downloadable one before any scheduled or external one, then the first
   * of {@code preferredGroups} that has it, else the first uploaded.
   */
  static List<ChapterInfo> chapters(List<Chapter> feed, Instant now, List<String> preferredGroups) {
    List<GroupChoice.Upload<ChapterInfo>> uploads = new ArrayList<>();
    for (Chapter chapter : feed) {
      ChapterInfo info = info(chapter, now);
      if (info != null) {
        uploads.add(new GroupChoice.Upload<>(info, chapter.language(), info.number(), chapter.groupIds(),
            chapter.uploadedAt(), info.notDownloadable(now).isEmpty()));
      }
    }
    return GroupChoice.choose(uploads, preferredGroups);
  }

  /** As above without a group preference: the first uploaded of each number. */
  static List<ChapterInfo> chapters(List<Chapter> feed, Instant now) {
    return chapters(feed, now, List.of());
  }

  /** A feed chapter as listed, or null when it is not worth listing (no pages, not scheduled, not external). */
  static ChapterInfo info(Chapter chapter, Instant now) {
    String external = chapter.externalUrl().isEmpty() ? null : chapter.externalUrl();
    Instant later = chapter.readableAt() != null && chapter.readableAt().isAfter(now) ? chapter.readableAt() : null;
    if (external == null && later == null && chapter.pages() == 0) {
      return null;
    }
    String number = chapter.number().isEmpty() ? chapter.id() : chapter.number();
    return new ChapterInfo(chapter.id(), number, chapter.title(), chapter.language(), later, external);
  }

  /** The relationships of an entity of one type ({@code cover_art}, {@code scanlation_group}). */
  static List<JsonObject> relationships(JsonObject entity, String type) {
    List<JsonObject> found = new ArrayList<>();
    if (entity.getValue("relationships") instanceof JsonArray relations) {
      for (Object relation : relations) {
        if (relation instanceof JsonObject r && type.equals(r.getValue("type")) && r.getValue("id") instanceof String) {
          found.add(r);
        }
      }
    }
    return found;
  }

  private static Instant instant(Object value) {
    if (!(value instanceof String text) || text.isBlank()) {
      return null;
    }
    try {
      return OffsetDateTime.parse(text.trim()).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static Instant later(Instant a, Instant b) {
    return a == null ? b : b == null || a.isAfter(b) ? a : b;
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
