package io.mangacircus.scraper.lane;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.library.ChapterManifest;
import io.mangacircus.contracts.library.LibraryLayout;
import io.mangacircus.scraper.demosite.DemoCatalog;
import io.mangacircus.scraper.publish.Checkpoint;
import io.mangacircus.scraper.publish.Fingerprints;
import io.mangacircus.scraper.publish.StagingFolder;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.ChapterStage;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.QueueFile;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.testing.powercut.PowerCutFileSystem;
import io.mangacircus.testing.powercut.Sync;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * What a power cut at a sync point would leave, judged against what the scraper had acknowledged by then: at every
 * fsync of the queue journal or of a checkpoint log, the cut is written out and each chapter the cut's queue calls
 * published must be complete and byte-identical to the source's pages, and each page a checkpoint log acknowledged
 * (synced) must be in the cut with its bytes. A few cuts at random sync points are kept for a restart. Never throws
 * into the scraper's thread: what it finds is collected.
 */
final class CutChecks {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String JOURNAL = "queue.json.journal";
  private static final String CHECKPOINT_LOG = "checkpoint.log";

  /** A cut kept for a restart, with the source's image requests served when it was taken. */
  record KeptCut(Path folder, int syncPoint, long imagesServed) {
  }

  private final PowerCutFileSystem fs;
  private final Path scratch;
  private final DemoCatalog catalog;
  private final LongSupplier imagesServed;
  private final Random random;
  private final int keep;
  /** Acknowledged pages by staging folder name: what each checkpoint log held at its last fsync. */
  private final Map<String, Map<Integer, Checkpoint.Page>> acknowledged = new HashMap<>();
  private final List<String> problems = new ArrayList<>();
  private final List<KeptCut> kept = new ArrayList<>();
  private int syncPoints;
  private int checks;
  private int publishedSeen;
  private int pagesSeen;

  CutChecks(PowerCutFileSystem fs, Path scratch, DemoCatalog catalog, LongSupplier imagesServed, long seed, int keep) {
    this.fs = fs;
    this.scratch = scratch;
    this.catalog = catalog;
    this.imagesServed = imagesServed;
    this.random = new Random(seed);
    this.keep = keep;
  }

  /** The sync listener. Serialized: a check sees one sync point at a time. */
  synchronized void atSync(Sync sync) {
    syncPoints++;
    try {
      String name = sync.path().getFileName().toString();
      if (!sync.directory() && name.equals(CHECKPOINT_LOG)) {
        remember(sync.path());
      }
      if (!sync.directory() && (name.equals(CHECKPOINT_LOG) || name.equals(JOURNAL))) {
        check(name);
      }
      maybeKeep();
    } catch (IOException | RuntimeException e) {
      problems.add("sync point " + syncPoints + " (" + sync.path() + "): the check failed: " + e);
    }
  }

  synchronized List<String> problems() {
    return List.copyOf(problems);
  }

  synchronized List<KeptCut> kept() {
    return List.copyOf(kept);
  }

  /** How many cuts were checked, how many published chapters and acknowledged pages they were checked for. */
  synchronized String summary() {
    return syncPoints + " sync points, " + checks + " cuts checked (" + publishedSeen + " published chapters and "
        + pagesSeen + " acknowledged pages found in them)";
  }

  synchronized int checks() {
    return checks;
  }

  synchronized int publishedSeen() {
    return publishedSeen;
  }

  synchronized int pagesSeen() {
    return pagesSeen;
  }

  /** The log just synced, read on the thread that synced it (its only writer): every line in it is acknowledged. */
  private void remember(Path log) throws IOException {
    Path real = Path.of(log.toString());
    Map<Integer, Checkpoint.Page> pages = new TreeMap<>();
    for (String line : Files.readAllLines(real, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        Checkpoint.Page page = MAPPER.readValue(line, Checkpoint.Page.class);
        pages.put(page.index(), page);
      }
    }
    acknowledged.merge(real.getParent().getFileName().toString(), pages, (old, now) -> {
      old.putAll(now);
      return old;
    });
  }

  private void check(String what) throws IOException {
    Path cut = fs.cut(fresh(scratch.resolve("check")));
    checks++;
    String at = "sync point " + syncPoints + " (" + what + ")";
    Path library = cut.resolve("data").resolve("library");
    Map<String, Published> published = published(library);
    for (Job job : queue(cut).jobs()) {
      for (ChapterEntry chapter : job.chapters()) {
        if (chapter.stage() == ChapterStage.PUBLISHED) {
          publishedSeen++;
          checkPublished(at, job, chapter, published);
        }
      }
    }
    acknowledged.forEach((staging, pages) -> pages.values().forEach(page -> {
      pagesSeen++;
      checkAcknowledged(at, library, staging, page, published);
    }));
  }

  private void checkPublished(String at, Job job, ChapterEntry chapter, Map<String, Published> published) {
    String named = job.titleId() + " chapter " + chapter.number();
    Published found = published.values().stream()
        .filter(p -> p.manifest().names(job.source(), job.titleId(), chapter.id())).findFirst().orElse(null);
    if (found == null) {
      problems.add(at + ": the queue calls " + named + " published, the cut has no folder for it");
      return;
    }
    ChapterManifest manifest = found.manifest();
    if (!manifest.fingerprint().equals(chapter.fingerprint()) || manifest.pages().size() != chapter.pages()) {
      problems.add(at + ": " + named + " is published with " + manifest.pages().size() + " pages (fingerprint "
          + manifest.fingerprint() + "), the queue records " + chapter.pages() + " (" + chapter.fingerprint() + ")");
    }
    for (ChapterManifest.Page page : manifest.pages()) {
      byte[] source = catalog.pageImage(job.titleId(), chapter.id(), page.index());
      if (!Arrays.equals(bytes(found.folder().resolve(page.file())), source)) {
        problems.add(at + ": page " + page.index() + " of published " + named + " differs from the source's");
      }
    }
  }

