package io.mangacircus.scraper.publish;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.DurableFiles;
import io.mangacircus.contracts.library.ChapterManifest;
import io.mangacircus.scraper.state.CrashPoints;
import io.mangacircus.scraper.state.StateJson;
import io.mangacircus.scraper.source.PageRef;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The staging folder of one chapter: validated pages, a {@code checkpoint.json} header written once (which chapter,
 * its page manifest) and an append-only {@code checkpoint.log}, one JSON line per validated page, fdatasynced after
 * each. A page is written to a hidden {@code .NNN.ext.part}, fsynced and renamed to {@code NNN.ext} (the folder fsynced)
 * before its line is appended; a torn last line (a kill mid-append) counts as absent and is cut off before the next append. Reopening
 * re-validates every recorded page against its hash; hidden pending files never count (docs/downloads.md, "Staging").
 * What a folder records is read by {@link CheckpointReader}.
 */
public final class StagingFolder implements Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(StagingFolder.class);
  /** The header: schema 2 (pages in the log) or an earlier version's schema 1 (pages inside). */
  static final String CHECKPOINT = "checkpoint.json";
  /** One line per validated page, appended. */
  static final String CHECKPOINT_LOG = "checkpoint.log";
  static final int HEADER_SCHEMA = 2;

  private final Path folder;
  private final String fingerprint;
  private final ChapterKey key;
  private final List<String> manifest;
  private final InstantSource clock;
  private final ObjectMapper mapper;
  private final TreeMap<Integer, Checkpoint.Page> pages = new TreeMap<>();
  /** Where the log's last complete line ends: anything after it is a torn line, cut off before the next append. */
  private long logEnd;
  /** The log, open from the first page stored until {@link #close}. */
  private FileChannel log;

  private StagingFolder(Path folder, String fingerprint, ChapterKey key, List<String> manifest, InstantSource clock) {
    this.folder = folder;
    this.fingerprint = fingerprint;
    this.key = key;
    this.manifest = List.copyOf(manifest);
    this.clock = clock;
    this.mapper = mapper();
  }

  /**
   * One mapper for every staging folder: a fresh one per read would build its deserializers again each time, which
   * dominated startup recovery's reading of 10,000 checkpoints (docs/benchmarks.md, "Scale"). Configured once, then
   * only used, so sharing it across threads is safe.
   */
  private static final ObjectMapper MAPPER = StateJson.mapper();

  static ObjectMapper mapper() {
    return MAPPER;
  }

  /**
   * Opens (or creates) the staging folder for a chapter manifest. Only a checkpoint with the same fingerprint is
   * reused, and only its pages whose bytes still match their recorded hash. A new folder gets its header here.
   *
   * @throws CorruptStateFileException when the folder's checkpoint cannot be parsed or belongs to another chapter
   *     (the folder is then left untouched)
   */
  public static StagingFolder open(LibraryFolders layout, ChapterKey key, List<String> manifest, InstantSource clock) {
    String fingerprint = Fingerprints.chapter(key.source(), key.titleId(), key.chapterId(), manifest);
    Path folder = layout.staging(fingerprint);
    StagingFolder staging = new StagingFolder(folder, fingerprint, key, manifest, clock);
    try {
      // Created durably, library/ included when it is new: a chapter recorded later is never in a folder a cut loses.
      DurableFiles.createDirectories(folder);
      staging.load();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare staging folder " + folder, e);
    }
    return staging;
  }

  /**
   * Reads a staging folder's checkpoint without changing anything (for recovery): the header with every recorded page
   * (not re-validated; a torn last log line left out); empty when there is none.
   *
   * @throws CorruptStateFileException when the header, a log line before the last or {@code chapter.json} cannot be
   *     parsed
   */
  public static Optional<Checkpoint> readCheckpoint(Path folder) {
    return Optional.ofNullable(CheckpointReader.read(folder, mapper()).header());
  }

  /**
   * A mark that moves whenever a page is recorded (the bytes in the folder's log), read with one {@code stat}: what
   * the stall watchdog compares between ticks. 0 when there is no log.
   */
  public static long progressMark(Path folder) {
    try {
      return Files.size(folder.resolve(CHECKPOINT_LOG));
    } catch (IOException e) {
      return 0;
    }
  }

  private void load() throws IOException {
    CheckpointReader.Recorded recorded = CheckpointReader.read(folder, mapper);
    Checkpoint checkpoint = recorded.header();
    if (checkpoint == null) {
      writeHeader();
      return;
    }
    Path file = folder.resolve(recorded.compacted() ? ChapterManifest.FILE : CHECKPOINT);
    boolean sameChapter = fingerprint.equals(checkpoint.fingerprint()) && key.source().equals(checkpoint.source())
        && key.titleId().equals(checkpoint.titleId()) && key.chapterId().equals(checkpoint.chapterId())
        && (recorded.compacted() || manifest.equals(checkpoint.manifest()));
    if (!sameChapter) {
      throw new CorruptStateFileException(file, "belongs to another chapter manifest (fingerprint "
          + checkpoint.fingerprint() + ")");
    }
    logEnd = recorded.logEnd();
    int dropped = 0;
    for (Checkpoint.Page page : checkpoint.pages()) {
      if (page.index() > manifest.size()) {
        throw new CorruptStateFileException(file, "records page " + page.index() + " of a " + manifest.size()
            + "-page chapter");
      }
      Path pageFile = folder.resolve(page.file());
      byte[] bytes = Files.exists(pageFile) ? Files.readAllBytes(pageFile) : null;
      if (bytes != null && bytes.length == page.size() && Fingerprints.sha256(bytes).equals(page.sha256())) {
        pages.put(page.index(), page);
      } else {
        // Not counted, nothing rewritten: the page is fetched again and its new line, appended, wins.
        dropped++;
        LOG.warn("[STAGING] page {} of {} chapter {} no longer matches its recorded hash; it will be fetched again",
            page.index(), key.titleId(), key.chapterId());
      }
    }
    if (recorded.compacted() && !complete()) {
      // Compacted for publication, then a page changed: back to a header and a log holding the pages still good.
      rebuildLog();
    }
    if (!pages.isEmpty()) {
      LOG.info("[STAGING] reusing {} validated pages of {} chapter {} from {}{}", pages.size(), key.titleId(),
          key.chapterId(), folder.getFileName(), dropped > 0 ? " (" + dropped + " dropped)" : "");
    }
  }

  /** The staging folder. */
  public Path path() {
    return folder;
  }

  public String fingerprint() {
    return fingerprint;
  }

  public ChapterKey key() {
    return key;
  }

  /** Pages in the manifest. */
  public int pageCount() {
    return manifest.size();
  }

  /** Whether page {@code index} is validated and recorded. */
  public boolean has(int index) {
    return pages.containsKey(index);
  }

  /** How many pages are validated and recorded. */
  public int validatedPages() {
    return pages.size();
  }

  /** Whether every page of the manifest is validated. */
  public boolean complete() {
    return pages.size() == manifest.size();
  }

  /** The recorded pages in order. */
  public List<Checkpoint.Page> pages() {
    return new ArrayList<>(pages.values());
  }

  /**
   * Stores a validated page: hidden part file, fdatasync, rename, then one line appended to the log and the log
   * fdatasynced. Costs the same whatever the chapter's size.
   *
   * @param extension {@code jpg}, {@code png}, ...
   */
  public void store(PageRef page, String extension, byte[] bytes) throws IOException {
    record(write(page, extension, bytes));
  }

  /**
   * The first half of {@link #store}: writes the page's file (hidden part file, fdatasync, rename) and hashes it, but
   * does not record it, so until {@link #record} it is not a page of this folder (a kill leaves an unrecorded file,
   * fetched again on resume). Touches nothing but the page's own files: may run on any thread, several pages at once
   * (the decode pool does, so the lane keeps fetching).
   *
   * @return the page as {@link #record} takes it
   */
  public Checkpoint.Page write(PageRef page, String extension, byte[] bytes) throws IOException {
    String name = String.format(Locale.ROOT, "%03d.%s", page.index(), extension);
    Path part = folder.resolve("." + name + ".part");
    try (FileChannel channel = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      writeFully(channel, ByteBuffer.wrap(bytes));
      CrashPoints.reach("page.part-written");
      channel.force(false);
    }
    // The folder is fsynced with the rename, before the page's line is: a recorded page survives a power cut too.
    DurableFiles.rename(part, folder.resolve(name), true);
    CrashPoints.reach("page.renamed");
    return new Checkpoint.Page(page.index(), name, bytes.length, Fingerprints.sha256(bytes));
  }

  /**
   * The second half of {@link #store}: records a page {@link #write} wrote, one line appended to the log and the log
   * fdatasynced. On the folder's owner (the lane) only, one page at a time.
   */
  public void record(Checkpoint.Page written) throws IOException {
    append(written);
    pages.put(written.index(), written);
  }

  /** Appends one page's line and fdatasyncs the log; a torn tail left by a crash is cut off first. */
  private void append(Checkpoint.Page page) throws IOException {
    byte[] json = mapper.writeValueAsBytes(page);
    byte[] line = Arrays.copyOf(json, json.length + 1);
    line[json.length] = '\n';
    FileChannel channel = log();
    if (CrashPoints.due("checkpoint.line-torn")) {
      writeFully(channel, ByteBuffer.wrap(line, 0, line.length / 2));
      channel.force(false);
      CrashPoints.halt("checkpoint.line-torn");
    }
    writeFully(channel, ByteBuffer.wrap(line));
    channel.force(false);
    logEnd += line.length;
  }

  private FileChannel log() throws IOException {
    if (log == null) {
      FileChannel channel = DurableFiles.open(folder.resolve(CHECKPOINT_LOG), StandardOpenOption.WRITE);
      try {
        long size = channel.size();
        if (size > logEnd) {
          LOG.warn("[STAGING] {} of {} chapter {} ends with a torn line ({} bytes, the page in flight when the process "
              + "stopped); cut off before the next page", CHECKPOINT_LOG, key.titleId(), key.chapterId(),
              size - logEnd);
          channel.truncate(logEnd);
          channel.force(false);
        }
        channel.position(logEnd);
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
      log = channel;
    }
    return log;
  }

  private static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  /** Closes the log (publication, a lane stopping, a failure); the next {@link #store} opens it again. Idempotent. */
  @Override
  public void close() {
    if (log != null) {
      try {
        log.close();
      } catch (IOException e) {
        LOG.warn("[STAGING] closing {} of {} failed: {}", CHECKPOINT_LOG, folder.getFileName(), e.toString());
      }
      log = null;
    }
  }

  /** Writes {@code chapter.json}-style metadata files into the folder before publication. */
  void writeFile(String name, byte[] content) throws IOException {
    AtomicFiles.write(folder.resolve(name), content);
  }

  /**
   * Removes the checkpoint files once {@code chapter.json} (which records every page with its hash) is durable in the
   * folder, so that the published chapter does not carry them: the header first and its removal made durable, then
   * the log; a crash in between leaves a folder that {@link #open} reads from its {@code chapter.json}.
   */
  void compactForPublication() throws IOException {
    if (!Files.exists(folder.resolve(ChapterManifest.FILE))) {
      throw new IllegalStateException("chapter.json must be written before " + folder + " is compacted");
    }
    close();
    DurableFiles.delete(folder.resolve(CHECKPOINT));
    DurableFiles.delete(folder.resolve(CHECKPOINT_LOG));
    logEnd = 0;
  }

  /** The header of a new folder: written once, atomically. */
  private void writeHeader() throws IOException {
    Checkpoint header = new Checkpoint(HEADER_SCHEMA, fingerprint, key.source(), key.titleId(), key.chapterId(),
        manifest, List.of(), clock.instant());
    AtomicFiles.write(folder.resolve(CHECKPOINT), mapper.writeValueAsBytes(header));
  }

  /** A fresh log with the pages kept, durable before the header that makes it count is written. */
  private void rebuildLog() throws IOException {
    Path file = folder.resolve(CHECKPOINT_LOG);
    try (FileChannel channel = DurableFiles.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      for (Checkpoint.Page page : pages.values()) {
        byte[] json = mapper.writeValueAsBytes(page);
        writeFully(channel, ByteBuffer.wrap(json));
        writeFully(channel, ByteBuffer.wrap(new byte[] {'\n'}));
      }
      channel.force(false);
      logEnd = channel.size();
    }
    writeHeader();
  }

  /** Pages by index, for publication metadata. */
  Map<Integer, Checkpoint.Page> pageMap() {
    return pages;
  }
}
