package io.mangacircus.reader.library.collection;

import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.DurableFiles;
import io.mangacircus.reader.library.archive.EntryRules;
import io.mangacircus.reader.library.archive.NaturalOrder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Lists a RAR book's pages and unpacks them into a cache folder under the data folder, through libarchive's bsdtar
 * (run as a program with an argument list, never a shell); RAR is read by no Java code here. Each page is extracted on
 * its own with {@code bsdtar -xqOf} and written as a file named by its page number, so what is cached is only what the
 * reader serves. An archive is refused as a whole, with bsdtar's or the rule's reason, when it cannot be listed, holds
 * an unsafe name or too many entries, or its pages inflate beyond the ZIP bomb limits of {@link EntryRules}.
 * Blocking; call it off the event loop.
 */
public final class RarPages {

  /** How long one bsdtar run may take: a hostile archive can make it loop (libarchive's own test files do). */
  public static final Duration TIMEOUT = Duration.ofSeconds(60);

  /** The file that marks a cache folder complete, holding the page names in order, one a line. */
  static final String COMPLETE = "pages.txt";

  // Enough of bsdtar's complaints for a reason; a looping archive can write megabytes of them.
  private static final int MAX_STDERR = 4096;
  // Names longer than any page name: a listing line beyond it is not a name a collection holds.
  private static final int MAX_NAME_BYTES = 64 * 1024;

  private final Path bsdtar;
  private final Duration timeout;

