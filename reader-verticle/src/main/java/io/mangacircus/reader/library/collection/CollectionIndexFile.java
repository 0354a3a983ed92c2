package io.mangacircus.reader.library.collection;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.DurableFiles;
import io.mangacircus.reader.library.archive.ArchiveIndex;
import io.mangacircus.reader.library.metadata.BookComicInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A collection's last complete scan, kept under the data folder ({@code collections/<name>/index.json}, never inside
 * the collection) with every archive's page index, so that a restarted reader serves the collection at once and its
 * first rescan opens only archives that changed. Only a cache: a file that fails to parse, has another schema or
 * describes another folder is logged and ignored (the collection is scanned from nothing) and never overwritten in
 * this process. Blocking.
 */
final class CollectionIndexFile {

  private static final Logger LOG = LoggerFactory.getLogger(CollectionIndexFile.class);
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /**
   * The schema this version reads and writes. 2 added each book's ComicInfo.xml: a schema-1 file says nothing of it,
   * and its unchanged archives would never be opened again to read it, so one is replaced by a scan from nothing.
   */
  static final int SCHEMA = 2;

  static final String FILE = "index.json";

  record Kept(int schema, String root, String finishedAt, List<KeptSeries> series, List<KeptItem> unreadable) {
  }

  record KeptSeries(String id, String title, String path, List<KeptBook> books) {
  }

  record KeptBook(String id, String title, BookKind kind, String path, long size, String modified, int pageCount,
      ArchiveIndex index, List<String> images, BookComicInfo comicInfo) {
  }

  record KeptItem(String path, UnreadableItem.Cause cause, String reason, long size, String modified) {
  }

  private final Path file;
  private final String root;
  private volatile boolean writable = true;

  /**
   * @param folder this collection's folder under the data folder
   * @param root the collection's folder, which the kept scan must describe
   */
  CollectionIndexFile(Path folder, Path root) {
    this.file = folder.resolve(FILE);
    this.root = root.toString();
  }

  /** The kept scan; empty when there is none or it cannot be used (then it is never overwritten). */
  Optional<CollectionScan> load() {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      return unusable("cannot be read (" + e.getMessage() + ")");
    }
    try {
      Kept kept = MAPPER.readValue(bytes, Kept.class);
      if (kept.schema() < SCHEMA) {
        // Kept by an older version, without what this one adds: rescanned, then replaced.
        LOG.info("[LIBRARY] {} has schema {} of an older version: the collection is scanned from nothing", file,
            kept.schema());
        return Optional.empty();
      }
      if (kept.schema() != SCHEMA) {
        return unusable("has schema " + kept.schema() + ", this version reads " + SCHEMA);
      }
      if (!root.equals(kept.root())) {
        // Another folder configured under the same name: its books are not this one's.
        LOG.info("[LIBRARY] {} describes {}, not {}: the collection is scanned from nothing", file, kept.root(), root);
        return Optional.empty();
      }
      return Optional.of(new CollectionScan(Instant.parse(kept.finishedAt()),
          kept.series().stream().map(CollectionIndexFile::series).toList(),
          kept.unreadable().stream().map(i -> new UnreadableItem(i.path(), i.cause(), i.reason(), i.size(),
              Instant.parse(i.modified()))).toList(), 0, 0));
    } catch (IOException | RuntimeException e) {
      return unusable("does not parse (" + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + ")");
    }
  }

  /** Keeps {@code scan} atomically, unless the file found at start could not be used. */
  void save(CollectionScan scan) {
    if (!writable) {
      return;
    }
    Kept kept = new Kept(SCHEMA, root, scan.finishedAt().toString(),
        scan.series().stream().map(s -> new KeptSeries(s.id(), s.title(), s.path(), s.books().stream()
            .map(b -> new KeptBook(b.id(), b.title(), b.kind(), b.path(), b.size(), b.modified().toString(),
                b.pageCount(), b.index().orElse(null), b.images(), b.comicInfo().orElse(null))).toList())).toList(),
        scan.unreadable().stream().map(i -> new KeptItem(i.path(), i.cause(), i.reason(), i.size(),
            i.modified().toString())).toList());
    try {
      DurableFiles.createDirectories(file.getParent());
      AtomicFiles.write(file, MAPPER.writeValueAsBytes(kept));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private static CollectionSeries series(KeptSeries s) {
    return new CollectionSeries(s.id(), s.title(), s.path(), s.books().stream()
        .map(b -> new CollectionBook(b.id(), b.title(), b.kind(), b.path(), b.size(), Instant.parse(b.modified()),
            b.pageCount(), Optional.ofNullable(b.index()), b.images(), Optional.ofNullable(b.comicInfo()))).toList());
  }

  private Optional<CollectionScan> unusable(String why) {
    writable = false;
    LOG.warn("[LIBRARY] {} {}: it is ignored (the collection is scanned from nothing) and left as it is; delete it to "
        + "let the reader keep the index again", file, why);
    return Optional.empty();
  }
}