  private void checkAcknowledged(String at, Path library, String staging, Checkpoint.Page page,
      Map<String, Published> published) {
    String fingerprint = staging.substring(LibraryLayout.STAGING_PREFIX.length());
    Path folder = library.resolve(staging);
    boolean kept;
    if (Files.isDirectory(folder)) {
      Optional<Checkpoint> recorded = StagingFolder.readCheckpoint(folder);
      kept = recorded.isPresent() && recorded.get().pages().stream().anyMatch(p -> p.index() == page.index()
          && p.sha256().equals(page.sha256())) && page.sha256().equals(hash(folder.resolve(page.file())));
    } else if (published.containsKey(fingerprint)) {
      Published chapter = published.get(fingerprint);
      kept = chapter.manifest().pages().stream().anyMatch(p -> p.index() == page.index()
          && p.sha256().equals(page.sha256())) && page.sha256().equals(hash(chapter.folder().resolve(page.file())));
    } else {
      kept = false;
    }
    if (!kept) {
      problems.add(at + ": page " + page.index() + " acknowledged in " + staging + "/" + CHECKPOINT_LOG
          + " is not in the cut");
    }
  }

  /** Reservoir sampling: each sync point is equally likely to be among the {@code keep} cuts kept. */
  private void maybeKeep() throws IOException {
    int slot = kept.size() < keep ? kept.size() : random.nextInt(syncPoints);
    if (slot >= keep) {
      return;
    }
    Path folder = fs.cut(fresh(scratch.resolve("cut-at-" + syncPoints)));
    KeptCut cut = new KeptCut(folder, syncPoints, imagesServed.getAsLong());
    if (slot < kept.size()) {
      delete(kept.set(slot, cut).folder());
    } else {
      kept.add(cut);
    }
  }

  /** The cut's queue as the scraper would load it (empty when the cut holds none). */
  static QueueFile queue(Path cut) {
    Path file = cut.resolve("data").resolve("scraper").resolve("queue.json");
    return new QueueStore(file).read();
  }

  /** A chapter folder of the cut's library and its {@code chapter.json}. */
  record Published(Path folder, ChapterManifest manifest) {
  }

  /** The cut's published chapters by fingerprint. */
  static Map<String, Published> published(Path library) throws IOException {
    Map<String, Published> chapters = new HashMap<>();
    if (!Files.isDirectory(library)) {
      return chapters;
    }
    try (Stream<Path> series = Files.list(library)) {
      for (Path folder : series.filter(Files::isDirectory)
          .filter(f -> !f.getFileName().toString().startsWith(".")).toList()) {
        try (Stream<Path> chapterFolders = Files.list(folder)) {
          for (Path chapter : chapterFolders.filter(Files::isDirectory).toList()) {
            try {
              ChapterManifest manifest = ChapterManifest.read(chapter);
              chapters.put(manifest.fingerprint(), new Published(chapter, manifest));
            } catch (NoSuchFileException e) {
              // a folder without chapter.json is not a published chapter
            } catch (ChapterManifest.InvalidException e) {
              throw new IOException(chapter + "/chapter.json cannot be read: " + e.getMessage(), e);
            }
          }
        }
      }
    }
    return chapters;
  }

  /** The valid pages a cut holds: every page of its published chapters and each recorded page of a staging folder. */
  static int pagesKept(Path cut) throws IOException {
    Path library = cut.resolve("data").resolve("library");
    Map<String, Published> published = published(library);
    int pages = published.values().stream().mapToInt(p -> p.manifest().pages().size()).sum();
    if (!Files.isDirectory(library)) {
      return pages;
    }
    try (Stream<Path> entries = Files.list(library)) {
      for (Path staging : entries.filter(f -> f.getFileName().toString().startsWith(LibraryLayout.STAGING_PREFIX))
          .toList()) {
        // A chapter caught between its rename's two folder fsyncs is in both places: it counts once.
        String fingerprint = staging.getFileName().toString().substring(LibraryLayout.STAGING_PREFIX.length());
        Optional<Checkpoint> recorded = StagingFolder.readCheckpoint(staging);
        if (recorded.isPresent() && !published.containsKey(fingerprint)) {
          pages += (int) recorded.get().pages().stream()
              .filter(p -> p.sha256().equals(hash(staging.resolve(p.file())))).count();
        }
      }
    }
    return pages;
  }

  private static String hash(Path file) {
    byte[] bytes = bytes(file);
    return bytes == null ? null : Fingerprints.sha256(bytes);
  }

  private static byte[] bytes(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      return null;
    }
  }

  private static Path fresh(Path folder) throws IOException {
    delete(folder);
    return folder;
  }

  static void delete(Path folder) throws IOException {
    if (Files.exists(folder)) {
      try (Stream<Path> entries = Files.walk(folder)) {
        for (Path entry : entries.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(entry);
        }
      }
    }
  }
}