  public RarPages(Path bsdtar, Duration timeout) {
    this.bsdtar = Objects.requireNonNull(bsdtar, "bsdtar");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /** What listing or unpacking a RAR found: its pages, or why it is refused. */
  public sealed interface Result permits Pages, Refused {
  }

  /**
   * The book's pages: their names in the archive in natural order and, once unpacked, their files (empty after a
   * listing).
   */
  public record Pages(List<String> names, List<Path> files) implements Result {
    public Pages {
      names = List.copyOf(names);
      files = List.copyOf(files);
    }
  }

  /** The archive is refused as a whole. */
  public record Refused(String reason) implements Result {
    public Refused {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * The archive's page names in {@link NaturalOrder}, read with {@code bsdtar -tf}; refused when bsdtar fails, an
   * entry's name is unsafe, there are more than {@link EntryRules#MAX_ENTRIES} entries, or no page at all.
   */
  public Result list(Path archive) {
    List<String> names = new ArrayList<>();
    Run run;
    try {
      run = run(List.of(bsdtar.toString(), "-tf", archive.toString()), out -> readLines(out, names));
    } catch (IOException e) {
      return new Refused("bsdtar could not list the archive: " + e.getMessage());
    }
    if (run.failure() != null) {
      return new Refused(run.failure());
    }
    if (names.size() > EntryRules.MAX_ENTRIES) {
      return new Refused("more than " + EntryRules.MAX_ENTRIES + " entries");
    }
    List<String> pages = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String name : names) {
      String unsafe = EntryRules.unsafeName(name);
      if (unsafe != null) {
        return new Refused("entry " + quoted(name) + " " + unsafe);
      }
      if (EntryRules.isPage(name)) {
        // bsdtar extracts by name: two entries of one name could not be told apart.
        if (!seen.add(name)) {
          return new Refused("two entries are named " + quoted(name));
        }
        pages.add(name);
      }
    }
    if (pages.isEmpty()) {
      return new Refused("no page images in the archive");
    }
    pages.sort(NaturalOrder.INSTANCE);
    return new Pages(pages, List.of());
  }

  /**
   * The book's pages as files in {@code cache}, unpacked now unless a complete cache of this very archive (the
   * folder's name carries its size and mtime) is there already; the book's stale caches are removed first.
   *
   * @param rarFolder the collection's folder of RAR caches, under the data folder
   * @param bookId the book's id ({@link CollectionIds#book}), path-safe
   * @throws IOException when the cache cannot be written (a broken disk, not a broken archive)
   */
  public Result unpack(Path archive, long size, Instant modified, Path rarFolder, String bookId) throws IOException {
    Path cache = cacheFolder(rarFolder, bookId, size, modified);
    Path complete = cache.resolve(COMPLETE);
    if (Files.isRegularFile(complete)) {
      List<String> names = Files.readAllLines(complete, StandardCharsets.UTF_8);
      return new Pages(names, files(cache, names));
    }
    removeStale(rarFolder, bookId, cache);
    Result listed = list(archive);
    if (!(listed instanceof Pages pages)) {
      return listed;
    }
    DurableFiles.deleteTree(cache);
    DurableFiles.createDirectories(cache);
    long budget = Math.min(EntryRules.MAX_TOTAL_UNCOMPRESSED, EntryRules.MAX_RATIO * Math.max(size, 1));
    List<Path> files = files(cache, pages.names());
    for (int i = 0; i < files.size(); i++) {
      String name = pages.names().get(i);
      Path file = files.get(i);
      Path partial = file.resolveSibling(file.getFileName() + ".part");
      long[] written = new long[1];
      Run run;
      try (FileChannel channel = DurableFiles.open(partial, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        long left = budget;
        run = run(List.of(bsdtar.toString(), "-xqOf", archive.toString(), pattern(name)),
            out -> written[0] = copy(out, channel, left));
        channel.force(true);
      }
      String refusal = run.failure() != null ? run.failure()
          : written[0] == 0 ? "page " + quoted(name) + " is empty (a link, a folder or a cut entry)"
          : null;
      if (refusal != null) {
        DurableFiles.deleteTree(cache);
        return new Refused(refusal);
      }
      budget -= written[0];
      DurableFiles.rename(partial, file, true);
    }
    AtomicFiles.write(complete, (String.join("\n", pages.names()) + "\n").getBytes(StandardCharsets.UTF_8));
    return new Pages(pages.names(), files);
  }

  /** Where the pages of this version of a book are cached: {@code <bookId>-<size>-<mtime in ms>} in the folder. */
  public static Path cacheFolder(Path rarFolder, String bookId, long size, Instant modified) {
    return rarFolder.resolve(bookId + "-" + size + "-" + modified.toEpochMilli());
  }

  /** The files the pages of {@code names} are cached in: the page's number and the name's image extension. */
  public static List<Path> files(Path cache, List<String> names) {
    List<Path> files = new ArrayList<>(names.size());
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      String extension = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
      files.add(cache.resolve((i + 1) + "." + extension));
    }
    return files;
  }

  /**
   * A member name as a bsdtar pattern that matches only itself: bsdtar reads its name arguments as shell patterns, so
   * {@code * ? [ \} are escaped, and so is a leading {@code -}, which would otherwise read as an option.
   */
  static String pattern(String name) {
    StringBuilder escaped = new StringBuilder(name.length() + 8);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '*' || c == '?' || c == '[' || c == '\\' || (c == '-' && i == 0)) {
        escaped.append('\\');
      }
      escaped.append(c);
    }
    return escaped.toString();
  }

  // Other versions of the same book (another size or mtime): the archive changed, their pages are no longer its pages.
  private static void removeStale(Path rarFolder, String bookId, Path current) throws IOException {
    if (!Files.isDirectory(rarFolder)) {
      return;
    }
    List<Path> stale = new ArrayList<>();
    try (DirectoryStream<Path> folders = Files.newDirectoryStream(rarFolder, bookId + "-*")) {
      for (Path folder : folders) {
        String rest = folder.getFileName().toString().substring(bookId.length() + 1);
        // Only "<size>-<mtime>" after the id: another book whose id starts with this one keeps its cache.
        if (!folder.equals(current) && rest.matches("\\d+-\\d+")) {
          stale.add(folder);
        }
      }
    }
    for (Path folder : stale) {
      DurableFiles.deleteTree(folder);
    }
  }

  /** Reads a process's standard output. */
  private interface Reading {
    void read(InputStream out) throws IOException;
  }

  /** How a bsdtar run ended: null when it succeeded, else why it failed. */
  private record Run(String failure) {
  }

