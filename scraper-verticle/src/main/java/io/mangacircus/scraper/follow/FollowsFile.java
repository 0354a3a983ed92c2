package io.mangacircus.scraper.follow;

import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.scraper.follow.Follows.Entry;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The format of {@code follows.json} (schema {@value Follows#SCHEMA}): read strictly (a file that does not parse is
 * refused, naming the shape it needs), written whole and atomically.
 */
final class FollowsFile {

  private FollowsFile() {
  }

  /** Writes every followed title, atomically (temp file, fsync, rename). */
  static void write(Path file, Collection<Entry> entries) throws IOException {
    JsonArray titles = new JsonArray();
    entries.forEach(e -> titles.add(json(e)));
    AtomicFiles.write(file, new JsonObject().put("schema", Follows.SCHEMA).put("titles", titles).encodePrettily()
        .getBytes(StandardCharsets.UTF_8));
  }

  private static JsonObject json(Entry e) {
    return new JsonObject().put("source", e.source()).put("titleId", e.titleId()).put("title", e.title())
        .put("language", e.language()).put("preferredGroups", new JsonArray(e.preferredGroups()))
        .put("followedAt", e.followedAt().toString()).put("lastCheckAt", text(e.lastCheckAt()))
        .put("lastNewChapterAt", text(e.lastNewChapterAt()));
  }

  /**
   * The follows a file's text holds, by {@link Follows#key}.
   *
   * @throws CorruptStateFileException when the text is not a follows file this version reads (naming what it needs)
   */
  static Map<String, Entry> parse(Path file, String text) {
    String shape = "needs {\"schema\": 1, \"titles\": [{source, titleId, title, language, preferredGroups, "
        + "followedAt, lastCheckAt, lastNewChapterAt}]}";
    JsonObject root;
    try {
      root = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      throw new CorruptStateFileException(file, "is not a JSON object: " + e.getMessage());
    }
    if (!(root.getValue("schema") instanceof Number schema)) {
      throw new CorruptStateFileException(file, shape);
    }
    if (schema.intValue() > Follows.SCHEMA) {
      throw new CorruptStateFileException(file, "has schema " + schema + ", newer than this version reads ("
          + Follows.SCHEMA + ")");
    }
    if (!(root.getValue("titles") instanceof JsonArray titles)) {
      throw new CorruptStateFileException(file, shape);
    }
    Map<String, Entry> entries = new LinkedHashMap<>();
    for (int i = 0; i < titles.size(); i++) {
      try {
        JsonObject t = titles.getJsonObject(i);
        List<String> groups = new ArrayList<>();
        if (t.getValue("preferredGroups") instanceof JsonArray list) {
          list.forEach(g -> groups.add((String) g));
        }
        Entry entry = new Entry(required(t, "source"), required(t, "titleId"), required(t, "title"),
            required(t, "language"), groups, Instant.parse(required(t, "followedAt")),
            instant(t.getString("lastCheckAt")), instant(t.getString("lastNewChapterAt")));
        entries.put(Follows.key(entry.source(), entry.titleId()), entry);
      } catch (ClassCastException | IllegalArgumentException | DateTimeParseException e) {
        throw new CorruptStateFileException(file, "titles[" + i + "] is not readable (" + e.getMessage() + "); "
            + shape);
      }
    }
    return entries;
  }

  private static String required(JsonObject json, String field) {
    String value = json.getString(field);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("'" + field + "' is missing");
    }
    return value;
  }

  private static Instant instant(String value) {
    return value == null ? null : Instant.parse(value);
  }

  private static String text(Instant at) {
    return at == null ? null : at.toString();
  }
}
