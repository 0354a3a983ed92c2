package io.mangacircus.scraper.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.scraper.state.StateJson;
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
 * Reads and writes {@code data/scraper/queue.json} and its change journal {@code queue.json.journal}: a change is one
 * line appended to the journal and fdatasynced (what it costs does not grow with the queue); {@code queue.json} is the
 * snapshot, rewritten when the journal grows past a threshold (on a worker thread while changes keep being appended),
 * and at a clean close. The snapshot records the last journal sequence it includes; loading is the snapshot plus the
 * journal's later lines. The snapshot is schema-versioned, one job a line, written atomically with the previous
 * version kept as {@code queue.json.bak}, older schemas migrated forward (the original kept as
 * {@code queue.json.schema<N>.bak}). A file that fails to parse is never overwritten (docs/operations.md).
 */
public final class QueueStore {

  private static final Logger LOG = LoggerFactory.getLogger(QueueStore.class);

  /**
   * The schema this version writes. Schema 4 is the snapshot of a queue whose changes since go to the journal beside it:
   * a version before the journal would read the snapshot alone and miss them, so it is refused by that version's
   * "newer than" check instead. Schema 3 added the chapter stages {@code scheduled} and {@code external}; schemas 3 and
   * 2 (a subset) are read as they are and the snapshot is rewritten as schema 4 before the first change is appended;
   * schema 1 (single {@code status} string, {@code done} flags) is migrated.
   */
  public static final int SCHEMA = 4;

  /** The last schema without a journal beside it. */
  private static final int SCHEMA_WITHOUT_JOURNAL = 3;

  /** Journal lines after which the snapshot is rewritten. */
  public static final int COMPACT_AFTER_LINES = 2_000;

  /** Journal bytes after which the snapshot is rewritten. */
  public static final long COMPACT_AFTER_BYTES = 4L * 1024 * 1024;

  /** The schema before the scheduled and external chapter stages; read unchanged. */
  private static final int SCHEMA_WITHOUT_AWAITING_STAGES = 2;

  private final Path file;
  private final Path journal;
  private final int compactAfterLines;
  private final long compactAfterBytes;
  private final ObjectMapper mapper;
  private final StreamingLoad streaming;
  private final java.util.concurrent.atomic.LongAdder saves = new java.util.concurrent.atomic.LongAdder();
  private final java.util.concurrent.atomic.LongAdder compactions = new java.util.concurrent.atomic.LongAdder();
  private static final byte[] EMPTY_JOBS = "\"jobs\":[]".getBytes(StandardCharsets.UTF_8);
  /** Writes without indentation: a job is one line of the file. */
  private final ObjectMapper compact = StateJson.mapper();
  /**
   * Each job's JSON as last written, by instance (jobs are immutable: a changed job is a new instance). Shared by the
   * appends and the compaction worker.
   */
  private volatile Map<Job, byte[]> serialized = java.util.Collections.synchronizedMap(new IdentityHashMap<>());
  /** Only one snapshot is written at a time (the worker's and a close's). */
  private final Object snapshotLock = new Object();
  /** The sequence of the snapshot on disk, as last loaded or written (under {@link #snapshotLock}). */
  private long snapshotSequence;

  // What is durable, as last loaded or written (under this store's lock); null until the first load.
  private Map<String, Job> written;
  /**
   * The jobs of the last load or commit, in order: the same jobs as {@link #written}. A job at the same place that is
   * the same instance is unchanged without a look-up (most of a long queue, at every commit).
   */
  private List<Job> writtenOrder;
  private Map<String, LaneSettings> writtenLanes;
  private List<io.mangacircus.scraper.failure.Incident> writtenIncidents;
  /** The sequence of the last change made durable (in the snapshot or the journal). */
  private long sequence;
  /** The journal's bytes up to its last whole line, as loaded (a torn last line is cut off before the next append). */
  private long journalLength;
  private int journalLines;
  private java.nio.channels.FileChannel channel;
  /** Lines appended while a compaction is under way: the journal it leaves holds them. Null when none runs. */
  private List<byte[]> sinceCompaction;
  private java.util.concurrent.ExecutorService worker;
  private java.util.concurrent.Future<?> running;
  /** Whether {@code queue.json} exists (a first save writes it, so that the snapshot is always there). */
  private volatile boolean snapshotOnDisk;
  /** Lines replayed by the last load (the journal's lines past the snapshot's sequence). */
  private volatile int replayed;

