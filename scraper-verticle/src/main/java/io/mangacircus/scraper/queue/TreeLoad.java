package io.mangacircus.scraper.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mangacircus.contracts.CorruptStateFileException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the queue through trees: the snapshot read and judged (an older schema brought forward by
 * {@link SchemaMigration}), then the journal's lines past it applied by id. The path for whatever
 * {@link StreamingLoad} does not take as it is; it names every error it finds.
 */
final class TreeLoad {

  /** The queue store's logger: the torn-line warning reads the same whichever path loaded the queue. */
  private static final Logger LOG = LoggerFactory.getLogger(QueueStore.class);

  private static final int SCHEMA = QueueStore.SCHEMA;

  /** The last schema without a journal beside it. */
  private static final int SCHEMA_WITHOUT_JOURNAL = 3;

  /** The schema before the scheduled and external chapter stages; read unchanged. */
  private static final int SCHEMA_WITHOUT_AWAITING_STAGES = 2;

  private final Path file;
  private final Path journal;
  private final ObjectMapper mapper;
  private final SchemaMigration migrations;

  /**
   * @param backup {@code queue.json.bak}, where the snapshot a migration replaces is kept
   * @param rewrite writes a migrated queue (only when a load may write)
   */
  TreeLoad(Path file, Path journal, Path backup, ObjectMapper mapper, SchemaMigration.Rewrite rewrite) {
    this.file = file;
    this.journal = journal;
    this.mapper = mapper;
    this.migrations = new SchemaMigration(file, journal, backup, mapper, this::bind, rewrite);
  }

  /** The queue, the snapshot's sequence and where the journal's whole lines end; {@code migrate} writes a migration. */
  StreamingLoad.Loaded load(boolean migrate) {
    Snapshot snapshot = readSnapshot(migrate);
    Replay replay = replay(snapshot);
    return new StreamingLoad.Loaded(bind(replay.tree(mapper)), snapshot.sequence, replay.sequence, replay.length,
        replay.lines, replay.applied);
  }

  /** The queue as one tree shaped as {@code queue.json} is, nothing written. */
  ObjectNode tree() {
    return replay(readSnapshot(false)).tree(mapper);
  }

  /** The snapshot as read, with the journal sequence it includes. */
  private record Snapshot(JsonNode root, long sequence) {
  }

