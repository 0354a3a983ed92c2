package io.mangacircus.scraper.publish;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.scraper.CrashPoints;
import io.mangacircus.scraper.StateJson;
import io.mangacircus.scraper.source.PageRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The staging folder of one chapter: validated pages plus {@code checkpoint.json}. A page is written to a hidden
 * {@code .NNN.ext.part}, fsynced, renamed to {@code NNN.ext}, and only then recorded in a checkpoint rewritten
 * atomically. Reopening re-validates every recorded page against its hash; hidden pending files never count.
 */
public final class StagingFolder {

  private static final Logger LOG = LoggerFactory.getLogger(StagingFolder.class);
  static final String CHECKPOINT = "checkpoint.json";

  private final Path folder;
  private final String fingerprint;
  private final ChapterKey key;
  private final List<String> manifest;
  private final InstantSource clock;
  private final ObjectMapper mapper;
  private final TreeMap<Integer, Checkpoint.Page> pages = new TreeMap<>();

  private StagingFolder(Path folder, String fingerprint, ChapterKey key, List<String> manifest, InstantSource clock) {
    this.folder = folder;
    this.fingerprint = fingerprint;
    this.key = key;
    this.manifest = List.copyOf(manifest);
    this.clock = clock;
    this.mapper = mapper();
  }

  static ObjectMapper mapper() {
    return StateJson.mapper();
  }

  /**
   * Opens (or creates) the staging folder for a chapter manifest. Only a checkpoint with the same fingerprint is
   * reused, and only its pages whose bytes still match their recorded hash.
   *
   * @throws CorruptStateFileException when the folder's checkpoint cannot be parsed or belongs to another chapter
   *     (the folder is then left untouched)
   */
  public static StagingFolder open(LibraryLayout layout, ChapterKey key, List<String> manifest, InstantSource clock) {
    String fingerprint = Fingerprints.chapter(key.source(), key.titleId(), key.chapterId(), manifest);
    Path folder = layout.staging(fingerprint);
    StagingFolder staging = new StagingFolder(folder, fingerprint, key, manifest, clock);
    try {
      if (!Files.isDirectory(folder)) {
        Files.createDirectories(folder);
        AtomicFiles.fsyncFolder(layout.root());
      }
      staging.loadCheckpoint();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare staging folder " + folder, e);
    }
    return staging;
  }

  /** Reads a staging folder's checkpoint without changing anything (for recovery); empty when there is none. */
  public static java.util.Optional<Checkpoint> readCheckpoint(Path folder) {
    Path file = folder.resolve(CHECKPOINT);
    try {
      return java.util.Optional.of(mapper().readValue(Files.readString(file), Checkpoint.class));
    } catch (NoSuchFileException e) {
      return java.util.Optional.empty();
    } catch (IOException | RuntimeException e) {
      throw new CorruptStateFileException(file, "cannot be parsed: " + e.getMessage());
    }
  }

  private void loadCheckpoint() throws IOException {
    Path file = folder.resolve(CHECKPOINT);
    Checkpoint checkpoint;
    try {
      checkpoint = mapper.readValue(Files.readString(file), Checkpoint.class);
    } catch (NoSuchFileException e) {
      return;
    } catch (JsonProcessingException | RuntimeException e) {
      throw new CorruptStateFileException(file, "cannot be parsed: " + e.getMessage());
    }
    if (!fingerprint.equals(checkpoint.fingerprint()) || !manifest.equals(checkpoint.manifest())) {
      throw new CorruptStateFileException(file, "belongs to another chapter manifest (fingerprint "
          + checkpoint.fingerprint() + ")");
    }
    int dropped = 0;
    for (Checkpoint.Page page : checkpoint.pages()) {
      Path pageFile = folder.resolve(page.file());
      byte[] bytes = Files.exists(pageFile) ? Files.readAllBytes(pageFile) : null;
      if (bytes != null && bytes.length == page.size() && Fingerprints.sha256(bytes).equals(page.sha256())) {
        pages.put(page.index(), page);
      } else {
        dropped++;
        LOG.warn("[STAGING] page {} of {} chapter {} no longer matches its recorded hash; it will be fetched again",
            page.index(), key.titleId(), key.chapterId());
      }
    }
    if (dropped > 0) {
      writeCheckpoint();
    }
    if (!pages.isEmpty()) {
      LOG.info("[STAGING] reusing {} validated pages of {} chapter {} from {}", pages.size(), key.titleId(),
          key.chapterId(), folder.getFileName());
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
   * Stores a validated page: hidden part file, fsync, rename, then an atomic checkpoint that records it.
   *
   * @param extension {@code jpg}, {@code png}, ...
   */
  public void store(PageRef page, String extension, byte[] bytes) throws IOException {
    String name = String.format(Locale.ROOT, "%03d.%s", page.index(), extension);
    Path part = folder.resolve("." + name + ".part");
    try (FileChannel channel = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      CrashPoints.reach("page.part-written");
      channel.force(true);
    }
    Files.move(part, folder.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    CrashPoints.reach("page.renamed");
    pages.put(page.index(), new Checkpoint.Page(page.index(), name, bytes.length, Fingerprints.sha256(bytes)));
    writeCheckpoint();
  }

  /** Writes {@code chapter.json}-style metadata files into the folder before publication. */
  void writeFile(String name, byte[] content) throws IOException {
    AtomicFiles.write(folder.resolve(name), content);
  }

  private void writeCheckpoint() throws IOException {
    Checkpoint checkpoint = new Checkpoint(1, fingerprint, key.source(), key.titleId(), key.chapterId(), manifest,
        new ArrayList<>(pages.values()), clock.instant());
    AtomicFiles.write(folder.resolve(CHECKPOINT), mapper.writeValueAsBytes(checkpoint));
  }

  /** Pages by index, for publication metadata. */
  Map<Integer, Checkpoint.Page> pageMap() {
    return pages;
  }
}