  public QueueStore(Path file) {
    this(file, COMPACT_AFTER_LINES, COMPACT_AFTER_BYTES);
  }

  /** A store that compacts after {@code compactAfterLines} journal lines or {@code compactAfterBytes} bytes. */
  public QueueStore(Path file, int compactAfterLines, long compactAfterBytes) {
    this.file = file;
    this.journal = journalOf(file);
    this.compactAfterLines = compactAfterLines;
    this.compactAfterBytes = compactAfterBytes;
    this.mapper = StateJson.mapper()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    this.streaming = new StreamingLoad(file, journal);
  }

  /** The journal beside a queue file: {@code queue.json.journal}. */
  public static Path journalOf(Path queueFile) {
    return queueFile.resolveSibling(queueFile.getFileName() + ".journal");
  }

  /** The queue file this store owns. */
  public Path file() {
    return file;
  }

  /** Its change journal. */
  public Path journal() {
    return journal;
  }

  /**
   * The queue: the snapshot and the journal's lines past it; empty when neither exists yet. An older schema is migrated
   * and saved at once, with the original kept beside it. Reading changes nothing otherwise (a torn last journal line,
   * the trace of a crash during an append, is ignored with a warning and cut off by this store's next append).
   *
   * @throws CorruptStateFileException when a file exists but cannot be understood (it is left untouched)
   */
  public synchronized QueueFile load() {
    closeChannel();
    StreamingLoad.Loaded loaded = loadQueue(true);
    QueueFile queue = loaded.queue();
    snapshotOnDisk = Files.exists(file);
    synchronized (snapshotLock) {
      snapshotSequence = loaded.snapshotSequence();
    }
    written = new java.util.HashMap<>();
    queue.jobs().forEach(job -> written.put(job.id(), job));
    writtenOrder = List.copyOf(queue.jobs());
    writtenLanes = queue.lanes();
    writtenIncidents = queue.incidents();
    sequence = loaded.sequence();
    journalLength = loaded.length();
    journalLines = loaded.lines();
    replayed = loaded.applied();
    if (loaded.applied() > 0) {
      LOG.info("[QUEUE] {}: {} changes replayed from {} past the snapshot's sequence {}", file, loaded.applied(),
          journal.getFileName(), loaded.snapshotSequence());
    }
    return queue;
  }

  /**
   * The queue as {@link #load} sees it, for a reader that is not its owner ({@code check}, a test of a running
   * service): nothing is written, not even a migration (an older schema is migrated in memory only).
   *
   * @throws CorruptStateFileException when the snapshot or the journal exists but cannot be understood
   */
  public QueueFile read() {
    return loadQueue(false).queue();
  }

  /**
   * The snapshot and the journal's lines past it, bound to jobs straight from the files' bytes ({@link StreamingLoad});
   * whatever that path does not take as it is (an older schema, a value it would not bind exactly as the tree does, a
   * file or a line that does not parse) goes through the trees instead, which migrate, judge and name the error as
   * they always did.
   */
  private StreamingLoad.Loaded loadQueue(boolean migrate) {
    StreamingLoad.Loaded streamed = streaming.load();
    if (streamed != null) {
      return streamed;
    }
    Snapshot snapshot = readSnapshot(migrate);
    Replay replay = replay(snapshot);
    return new StreamingLoad.Loaded(bind(replay.tree(mapper)), snapshot.sequence, replay.sequence, replay.length,
        replay.lines, replay.applied);
  }

