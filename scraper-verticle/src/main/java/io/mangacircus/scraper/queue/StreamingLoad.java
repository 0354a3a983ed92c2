package io.mangacircus.scraper.queue;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.mangacircus.scraper.state.StateJson;
import io.mangacircus.scraper.failure.Incident;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds {@code queue.json} and its journal's lines past the snapshot straight from the files' bytes, one job at a time,
 * the journal's jobs applied by id (no tree of the queue is built): the usual path of {@link QueueStore#load}. It takes
 * only files it binds exactly as the tree path does (schema {@value QueueStore#SCHEMA}, every value of the shape this
 * version writes); for anything else it answers null and the tree path, which migrates older schemas and names every
 * error, decides. It never writes.
 */
final class StreamingLoad {

  /** The queue store's logger: the torn-line warning reads the same whichever path loaded the queue. */
  private static final Logger LOG = LoggerFactory.getLogger(QueueStore.class);

  private static final TypeReference<Map<String, LaneSettings>> LANES = new TypeReference<>() { };
  private static final TypeReference<List<Incident>> INCIDENTS = new TypeReference<>() { };

  /**
   * The queue bound, the sequence of the snapshot it started from, the last sequence applied, where the journal's
   * whole lines end, how many lines it has and how many were applied.
   */
  record Loaded(QueueFile queue, long snapshotSequence, long sequence, long length, int lines, int applied) {
  }

  /** What the snapshot holds; jobs by id, in the file's order. */
  private record Snapshot(LinkedHashMap<String, Job> jobs, Map<String, LaneSettings> lanes, List<Incident> incidents,
      long sequence) {
  }

  /** One journal line; {@code lanes} and {@code incidents} null when the line leaves them as they were. */
  private record Line(long seq, List<Job> jobs, List<String> removed, Map<String, LaneSettings> lanes,
      List<Incident> incidents) {
  }

  /** The files are left to the tree path. */
  private static final class Declined extends RuntimeException {
    Declined(String why) {
      super(why, null, false, false);
    }
  }

  private final Path file;
  private final Path journal;
  private final ObjectMapper mapper;
  private final ObjectReader jobReader;
  private final ObjectReader laneReader;
  private final ObjectReader incidentReader;

  StreamingLoad(Path file, Path journal) {
    this.file = file;
    this.journal = journal;
    this.mapper = StateJson.mapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    // The tree path keys a job whose id is not a string by its place: a number coerced into an id is left to it.
    mapper.coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    this.jobReader = mapper.readerFor(Job.class);
    this.laneReader = mapper.readerFor(LANES);
    this.incidentReader = mapper.readerFor(INCIDENTS);
  }

  /** The queue, or null when the tree path must read it. */
  Loaded load() {
    try {
      long started = System.nanoTime();
      Loaded loaded = replay(snapshot());
      LOG.debug("[QUEUE] {}: {} jobs bound from the bytes of the snapshot and {} journal lines in {} ms", file,
          loaded.queue().jobs().size(), loaded.applied(), (System.nanoTime() - started) / 1_000_000);
      return loaded;
    } catch (IOException | RuntimeException e) {
      LOG.debug("[QUEUE] {}: read through the tree path ({})", file, e.toString());
      return null;
    }
  }

  private Snapshot snapshot() throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return new Snapshot(new LinkedHashMap<>(), null, null, 0);
    }
    LinkedHashMap<String, Job> jobs = new LinkedHashMap<>();
    Map<String, LaneSettings> lanes = null;
    List<Incident> incidents = null;
    long sequence = 0;
    Set<String> fields = new HashSet<>();
    try (JsonParser parser = mapper.createParser(bytes)) {
      expect(parser.nextToken() == JsonToken.START_OBJECT, "not an object");
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        expect(fields.add(name), "a repeated field");
        JsonToken value = parser.nextToken();
        switch (name) {
          case "schema" -> expect(value == JsonToken.VALUE_NUMBER_INT
              && parser.getNumberType() == JsonParser.NumberType.INT && parser.getIntValue() == QueueStore.SCHEMA,
              "not schema " + QueueStore.SCHEMA);
          case "sequence" -> sequence = wholeNumber(parser);
          case "jobs" -> {
            expect(value == JsonToken.START_ARRAY, "jobs is not an array");
            int index = 0;
            while (parser.nextToken() == JsonToken.START_OBJECT) {
              Job job = jobReader.readValue(parser);
              // A job without an id is kept (under a name no id has) for the queue to judge, as the tree path does.
              jobs.put(job.id() != null ? job.id() : "\u0000" + index, job);
              index++;
            }
            expect(parser.currentToken() == JsonToken.END_ARRAY, "a job is not an object");
          }
          case "lanes" -> {
            expect(value == JsonToken.START_OBJECT, "lanes is not an object");
            lanes = laneReader.readValue(parser);
          }
          case "incidents" -> {
            expect(value == JsonToken.START_ARRAY, "incidents is not an array");
            incidents = incidentReader.readValue(parser);
          }
          default -> parser.skipChildren();
        }
      }
      expect(parser.currentToken() == JsonToken.END_OBJECT && fields.contains("schema"), "no schema");
      expect(parser.nextToken() == null, "something after the queue");
    }
    return new Snapshot(jobs, lanes, incidents, sequence);
  }

  /** The journal's lines past the snapshot applied to it, in order (the rules of the tree path's replay). */
  private Loaded replay(Snapshot snapshot) throws IOException {
    LinkedHashMap<String, Job> jobs = snapshot.jobs();
    Map<String, LaneSettings> lanes = snapshot.lanes();
    List<Incident> incidents = snapshot.incidents();
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(journal);
    } catch (NoSuchFileException e) {
      bytes = new byte[0];
    }
    long sequence = snapshot.sequence();
    int start = 0;
    int lineNumber = 0;
    int applied = 0;
    while (start < bytes.length) {
      lineNumber++;
      int end = start;
      while (end < bytes.length && bytes[end] != '\n') {
        end++;
      }
      Line line = null;
      if (end < bytes.length) {
        try {
          line = line(bytes, start, end - start, sequence);
        } catch (JsonParseException e) {
          expect(end == bytes.length - 1, "line " + lineNumber + " does not parse and is not the last line");
        }
      }
      if (line == null) {
        Loaded loaded = loaded(jobs, lanes, incidents, snapshot.sequence(), sequence, start, lineNumber - 1, applied);
        LOG.warn("[QUEUE] {}: its last line ({} bytes) is incomplete or does not parse: the process stopped while "
            + "appending it; that change was never acknowledged and is ignored", journal, bytes.length - start);
        return loaded;
      }
      if (line.seq() > sequence) {
        expect(line.seq() == sequence + 1, "line " + lineNumber + " does not follow the sequence");
        line.removed().forEach(jobs::remove);
        line.jobs().forEach(job -> jobs.put(job.id(), job));
        if (line.lanes() != null) {
          lanes = line.lanes();
        }
        if (line.incidents() != null) {
          incidents = line.incidents();
        }
        sequence = line.seq();
        applied++;
      }
      start = end + 1;
    }
    return loaded(jobs, lanes, incidents, snapshot.sequence(), sequence, bytes.length, lineNumber, applied);
  }

  private static Loaded loaded(LinkedHashMap<String, Job> jobs, Map<String, LaneSettings> lanes,
      List<Incident> incidents, long snapshotSequence, long sequence, long length, int lines, int applied) {
    QueueFile queue = new QueueFile(QueueStore.SCHEMA, new ArrayList<>(jobs.values()), lanes == null ? Map.of() : lanes,
        incidents);
    return new Loaded(queue, snapshotSequence, sequence, length, lines, applied);
  }

  /**
   * One journal line, {@code {"seq":N,"jobs":[..],"removed":[..],"lanes":{..},"incidents":[..]}}; a line at or before
   * {@code after} is only checked to parse (the tree path does not bind it either).
   *
   * @throws JsonParseException when the line is not JSON (a torn last line, or a corrupt journal)
   */
  private Line line(byte[] bytes, int offset, int length, long after) throws IOException {
    Long seq = null;
    List<Job> jobs = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    Map<String, LaneSettings> lanes = null;
    List<Incident> incidents = null;
    Set<String> fields = new HashSet<>(8);
    try (JsonParser parser = mapper.createParser(bytes, offset, length)) {
      expect(parser.nextToken() == JsonToken.START_OBJECT, "a line is not an object");
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        expect(fields.add(name), "a repeated field");
        JsonToken value = parser.nextToken();
        if (name.equals("seq")) {
          seq = wholeNumber(parser);
          continue;
        }
        if (seq != null && seq <= after) {
          parser.skipChildren();
          continue;
        }
        switch (name) {
          case "jobs" -> {
            expect(value == JsonToken.START_ARRAY, "jobs is not an array");
            while (parser.nextToken() == JsonToken.START_OBJECT) {
              jobs.add(jobReader.readValue(parser));
            }
            expect(parser.currentToken() == JsonToken.END_ARRAY, "a job is not an object");
          }
          case "removed" -> {
            expect(value == JsonToken.START_ARRAY, "removed is not an array");
            while (parser.nextToken() == JsonToken.VALUE_STRING) {
              removed.add(parser.getText());
            }
            expect(parser.currentToken() == JsonToken.END_ARRAY, "a removed id is not a string");
          }
          case "lanes" -> {
            expect(value == JsonToken.START_OBJECT, "lanes is not an object");
            lanes = laneReader.readValue(parser);
          }
          case "incidents" -> {
            expect(value == JsonToken.START_ARRAY, "incidents is not an array");
            incidents = incidentReader.readValue(parser);
          }
          default -> parser.skipChildren();
        }
      }
      expect(parser.currentToken() == JsonToken.END_OBJECT && seq != null, "a line without its sequence");
      try {
        expect(parser.nextToken() == null, "something after a line's object");
      } catch (JsonParseException e) {
        // The tree path reads the first value of a line and ignores what follows it: not a torn line for it.
        throw new Declined("something after a line's object");
      }
    }
    return new Line(seq, jobs, removed, lanes, incidents);
  }

  /** A whole number that fits a long, as the tree path accepts for a sequence. */
  private static long wholeNumber(JsonParser parser) throws IOException {
    expect(parser.currentToken() == JsonToken.VALUE_NUMBER_INT
        && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER, "a sequence that is not a whole number");
    return parser.getLongValue();
  }

  private static void expect(boolean condition, String why) {
    if (!condition) {
      throw new Declined(why);
    }
  }
}