  private Snapshot readSnapshot(boolean migrate) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      return new Snapshot(mapper.createObjectNode(), 0);
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
    if (!root.path("sequence").isMissingNode() && !root.path("sequence").canConvertToLong()) {
      throw new CorruptStateFileException(file, "has a 'sequence' that is not a whole number");
    }
    long sequence = root.path("sequence").asLong(0);
    if (schema == 1) {
      return new Snapshot(migrations.fromSchema1((ObjectNode) root, text, migrate), 0);
    }
    if (schema != SCHEMA && schema != SCHEMA_WITHOUT_JOURNAL && schema != SCHEMA_WITHOUT_AWAITING_STAGES) {
      throw new CorruptStateFileException(file, "has unknown schema " + schema);
    }
    if (schema < SCHEMA && migrate) {
      migrations.rewriteBeforeJournal(root, schema);
      return new Snapshot(root, 0);
    }
    return new Snapshot(root, sequence);
  }

  /** The queue after the journal's lines past the snapshot, and where the journal's whole lines end. */
  private record Replay(java.util.LinkedHashMap<String, JsonNode> jobs, JsonNode lanes, JsonNode incidents,
      long sequence, long length, int lines, int applied) {

    /** The queue as one tree, shaped as the snapshot is. */
    ObjectNode tree(ObjectMapper mapper) {
      ObjectNode root = mapper.createObjectNode();
      root.put("schema", SCHEMA);
      ArrayNode array = root.putArray("jobs");
      jobs.values().forEach(array::add);
      root.set("lanes", lanes != null && !lanes.isMissingNode() && !lanes.isNull() ? lanes : mapper.createObjectNode());
      if (incidents != null && !incidents.isMissingNode()) {
        root.set("incidents", incidents);
      }
      return root;
    }
  }

  private static final com.fasterxml.jackson.core.type.TypeReference<Map<String, LaneSettings>> LANES =
      new com.fasterxml.jackson.core.type.TypeReference<>() { };
  private static final com.fasterxml.jackson.core.type.TypeReference<List<io.mangacircus.scraper.failure.Incident>>
      INCIDENTS = new com.fasterxml.jackson.core.type.TypeReference<>() { };

  /**
   * Applies the journal's lines with a sequence past the snapshot's, in order. Each line is one commit:
   * {@code {"seq":N,"jobs":[changed jobs],"removed":[job ids],"lanes":{..},"incidents":[..]}} (lanes and incidents only
   * when they changed, whole). A last line that is incomplete or does not parse was being appended when the process
   * stopped: it was never acknowledged and is ignored. Any other line that does not parse, or a gap in the sequence,
   * makes the journal a corrupt state file.
   */
  private Replay replay(Snapshot snapshot) {
    java.util.LinkedHashMap<String, JsonNode> jobs = new java.util.LinkedHashMap<>();
    int index = 0;
    for (JsonNode job : snapshot.root.path("jobs")) {
      // A job without an id is kept (under a name no id has) for the binding to judge.
      jobs.put(job.path("id").isTextual() ? job.get("id").asText() : "\u0000" + index, job);
      index++;
    }
    JsonNode lanes = snapshot.root.get("lanes");
    JsonNode incidents = snapshot.root.get("incidents");
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(journal);
    } catch (NoSuchFileException e) {
      return new Replay(jobs, lanes, incidents, snapshot.sequence, 0, 0, 0);
    } catch (IOException e) {
      throw new CorruptStateFileException(journal, "cannot be read: " + e.getMessage());
    }
    long sequence = snapshot.sequence;
    int start = 0;
    int lineNumber = 0;
    int applied = 0;
    while (start < bytes.length) {
      lineNumber++;
      int end = start;
      while (end < bytes.length && bytes[end] != '\n') {
        end++;
      }
      boolean last = end >= bytes.length - 1;
      JsonNode line;
      try {
        line = end >= bytes.length ? null : mapper.readTree(bytes, start, end - start);
      } catch (IOException e) {
        line = null;
      }
      if (line == null || !line.isObject() || !line.path("seq").canConvertToLong()
          || !line.path("seq").isIntegralNumber()) {
        if (last) {
          LOG.warn("[QUEUE] {}: its last line ({} bytes) is incomplete or does not parse: the process stopped while "
              + "appending it; that change was never acknowledged and is ignored", journal, bytes.length - start);
          return new Replay(jobs, lanes, incidents, sequence, start, lineNumber - 1, applied);
        }
        throw new CorruptStateFileException(journal, "line " + lineNumber + " is not a queue change (not valid JSON "
            + "or no numeric 'seq') and is not the last line");
      }
      long seq = line.get("seq").asLong();
      if (seq > sequence) {
        if (seq != sequence + 1) {
          throw new CorruptStateFileException(journal, "line " + lineNumber + " has sequence " + seq + " but the "
              + "changes before it end at " + sequence + " (lines are missing; if queue.json was restored from a "
              + "backup, move the journal aside to start from queue.json alone)");
        }
        try {
          for (JsonNode id : line.path("removed")) {
            jobs.remove(id.asText());
          }
          for (JsonNode job : line.path("jobs")) {
            Job bound = mapper.treeToValue(job, Job.class);
            jobs.put(bound.id(), job);
          }
          if (line.has("lanes")) {
            mapper.convertValue(line.get("lanes"), LANES);
            lanes = line.get("lanes");
          }
          if (line.has("incidents")) {
            mapper.convertValue(line.get("incidents"), INCIDENTS);
            incidents = line.get("incidents");
          }
        } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
          throw new CorruptStateFileException(journal, "line " + lineNumber + " does not match queue schema " + SCHEMA
              + ": " + e.getMessage());
        }
        sequence = seq;
        applied++;
      }
      start = end + 1;
    }
    return new Replay(jobs, lanes, incidents, sequence, bytes.length, lineNumber, applied);
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
}
