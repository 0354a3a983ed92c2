package io.mangacircus.scraper.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.scraper.StateJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes {@code data/scraper/queue.json}: schema-versioned, written atomically with the previous version
 * kept as {@code queue.json.bak}, older schemas migrated forward (the original kept as {@code queue.json.schema<N>.bak}).
 * A file that fails to parse is never overwritten.
 */
public final class QueueStore {

  private static final Logger LOG = LoggerFactory.getLogger(QueueStore.class);

  /**
   * The schema this version writes. Schema 3 added the chapter stages {@code scheduled} and {@code external}, which an
   * older version could not read: it says the file is newer instead of failing on a stage. Schema 2 is a subset and is
   * read as it is; schema 1 (single {@code status} string, {@code done} flags) is migrated.
   */
  public static final int SCHEMA = 3;

  /** The schema before the scheduled and external chapter stages; read unchanged. */
  private static final int SCHEMA_WITHOUT_AWAITING_STAGES = 2;

  private final Path file;
  private final ObjectMapper mapper;
  private final java.util.concurrent.atomic.LongAdder saves = new java.util.concurrent.atomic.LongAdder();

  public QueueStore(Path file) {
    this.file = file;
    this.mapper = StateJson.mapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  }

  /** The queue file this store owns. */
  public Path file() {
    return file;
  }

  /**
   * The queue; empty when the file does not exist yet. An older schema is migrated and saved at once, with the
   * original kept beside it.
   *
   * @throws CorruptStateFileException when the file exists but cannot be understood (it is left untouched)
   */
  public QueueFile load() {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      return QueueFile.empty();
    } catch (IOException e) {
      throw new CorruptStateFileException(file, "cannot be read: " + e.getMessage());
    }
    JsonNode root;
    try {
      root = mapper.readTree(text);
    } catch (JsonProcessingException e) {
      throw new CorruptStateFileException(file, "is not valid JSON (line " + e.getLocation().getLineNr() + "): "
          + e.getOriginalMessage());
    }
    if (root == null || !root.isObject() || !root.path("schema").isInt()) {
      throw new CorruptStateFileException(file, "is not a queue file (no numeric 'schema')");
    }
    int schema = root.get("schema").asInt();
    if (schema > SCHEMA) {
      throw new CorruptStateFileException(file, "has schema " + schema + ", newer than this version's " + SCHEMA);
    }
    if (schema == 1) {
      ObjectNode migrated = migrateFromSchema1((ObjectNode) root);
      QueueFile queue = bind(migrated);
      keepOriginal(text, schema);
      save(queue);
      LOG.info("[QUEUE] migrated {} from schema 1 to {} ({} jobs); the original is kept as {}", file, SCHEMA,
          queue.jobs().size(), originalBackup(schema).getFileName());
      return queue;
    }
    if (schema != SCHEMA && schema != SCHEMA_WITHOUT_AWAITING_STAGES) {
      throw new CorruptStateFileException(file, "has unknown schema " + schema);
    }
    return bind(root);
  }

  /** Writes the queue atomically, after copying the current file to {@code queue.json.bak}. */
  public void save(QueueFile queue) {
    try {
      if (Files.exists(file)) {
        AtomicFiles.write(backup(), Files.readAllBytes(file));
      }
      AtomicFiles.write(file, mapper.writeValueAsBytes(new QueueFile(SCHEMA, queue.jobs(), queue.lanes(),
          queue.incidents())));
      saves.increment();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("could not write " + file, e);
    }
  }

  /** How many times this store wrote the queue file (each commit of a change is one write). */
  public long saves() {
    return saves.sum();
  }

  /** {@code queue.json.bak}: the version before the last save. */
  public Path backup() {
    return file.resolveSibling(file.getFileName() + ".bak");
  }

  private Path originalBackup(int schema) {
    return file.resolveSibling(file.getFileName() + ".schema" + schema + ".bak");
  }

  private void keepOriginal(String text, int schema) {
    try {
      AtomicFiles.write(originalBackup(schema), text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("could not keep the schema " + schema + " original of " + file, e);
    }
  }

  private QueueFile bind(JsonNode root) {
    try {
      QueueFile queue = mapper.treeToValue(root, QueueFile.class);
      return new QueueFile(SCHEMA, queue.jobs() == null ? List.of() : queue.jobs(),
          queue.lanes() == null ? Map.of() : queue.lanes(), queue.incidents());
    } catch (JsonProcessingException | IllegalArgumentException e) {
      String message = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
      throw new CorruptStateFileException(file, "does not match queue schema " + SCHEMA + ": " + message);
    }
  }

  /**
   * Schema 1 (before explicit states): {@code {schema:1, jobs:[{id, source, title, status, created,
   * chapters:[{id, number, done}]}]}} with status {@code queued | downloading | waiting | complete | failed}.
   */
  private ObjectNode migrateFromSchema1(ObjectNode old) {
    ObjectNode root = mapper.createObjectNode();
    root.put("schema", SCHEMA);
    ArrayNode jobs = root.putArray("jobs");
    String now = Instant.now().toString();
    for (JsonNode oldJob : old.path("jobs")) {
      String status = oldJob.path("status").asText();
      boolean hasChapters = oldJob.path("chapters").size() > 0;
      String state = switch (status) {
        case "complete" -> "done";
        case "waiting" -> hasChapters ? "ready" : "pending";
        case "failed" -> "paused";
        default -> "pending";
      };
      ObjectNode job = jobs.addObject();
      job.put("id", oldJob.path("id").asText());
      job.put("source", oldJob.path("source").asText());
      job.put("titleId", oldJob.path("title").asText());
      job.put("title", oldJob.path("title").asText());
      job.put("state", state);
      job.put("inspected", hasChapters);
      job.put("confirmed", !"waiting".equals(status) && hasChapters);
      job.put("attempts", 0);
      job.put("interruptions", "downloading".equals(status) ? 1 : 0);
      String created = oldJob.path("created").isTextual() ? oldJob.path("created").asText() : now;
      job.put("createdAt", created);
      job.put("updatedAt", now);
      if ("failed".equals(status)) {
        job.put("reason", "migrated from schema 1 as failed: " + oldJob.path("error").asText("no error recorded"));
      }
      ArrayNode chapters = job.putArray("chapters");
      List<JsonNode> oldChapters = new ArrayList<>();
      oldJob.path("chapters").forEach(oldChapters::add);
      for (JsonNode oldChapter : oldChapters) {
        ObjectNode chapter = chapters.addObject();
        chapter.put("id", oldChapter.path("id").asText());
        chapter.put("number", oldChapter.path("number").asText());
        chapter.put("title", oldChapter.path("title").asText(""));
        chapter.put("stage", oldChapter.path("done").asBoolean() ? "published" : "planned");
        chapter.put("pages", oldChapter.path("pages").asInt(0));
      }
    }
    root.putObject("lanes");
    return root;
  }
}