  private Run run(List<String> command, Reading reading) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE);
    // Names are listed and matched in UTF-8 whatever the server's locale.
    builder.environment().put("LC_ALL", "C.UTF-8");
    Process process = builder.start();
    process.getOutputStream().close();
    AtomicBoolean timedOut = new AtomicBoolean();
    CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
      if (process.isAlive()) {
        timedOut.set(true);
        process.destroyForcibly();
      }
    });
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    Thread drain = new Thread(() -> drain(process.getErrorStream(), stderr), "bsdtar-stderr");
    drain.setDaemon(true);
    drain.start();
    try (InputStream out = process.getInputStream()) {
      reading.read(out);
    } catch (IOException e) {
      if (!timedOut.get()) {
        process.destroyForcibly();
        return new Run("bsdtar's output could not be read: " + e.getMessage());
      }
    } catch (LimitReached e) {
      process.destroyForcibly();
      return new Run(e.getMessage());
    }
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        return new Run("bsdtar took more than " + timeout.toSeconds() + " s");
      }
      drain.join(1000);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while bsdtar ran", e);
    }
    if (timedOut.get()) {
      return new Run("bsdtar took more than " + timeout.toSeconds() + " s");
    }
    if (process.exitValue() != 0) {
      String said;
      synchronized (stderr) {
        // bsdtar prefixes each line with its name and ends with a line that only says it failed.
        said = String.join("; ", stderr.toString(StandardCharsets.UTF_8).lines().map(String::strip)
            .map(l -> l.startsWith("bsdtar: ") ? l.substring(8) : l)
            .filter(l -> !l.isEmpty() && !l.startsWith("Error exit delayed")).toList());
      }
      return new Run("bsdtar failed (exit " + process.exitValue() + ")" + (said.isEmpty() ? "" : ": " + said));
    }
    return new Run(null);
  }

  private static void drain(InputStream err, ByteArrayOutputStream kept) {
    byte[] buffer = new byte[8192];
    try (err) {
      for (int n = err.read(buffer); n >= 0; n = err.read(buffer)) {
        synchronized (kept) {
          kept.write(buffer, 0, Math.max(0, Math.min(n, MAX_STDERR - kept.size())));
        }
      }
    } catch (IOException e) {
      // The process was ended; what it said until then is kept.
    }
  }

  /** A limit on bsdtar's output was passed; the run is ended and refused with this message. */
  private static final class LimitReached extends RuntimeException {
    LimitReached(String message) {
      super(message, null, false, false);
    }
  }

  private static void readLines(InputStream out, List<String> names) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    for (int n = out.read(buffer); n >= 0; n = out.read(buffer)) {
      for (int i = 0; i < n; i++) {
        if (buffer[i] == '\n') {
          names.add(line.toString(StandardCharsets.UTF_8));
          line.reset();
          if (names.size() > EntryRules.MAX_ENTRIES) {
            throw new LimitReached("more than " + EntryRules.MAX_ENTRIES + " entries");
          }
        } else if (line.size() >= MAX_NAME_BYTES) {
          throw new LimitReached("an entry's name is longer than " + MAX_NAME_BYTES + " bytes");
        } else {
          line.write(buffer[i]);
        }
      }
    }
    if (line.size() > 0) {
      names.add(line.toString(StandardCharsets.UTF_8));
    }
  }

  /** Copies the page, refusing it past {@code limit}, the bytes the book's pages may still inflate to. */
  private static long copy(InputStream out, FileChannel channel, long limit) throws IOException {
    byte[] buffer = new byte[64 * 1024];
    long total = 0;
    for (int n = out.read(buffer); n >= 0; n = out.read(buffer)) {
      total += n;
      if (total > limit) {
        throw new LimitReached("pages inflate to more than " + EntryRules.MAX_RATIO + " times the archive's size or "
            + EntryRules.MAX_TOTAL_UNCOMPRESSED + " bytes in all");
      }
      ByteBuffer chunk = ByteBuffer.wrap(buffer, 0, n);
      while (chunk.hasRemaining()) {
        channel.write(chunk);
      }
    }
    return total;
  }

  private static String quoted(String name) {
    String shown = name.length() > 200 ? name.substring(0, 200) + "..." : name;
    return "'" + shown.replaceAll("\\p{Cntrl}", "?") + "'";
  }
}
