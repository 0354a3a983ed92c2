package io.mangacircus.scraper.queue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mangacircus.contracts.AtomicFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings an older {@code queue.json} forward: schema 1 is migrated (the original kept as
 * {@code queue.json.schema1.bak}); schemas 2 and 3 are read as they are and rewritten as the current schema before the
 * first change is appended to the journal beside them. Only the queue's owner writes; a reader migrates in memory.
 */
final class SchemaMigration {

  /** The queue store's logger: a migration is the store's doing. */
  private static final Logger LOG = LoggerFactory.getLogger(QueueStore.class);

  /** Writes a migrated queue as the snapshot of sequence 0, with an empty journal beside it (under the store lock). */
  interface Rewrite {
    void write(QueueFile queue) throws IOException;
  }

  private final Path file;
  private final Path journal;
  private final Path backup;
  private final ObjectMapper mapper;
  private final Function<JsonNode, QueueFile> bind;
  private final Rewrite rewrite;

  SchemaMigration(Path file, Path journal, Path backup, ObjectMapper mapper, Function<JsonNode, QueueFile> bind,
      Rewrite rewrite) {
    this.file = file;
    this.journal = journal;
    this.backup = backup;
    this.mapper = mapper;
    this.bind = bind;
    this.rewrite = rewrite;
  }

  /**
   * A schema 1 snapshot as the current schema's tree; with {@code write}, the original is kept beside it and the
   * migrated queue saved at once.
   */
  ObjectNode fromSchema1(ObjectNode old, String text, boolean write) {
    int schema = 1;
    ObjectNode migrated = migrateFromSchema1(old);
    if (!write) {
      return migrated;
    }
    QueueFile queue = bind.apply(migrated);
    keepOriginal(text, schema);
    rewriteAs(queue);
    LOG.info("[QUEUE] migrated {} from schema 1 to {} ({} jobs); the original is kept as {}", file, QueueStore.SCHEMA,
        queue.jobs().size(), originalBackup(schema).getFileName());
    return migrated;
  }

  /**
   * A snapshot from before the journal (schema 2 or 3), rewritten as the current schema before any change is appended
   * beside it, so that a version from before the journal refuses the pair instead of reading the snapshot without its
   * changes.
   */
  void rewriteBeforeJournal(JsonNode root, int schema) {
    QueueFile queue = bind.apply(root);
    rewriteAs(queue);
    LOG.info("[QUEUE] {} rewritten from schema {} to {} ({} jobs): its changes go to {} from now on; the schema-{} "
        + "file is kept as {}", file, schema, QueueStore.SCHEMA, queue.jobs().size(), journal.getFileName(), schema,
        backup.getFileName());
  }

  private void rewriteAs(QueueFile queue) {
    try {
      rewrite.write(queue);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("could not write " + file, e);
    }
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

  /**
   * Schema 1 (before explicit states): {@code {schema:1, jobs:[{id, source, title, status, created,
   * chapters:[{id, number, done}]}]}} with status {@code queued | downloading | waiting | complete | failed}.
   */
  private ObjectNode migrateFromSchema1(ObjectNode old) {
    ObjectNode root = mapper.createObjectNode();
    root.put("schema", QueueStore.SCHEMA);
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
