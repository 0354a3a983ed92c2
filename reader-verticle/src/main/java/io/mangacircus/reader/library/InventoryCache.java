package io.mangacircus.reader.library;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.rating.AgeRating;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the last complete library inventory in {@code data/library-inventory.json} (reader-owned, schema-numbered,
 * written atomically) so that a restarted reader lists the library at once. It is only a cache: a file that fails to
 * parse, or has another schema, is logged, ignored (the reader waits for its first scan instead) and left untouched
 * for the rest of the process — never overwritten; deleting it lets the reader keep a new one.
 */
public final class InventoryCache {

  private static final Logger LOG = LoggerFactory.getLogger(InventoryCache.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** The schema this version reads and writes. */
  public static final int SCHEMA = 1;

  /** The file's name in the data folder. */
  public static final String FILE = "library-inventory.json";

  private final Path file;
  private volatile boolean writable = true;

  /** @param dataDir the reader's data folder */
  public InventoryCache(Path dataDir) {
    this.file = dataDir.resolve(FILE);
  }

  /** The kept inventory; empty when there is none or it cannot be used (then the file is never written). Blocking. */
  public Optional<LibraryInventory.Snapshot> load() {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      return unusable("cannot be read (" + e.getMessage() + ")");
    }
    try {
      JsonNode json = MAPPER.readTree(bytes);
      if (json == null || !json.isObject()) {
        return unusable("is not a JSON object");
      }
      if (json.path("schema").asInt(-1) != SCHEMA) {
        return unusable("has schema " + json.path("schema") + ", this version reads " + SCHEMA);
      }
      Instant scannedAt = Instant.parse(json.path("scannedAt").asText());
      List<SeriesEntry> series = new ArrayList<>();
      for (JsonNode s : required(json, "series")) {
        String id = s.path("id").asText("");
        if (!LibraryFiles.validId(id) || !s.path("chapters").canConvertToInt() || s.path("chapters").asInt() < 1) {
          return unusable("lists a series that is not one: " + s);
        }
        // A file kept before libraries had names lists the downloads library only.
        series.add(new SeriesEntry(id, text(s, "title"), text(s, "source"), text(s, "titleId"),
            s.path("chapters").asInt(), Instant.parse(s.path("updatedAt").asText()),
            s.path("library").asText(SeriesEntry.DOWNLOADS),
            AgeRating.fromCode(s.path("rating").asText("unrated")).orElse(AgeRating.UNRATED)));
      }
      return Optional.of(new LibraryInventory.Snapshot(scannedAt, series));
    } catch (IOException | RuntimeException e) {
      return unusable("does not parse (" + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + ")");
    }
  }

  /** Writes {@code snapshot} atomically, unless the file found at start could not be used. Blocking. */
  public void save(LibraryInventory.Snapshot snapshot) {
    if (!writable) {
      return;
    }
    ObjectNode json = MAPPER.createObjectNode().put("schema", SCHEMA).put("scannedAt",
        snapshot.scannedAt().toString());
    ArrayNode list = json.putArray("series");
    for (SeriesEntry s : snapshot.series()) {
      list.addObject().put("id", s.id()).put("title", s.title()).put("source", s.source()).put("titleId", s.titleId())
          .put("chapters", s.chapters()).put("updatedAt", s.updatedAt().toString()).put("library", s.library())
          .put("rating", s.rating().code());
    }
    try {
      AtomicFiles.write(file, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(json));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private Optional<LibraryInventory.Snapshot> unusable(String why) {
    writable = false;
    LOG.warn("[LIBRARY] {} {}: it is ignored (the library is listed after the first scan) and left as it is; delete it "
        + "to let the reader keep the inventory again", file, why);
    return Optional.empty();
  }

  private static JsonNode required(JsonNode json, String field) {
    JsonNode node = json.get(field);
    if (node == null || !node.isArray()) {
      throw new IllegalArgumentException("no " + field + " list");
    }
    return node;
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException("a series without " + field);
    }
    return value.asText();
  }
}
