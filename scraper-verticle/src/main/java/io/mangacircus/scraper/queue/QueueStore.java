package io.mangacircus.scraper.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.scraper.StateJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and writes {@code data/scraper/queue.json}: schema-versioned, one job a line, written atomically with the
 * previous version kept as {@code queue.json.bak}, older schemas migrated forward (the original kept as
 * {@code queue.json.schema<N>.bak}). A file that fails to parse is never overwritten. A save costs what the changed
 * jobs cost to serialize plus writing the file, not a serialization of every job.
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
  private static final byte[] EMPTY_JOBS = "\"jobs\":[]".getBytes(StandardCharsets.UTF_8);
  /** Writes without indentation: a job is one line of the file. */
  private final ObjectMapper compact = StateJson.mapper();
  /** Each job's JSON as last written, by instance (jobs are immutable: a changed job is a new instance). */
  private IdentityHashMap<Job, byte[]> serialized = new IdentityHashMap<>();

  public QueueStore(Path file) {
    this.file = file;
    this.mapper = StateJson.mapper()
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

  /**
   * Writes the queue atomically, the current file kept as {@code queue.json.bak} first: a hard link to it (no copy, its
   * content is never changed since every write is a new file renamed in), renamed over the old backup.
   */
  public synchronized void save(QueueFile queue) {
    try {
      if (Files.exists(file)) {
        keepBackup();
      }
      AtomicFiles.write(file, serialize(queue));
      saves.increment();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("could not write " + file, e);
    }
  }

  /**
   * {@code queue.json.bak} becomes the current file: linked under a temporary name, renamed over the old backup (so
   * there is always one), made durable with the folder by the write that follows. A filesystem without hard links
   * gets a copy.
   */
  private void keepBackup() throws IOException {
    Path link = file.resolveSibling("." + backup().getFileName() + ".link");
    Files.deleteIfExists(link);
    try {
      Files.createLink(link, file);
    } catch (UnsupportedOperationException | java.nio.file.FileSystemException e) {
      AtomicFiles.write(backup(), Files.readAllBytes(file));
      return;
    }
    Files.move(link, backup(), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    // Renaming a link over a link to the same file does nothing (POSIX) and leaves the temporary name.
    Files.deleteIfExists(link);
  }

  /**
   * The file's bytes: one job a line, each job's JSON reused from the previous save while the queue holds the same
   * (immutable) {@link Job} instance, so a commit serializes only the jobs that changed; the rest of the file (schema,
   * lanes, incidents) is written by Jackson around them.
   */
  private byte[] serialize(QueueFile queue) throws IOException {
    byte[] envelope = compact.writeValueAsBytes(new QueueFile(SCHEMA, List.of(), queue.lanes(), queue.incidents()));
    // "jobs" is the record's second component, after the numeric schema: its first occurrence is the field itself.
    int at = indexOf(envelope, EMPTY_JOBS);
    if (at < 0) {
      throw new IllegalStateException("queue envelope without " + new String(EMPTY_JOBS, StandardCharsets.UTF_8));
    }
    int split = at + EMPTY_JOBS.length - 1;
    List<Job> jobs = queue.jobs();
    IdentityHashMap<Job, byte[]> next = new IdentityHashMap<>(jobs.size() * 2);
    byte[][] lines = new byte[jobs.size()][];
    int length = envelope.length + (jobs.isEmpty() ? 0 : 1);
    for (int i = 0; i < lines.length; i++) {
      Job job = jobs.get(i);
      byte[] json = serialized.get(job);
      lines[i] = json != null ? json : compact.writeValueAsBytes(job);
      next.put(job, lines[i]);
      length += lines[i].length + (i == 0 ? 1 : 2);
    }
    // One buffer of the exact size: the unchanged jobs are copied once, never serialized again.
    byte[] out = new byte[length];
    System.arraycopy(envelope, 0, out, 0, split);
    int position = split;
    for (int i = 0; i < lines.length; i++) {
      if (i > 0) {
        out[position++] = ',';
      }
      out[position++] = '\n';
      System.arraycopy(lines[i], 0, out, position, lines[i].length);
      position += lines[i].length;
    }
    if (lines.length > 0) {
      out[position++] = '\n';
    }
    System.arraycopy(envelope, split, out, position, envelope.length - split);
    serialized = next;
    return out;
  }

  private static int indexOf(byte[] bytes, byte[] part) {
    outer:
    for (int i = 0; i <= bytes.length - part.length; i++) {
      for (int j = 0; j < part.length; j++) {
        if (bytes[i + j] != part[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
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