  /**
   * The queue as {@link #read} sees it, as a tree shaped as {@code queue.json} is (jobs, lanes, incidents), before it
   * is bound to jobs: for a summary that does not need every field.
   */
  public ObjectNode readTree() {
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
      ObjectNode migrated = migrateFromSchema1((ObjectNode) root);
      if (!migrate) {
        return new Snapshot(migrated, 0);
      }
      QueueFile queue = bind(migrated);
      keepOriginal(text, schema);
      try {
        writeSnapshot(queue, 0);
        emptyJournal(List.of());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("could not write " + file, e);
      }
      LOG.info("[QUEUE] migrated {} from schema 1 to {} ({} jobs); the original is kept as {}", file, SCHEMA,
          queue.jobs().size(), originalBackup(schema).getFileName());
      return new Snapshot(migrated, 0);
    }
    if (schema != SCHEMA && schema != SCHEMA_WITHOUT_JOURNAL && schema != SCHEMA_WITHOUT_AWAITING_STAGES) {
      throw new CorruptStateFileException(file, "has unknown schema " + schema);
    }
    if (schema < SCHEMA && migrate) {
      // Before the journal: the snapshot says schema 4 before any change is appended beside it, so that a version
      // from before the journal refuses the pair instead of reading the snapshot without its changes.
      QueueFile queue = bind(root);
      try {
        writeSnapshot(queue, 0);
        emptyJournal(List.of());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("could not write " + file, e);
      }
      LOG.info("[QUEUE] {} rewritten from schema {} to {} ({} jobs): its changes go to {} from now on; the schema-{} "
          + "file is kept as {}", file, schema, SCHEMA, queue.jobs().size(), journal.getFileName(), schema,
          backup().getFileName());
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

  /**
   * Makes the queue's changes since the last save durable: one journal line (the changed and added jobs, the removed
   * job ids, the lanes and incidents when they changed) appended and fdatasynced; nothing when nothing changed. Past
   * the compaction threshold a snapshot is written on a worker thread meanwhile. A store that has not loaded yet loads
   * first (so that it knows the sequence to continue).
   */
  public synchronized void save(QueueFile queue) {
    if (written == null) {
      load();
    }
    try {
      Change change = changeLine(queue);
      if (change == null) {
        return;
      }
      commit(change);
      if (!snapshotOnDisk) {
        // The first change of a new queue: queue.json is written (small) so that it is there from now on.
        writeSnapshot(queue, sequence);
        emptyJournal(List.of());
      } else if ((journalLines >= compactAfterLines || journalLength >= compactAfterBytes) && sinceCompaction == null) {
        compactInBackground(queue, sequence);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("could not append to " + journal, e);
    }
  }

  /** One commit's journal line and what it makes durable. */
  private record Change(byte[] line, List<Job> changed, List<String> removed, QueueFile queue) {
  }

  /** The journal line of what changed since the durable state; null when nothing did. */
  private Change changeLine(QueueFile queue) throws IOException {
    List<Job> changed = new ArrayList<>();
    int kept = 0;
    List<Job> jobs = queue.jobs();
    List<Job> order = writtenOrder;
    for (int i = 0; i < jobs.size(); i++) {
      Job job = jobs.get(i);
      if (order != null && i < order.size() && order.get(i) == job) {
        kept++;
        continue;
      }
      Job before = written.get(job.id());
      if (before != job) {
        changed.add(job);
      }
      if (before != null) {
        kept++;
      }
    }
    List<String> removed = new ArrayList<>();
    if (kept < written.size()) {
      java.util.Set<String> ids = new java.util.HashSet<>(queue.jobs().size() * 2);
      queue.jobs().forEach(job -> ids.add(job.id()));
      written.keySet().stream().filter(id -> !ids.contains(id)).forEach(removed::add);
    }
    boolean lanesChanged = !queue.lanes().equals(writtenLanes);
    boolean incidentsChanged = !queue.incidents().equals(writtenIncidents);
    if (changed.isEmpty() && removed.isEmpty() && !lanesChanged && !incidentsChanged) {
      return null;
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(256);
    out.write(("{\"seq\":" + (sequence + 1) + ",\"jobs\":[").getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < changed.size(); i++) {
      byte[] json = compact.writeValueAsBytes(changed.get(i));
      serialized.put(changed.get(i), json);
      if (i > 0) {
        out.write(',');
      }
      out.write(json);
    }
    out.write("],\"removed\":".getBytes(StandardCharsets.UTF_8));
    out.write(compact.writeValueAsBytes(removed));
    if (lanesChanged) {
      out.write(",\"lanes\":".getBytes(StandardCharsets.UTF_8));
      out.write(compact.writeValueAsBytes(queue.lanes()));
    }
    if (incidentsChanged) {
      out.write(",\"incidents\":".getBytes(StandardCharsets.UTF_8));
      out.write(compact.writeValueAsBytes(queue.incidents()));
    }
    out.write('}');
    out.write('\n');
    return new Change(out.toByteArray(), changed, removed, queue);
  }

  /**
   * Appends a change's line and fdatasyncs it; the durable state and the sequence advance only once it is on disk. A
   * failed append leaves the journal as it was (the partial bytes are cut off when it is opened again).
   */
  private void commit(Change change) throws IOException {
    try {
      append(change.line);
    } catch (IOException | RuntimeException e) {
      closeChannel();
      throw e;
    }
    change.removed.forEach(written::remove);
    change.changed.forEach(job -> written.put(job.id(), job));
    writtenOrder = List.copyOf(change.queue.jobs());
    writtenLanes = change.queue.lanes();
    writtenIncidents = change.queue.incidents();
    saves.increment();
  }

  /** Appends one line and fdatasyncs it; the sequence advances only once it is durable. */
  private void append(byte[] line) throws IOException {
    if (channel == null) {
      boolean existed = Files.exists(journal);
      if (!existed) {
        Files.createDirectories(journal.toAbsolutePath().getParent());
      }
      channel = java.nio.channels.FileChannel.open(journal, java.nio.file.StandardOpenOption.CREATE,
          java.nio.file.StandardOpenOption.WRITE);
      if (channel.size() > journalLength) {
        // A torn last line (ignored by the load): cut off, or the next line would follow it on the same line.
        channel.truncate(journalLength);
      }
      channel.position(journalLength);
      if (!existed) {
        AtomicFiles.fsyncFolder(journal.toAbsolutePath().getParent());
      }
    }
    java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(line);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    channel.force(false);
    sequence++;
    journalLength += line.length;
    journalLines++;
    if (sinceCompaction != null) {
      sinceCompaction.add(line);
    }
  }

  /**
   * Writes the snapshot of {@code queue} (which includes every change up to {@code upTo}) on the worker, then, under
   * this store's lock, replaces the journal by the lines appended meanwhile. A crash between the two leaves the whole
   * journal, whose lines up to {@code upTo} the next load skips.
   */
  private void compactInBackground(QueueFile queue, long upTo) {
    List<byte[]> tail = new ArrayList<>();
    sinceCompaction = tail;
    if (worker == null) {
      java.util.concurrent.ThreadPoolExecutor executor = new java.util.concurrent.ThreadPoolExecutor(1, 1, 30,
          java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(), task -> {
            Thread thread = new Thread(task, "queue-compaction");
            thread.setDaemon(true);
            return thread;
          });
      executor.allowCoreThreadTimeOut(true);
      worker = executor;
    }
    running = worker.submit(() -> {
      try {
        boolean wrote = writeSnapshot(queue, upTo);
        synchronized (this) {
          if (wrote && sinceCompaction == tail) {
            emptyJournal(tail);
          }
        }
      } catch (IOException | RuntimeException e) {
        LOG.error("[QUEUE] could not compact {} into {} (the journal keeps every change; retried at the next "
            + "threshold): {}", journal, file, e.toString(), e);
      } finally {
        synchronized (this) {
          if (sinceCompaction == tail) {
            sinceCompaction = null;
          }
        }
      }
    });
  }

  /**
   * Writes the snapshot now and empties the journal (a clean close, a test): waits for a compaction under way first.
   * Under the queue's lock, so nothing is appended meanwhile.
   */
  public void compact(QueueFile queue) {
    if (!Thread.holdsLock(this)) {
      awaitCompaction();
    }
    synchronized (this) {
      if (written == null) {
        load();
      }
      try {
        Change change = changeLine(queue);
        if (change != null) {
          commit(change);
        }
        // A compaction under way is superseded: its snapshot is older than this one and it leaves the journal alone.
        sinceCompaction = null;
        writeSnapshot(queue, sequence);
        emptyJournal(List.of());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("could not compact " + journal + " into " + file, e);
      }
    }
  }

  /** Compacts when the journal holds anything, then releases the journal and the worker. */
  public void close(QueueFile queue) {
    awaitCompaction();
    synchronized (this) {
      if (journalLines > 0 || (written != null && changeLineNeeded(queue))) {
        compact(queue);
      }
      closeChannel();
      if (worker != null) {
        worker.shutdown();
        worker = null;
      }
    }
  }

  private void closeChannel() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        LOG.warn("[QUEUE] could not close {}: {}", journal, e.toString());
      }
      channel = null;
    }
  }

