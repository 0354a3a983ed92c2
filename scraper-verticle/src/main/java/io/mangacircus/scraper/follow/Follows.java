package io.mangacircus.scraper.follow;

import io.mangacircus.contracts.CorruptStateFileException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The followed titles, which nightly discovery checks ({@code data/scraper/follows.json}, schema 1): written atomically
 * on every change, before the change takes effect; a file that does not parse is refused and never overwritten. An
 * install that has no file yet (the first start after an upgrade) follows every title already in the library once, as
 * discovery checked every library title before follows existed ({@link #seed}, off the scraper's start path;
 * docs/sources.md, "Following titles").
 */
public final class Follows {

  private static final Logger LOG = LoggerFactory.getLogger(Follows.class);

  /** The schema this version reads and writes. */
  public static final int SCHEMA = 1;

  /**
   * One followed title.
   *
   * @param source source name
   * @param titleId the source's title id
   * @param title human title (the title id until known)
   * @param language the language followed
   * @param preferredGroups group ids in order of preference for the jobs discovery queues
   * @param followedAt when it was followed
   * @param lastCheckAt when discovery last queued a check of it, or null
   * @param lastNewChapterAt when a chapter of it was last published, or null
   */
  public record Entry(String source, String titleId, String title, String language, List<String> preferredGroups,
      Instant followedAt, Instant lastCheckAt, Instant lastNewChapterAt) {

    public Entry {
      preferredGroups = List.copyOf(preferredGroups);
    }
  }

  /** A title already in the library, followed on the first start without a follows file. */
  public record LibraryTitle(String source, String titleId, String title) {
  }

  /** Where the follows stand. */
  private enum State {
    /** Read from the file, or seeded: reads and changes go ahead. */
    OPEN,
    /** No file yet: the first start's {@link #seed} is due or under way; reads and changes wait for it. */
    SEEDING,
    /**
     * No file, and the seed did not write one (a stop came first, or the file could not be written): changes are
     * refused, so that no file without the seed is written; the next start seeds again.
     */
    NOT_SEEDED
  }

  /** A chapter published while the seed ran, for a title the seed may follow. */
  private record Published(String title, Instant at) {
  }

  private final Path file;
  private final InstantSource clock;
  private Map<String, Entry> entries;
  private int batching;
  private boolean unsaved;
  private State state;
  private boolean seedRunning;
  private volatile boolean seedStopped;
  /** New chapters published while the seed runs, by title (the last of each): applied to the titles it follows. */
  private final Map<String, Published> meanwhile = new LinkedHashMap<>();

  private Follows(Path file, InstantSource clock, Map<String, Entry> entries, State state) {
    this.file = file;
    this.clock = clock;
    this.entries = entries;
    this.state = state;
  }

  /**
   * Opens the follows file. Without one (the first start of a version with follows), the follows wait for
   * {@link #seed}, which the scraper runs off its start path: until it ends, reads and changes wait for it and new
   * chapters are kept for it.
   *
   * @throws CorruptStateFileException when the file exists but cannot be read (it is left untouched)
   */
  public static Follows open(Path file, InstantSource clock) {
    try {
      return new Follows(file, clock, FollowsFile.parse(file, Files.readString(file, StandardCharsets.UTF_8)), State.OPEN);
    } catch (NoSuchFileException e) {
      return new Follows(file, clock, new LinkedHashMap<>(), State.SEEDING);
    } catch (IOException e) {
      throw new CorruptStateFileException(file, "cannot be read: " + e.getMessage());
    }
  }

  /**
   * Opens the follows file and, without one, seeds it at once ({@link #open(Path, InstantSource)} then
   * {@link #seed}).
   */
  public static Follows open(Path file, InstantSource clock, Supplier<Collection<LibraryTitle>> library) {
    Follows follows = open(file, clock);
    follows.seed(stopped -> library.get());
    return follows;
  }

  /**
   * The first start's seed (blocking; nothing to do when the file existed): follows every title {@code library} lists,
   * once, with the chapters published meanwhile as their last new chapter, and writes the file once, whole. When the
   * library cannot be read, follows nothing and writes nothing (the file is written at the first follow, else the next
   * start tries again). After {@link #stopSeed}, or when the file cannot be written, writes nothing and refuses changes
   * until the next start, which seeds again.
   *
   * @param library lists the library's titles; it may stop early once the flag it is given says so (a stop)
   */
  public void seed(Function<BooleanSupplier, Collection<LibraryTitle>> library) {
    synchronized (this) {
      if (state != State.SEEDING || seedRunning || seedStopped) {
        return;
      }
      seedRunning = true;
    }
    Collection<LibraryTitle> titles = null;
    UncheckedIOException unreadable = null;
    try {
      titles = library.apply(() -> seedStopped);
    } catch (UncheckedIOException e) {
      unreadable = e;
    } finally {
      synchronized (this) {
        settleSeed(titles, unreadable);
      }
    }
  }

  /** Ends the seed, under this lock: whatever happened, the waiters go on. */
  private void settleSeed(Collection<LibraryTitle> titles, UncheckedIOException unreadable) {
    try {
      if (seedStopped) {
        state = State.NOT_SEEDED;
        LOG.info("[FOLLOWS] stopping before the titles already in the library were followed: {} not written; the "
            + "next start follows them", file.getFileName());
      } else if (unreadable != null) {
        // The library's own failure shows at the first write (a storage incident); the next start without a follows
        // file tries again.
        state = State.OPEN;
        LOG.warn("[FOLLOWS] no {} yet and the library cannot be read ({}): following nothing for now; the file is "
            + "written at the first follow, else the next start tries again", file.getFileName(),
            unreadable.getMessage());
      } else if (titles == null) {
        state = State.NOT_SEEDED;
        LOG.error("[FOLLOWS] the library's titles could not be listed: {} not written; the next start tries again",
            file.getFileName());
      } else {
        Instant now = clock.instant();
        Map<String, Entry> seeded = new LinkedHashMap<>();
        for (LibraryTitle title : titles) {
          seeded.putIfAbsent(key(title.source(), title.titleId()), new Entry(title.source(), title.titleId(),
              title.title(), "en", List.of(), now, null, null));
        }
        meanwhile.forEach((key, chapter) -> seeded.computeIfPresent(key, (k, e) -> withNewChapter(e, chapter.title(),
            chapter.at())));
        try {
          save(seeded);
          state = State.OPEN;
          LOG.info("[FOLLOWS] no {} yet: following the {} titles already in the library (once; unfollow any of them "
              + "on the Following list)", file.getFileName(), seeded.size());
        } catch (IOException io) {
          state = State.NOT_SEEDED;
          LOG.error("[FOLLOWS] could not write {} with the {} titles already in the library: {}; following nothing "
              + "and refusing changes until the next start, which tries again", file.getFileName(), seeded.size(),
              io.toString());
        }
      }
    } finally {
      seedRunning = false;
      meanwhile.clear();
      notifyAll();
    }
  }

  /**
   * Stops the first start's seed (a stop of the scraper): a seed not yet begun never runs, one under way ends at its
   * next library folder and writes nothing (one that is already writing writes the whole file); waits for it to end.
   */
  public synchronized void stopSeed() {
    seedStopped = true;
    if (state == State.SEEDING && !seedRunning) {
      state = State.NOT_SEEDED;
      notifyAll();
      return;
    }
    awaitSeed();
  }

  /** Waits for the seed, under this lock; a change then fails when the seed wrote nothing. */
  private void awaitSeedForChange() throws IOException {
    while (state == State.SEEDING) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while the titles already in the library were being "
            + "followed");
      }
    }
    if (state == State.NOT_SEEDED) {
      throw new IOException(file.getFileName() + " is not written yet: the titles already in the library were not "
          + "followed at this start (stopped, or the file could not be written); the next start follows them");
    }
  }

  /** Waits for the seed, under this lock (an interrupted wait returns: a read then sees what is there). */
  private void awaitSeed() {
    while (state == State.SEEDING) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** A title's key in the follows. */
  static String key(String source, String titleId) {
    return source + "\u0000" + titleId;
  }

  /** The file this store owns. */
  public Path file() {
    return file;
  }

  /** Every followed title, by title then source. */
  public synchronized List<Entry> list() {
    awaitSeed();
    return entries.values().stream().sorted(Comparator.comparing((Entry e) -> e.title().toLowerCase(
        java.util.Locale.ROOT)).thenComparing(Entry::source).thenComparing(Entry::titleId)).toList();
  }

  /** The followed title, if it is followed. */
  public synchronized Optional<Entry> get(String source, String titleId) {
    awaitSeed();
    return Optional.ofNullable(entries.get(key(source, titleId)));
  }

  /**
   * Follows a title (again: its language and groups change, the rest stays). Saved before it takes effect.
   *
   * @param language null keeps a followed title's language, else {@code en}
   * @param preferredGroups null keeps a followed title's groups, else none
   * @throws IOException when the file cannot be written (nothing changed)
   */
  public synchronized Entry follow(String source, String titleId, String title, String language,
      List<String> preferredGroups) throws IOException {
    awaitSeedForChange();
    Entry old = entries.get(key(source, titleId));
    Entry entry = old == null
        ? new Entry(source, titleId, title == null ? titleId : title, language == null ? "en" : language,
            preferredGroups == null ? List.of() : preferredGroups, clock.instant(), null, null)
        : new Entry(source, titleId, title == null || title.equals(titleId) ? old.title() : title,
            language == null ? old.language() : language,
            preferredGroups == null ? old.preferredGroups() : preferredGroups, old.followedAt(), old.lastCheckAt(),
            old.lastNewChapterAt());
    change(key(source, titleId), entry);
    return entry;
  }

  /** Stops following a title; true when it was followed. Nothing downloaded is touched. */
  public synchronized boolean unfollow(String source, String titleId) throws IOException {
    awaitSeedForChange();
    if (!entries.containsKey(key(source, titleId))) {
      return false;
    }
    change(key(source, titleId), null);
    return true;
  }

  /** Records that discovery queued a check of these titles at {@code at}. */
  public synchronized void checked(Collection<Entry> titles, Instant at) throws IOException {
    awaitSeedForChange();
    Map<String, Entry> next = new LinkedHashMap<>(entries);
    for (Entry title : titles) {
      next.computeIfPresent(key(title.source(), title.titleId()), (k, e) -> new Entry(e.source(), e.titleId(),
          e.title(), e.language(), e.preferredGroups(), e.followedAt(), at, e.lastNewChapterAt()));
    }
    save(next);
  }

  /**
   * Records that a chapter of a title was published (nothing for a title that is not followed). Saved at once, or
   * inside {@link #batch} once at the batch's end.
   */
  public synchronized void newChapter(String source, String titleId, String title, Instant at) throws IOException {
    if (state == State.SEEDING) {
      // Kept for the seed, which may follow the title (it waits for nobody: a lane or recovery publishes this).
      meanwhile.put(key(source, titleId), new Published(title, at));
      return;
    }
    Entry e = entries.get(key(source, titleId));
    if (e == null) {
      return;
    }
    Entry entry = withNewChapter(e, title, at);
    if (batching > 0) {
      if (!unsaved) {   // the saved map stays as it is; the batch's changes go to one copy of it
        entries = new LinkedHashMap<>(entries);
        unsaved = true;
      }
      entries.put(key(source, titleId), entry);
      return;
    }
    change(key(source, titleId), entry);
  }

  /**
   * Runs {@code publications} with the new chapters they record kept in memory and saved once when they end (start-up
   * recovery publishes thousands of chapters at once; saving the file once for each took a minute at 2,500). Like the
   * queue's own batch, nothing of it is durable before this returns; a failed save is logged and retried at the next
   * change. Other changes inside it are saved at once, with the batch's chapters so far.
   */
  public void batch(Runnable publications) {
    synchronized (this) {
      batching++;
    }
    try {
      publications.run();
    } finally {
      synchronized (this) {
        if (--batching == 0 && unsaved) {
          try {
            save(entries);
          } catch (IOException e) {
            LOG.error("[FOLLOWS] could not record the new chapters in {}: {}", file, e.toString());
          }
        }
      }
    }
  }

  private static Entry withNewChapter(Entry e, String title, Instant at) {
    return new Entry(e.source(), e.titleId(), title == null || title.isBlank() ? e.title() : title, e.language(),
        e.preferredGroups(), e.followedAt(), e.lastCheckAt(), at);
  }

  private void change(String key, Entry entry) throws IOException {
    Map<String, Entry> next = new LinkedHashMap<>(entries);
    if (entry == null) {
      next.remove(key);
    } else {
      next.put(key, entry);
    }
    save(next);
  }

  private void save(Map<String, Entry> next) throws IOException {
    FollowsFile.write(file, next.values());
    entries = next;
    unsaved = false;
  }
}