  private boolean changeLineNeeded(QueueFile queue) {
    return queue.jobs().size() != written.size() || queue.jobs().stream().anyMatch(j -> written.get(j.id()) != j)
        || !queue.lanes().equals(writtenLanes) || !queue.incidents().equals(writtenIncidents);
  }

  /** Waits for the compaction under way, if any (never under this store's lock: the worker takes it to finish). */
  private void awaitCompaction() {
    java.util.concurrent.Future<?> pending;
    synchronized (this) {
      pending = running;
    }
    if (pending == null) {
      return;
    }
    try {
      pending.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      LOG.error("[QUEUE] compaction failed: {}", e.getCause().toString());
    }
  }

  /**
   * The snapshot, atomically, the previous one kept as {@code queue.json.bak}; false (nothing written) when a snapshot
   * of a later sequence was written meanwhile.
   */
  private boolean writeSnapshot(QueueFile queue, long upTo) throws IOException {
    synchronized (snapshotLock) {
      if (upTo < snapshotSequence) {
        return false;
      }
      if (Files.exists(file)) {
        keepBackup();
      }
      AtomicFiles.write(file, serialize(queue, upTo));
      snapshotSequence = upTo;
      snapshotOnDisk = true;
      compactions.increment();
      return true;
    }
  }

  /**
   * The journal becomes {@code lines} (the lines past the snapshot just written): written atomically, so that a crash
   * leaves either the whole old journal or the new one. Under this store's lock.
   */
  private void emptyJournal(List<byte[]> lines) throws IOException {
    closeChannel();
    long length = 0;
    for (byte[] line : lines) {
      length += line.length;
    }
    if (lines.isEmpty()) {
      if (Files.exists(journal)) {
        try (java.nio.channels.FileChannel empty = java.nio.channels.FileChannel.open(journal,
            java.nio.file.StandardOpenOption.WRITE)) {
          empty.truncate(0);
          empty.force(true);
        }
      }
    } else {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream((int) length);
      for (byte[] line : lines) {
        out.write(line);
      }
      AtomicFiles.write(journal, out.toByteArray());
    }
    journalLength = length;
    journalLines = lines.size();
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
  private byte[] serialize(QueueFile queue, long upTo) throws IOException {
    byte[] plain = compact.writeValueAsBytes(new QueueFile(SCHEMA, List.of(), queue.lanes(), queue.incidents()));
    // The journal sequence the snapshot includes goes before "jobs": {"schema":4,"sequence":N,"jobs":[...
    int jobsAt = indexOf(plain, EMPTY_JOBS);
    if (jobsAt < 0) {
      throw new IllegalStateException("queue envelope without " + new String(EMPTY_JOBS, StandardCharsets.UTF_8));
    }
    byte[] field = ("\"sequence\":" + upTo + ",").getBytes(StandardCharsets.UTF_8);
    byte[] envelope = new byte[plain.length + field.length];
    System.arraycopy(plain, 0, envelope, 0, jobsAt);
    System.arraycopy(field, 0, envelope, jobsAt, field.length);
    System.arraycopy(plain, jobsAt, envelope, jobsAt + field.length, plain.length - jobsAt);
    // "jobs" is the record's second component, after the numeric schema: its first occurrence is the field itself.
    int at = indexOf(envelope, EMPTY_JOBS);
    if (at < 0) {
      throw new IllegalStateException("queue envelope without " + new String(EMPTY_JOBS, StandardCharsets.UTF_8));
    }
    int split = at + EMPTY_JOBS.length - 1;
    List<Job> jobs = queue.jobs();
    Map<Job, byte[]> cache = serialized;
    IdentityHashMap<Job, byte[]> next = new IdentityHashMap<>(jobs.size() * 2);
    byte[][] lines = new byte[jobs.size()][];
    int length = envelope.length + (jobs.isEmpty() ? 0 : 1);
    for (int i = 0; i < lines.length; i++) {
      Job job = jobs.get(i);
      byte[] json = cache.get(job);
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
    serialized = java.util.Collections.synchronizedMap(next);
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

  /** How many changes this store made durable (each commit of a change is one journal line). */
  public long saves() {
    return saves.sum();
  }

  /** How many snapshots this store wrote ({@code queue.json} rewritten whole). */
  public long compactions() {
    return compactions.sum();
  }

  /** How many journal lines the last load replayed past the snapshot. */
  public int replayed() {
    return replayed;
  }

  /** {@code queue.json.bak}: the snapshot before the last one. */
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
