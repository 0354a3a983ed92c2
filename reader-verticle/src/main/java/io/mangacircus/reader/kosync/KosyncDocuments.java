package io.mangacircus.reader.kosync;

import io.mangacircus.reader.library.CbzDownload;
import io.mangacircus.reader.library.ChapterArchives;
import io.mangacircus.reader.library.KoreaderDigest;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.store.KosyncStore;
import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Maps a KOReader document id to the chapter whose CBZ it names. KOReader names a document by its "binary" partial MD5
 * of the file (its default; frontend/util.lua {@code partialMD5}, {@link KoreaderDigest}) or by the MD5 of the file's
 * base name with its extension (plugins/kosync.koplugin/main.lua {@code getFileNameDigest}; a file KOReader's OPDS
 * browser saved under the server's name, opds.koplugin {@code getServerFileName}, is named by our Content-Disposition
 * {@code filename}, {@link CbzDownload#asciiFileName}). Every id of a chapter is recorded in the reader database when
 * its CBZ is served (the archive is byte-identical each time, so its id holds across downloads and restarts). A CBZ
 * fetched before ids were recorded is found on demand: an unknown id is looked for among the chapters the user is most
 * likely reading in KOReader, the chapter of each of their {@link #RECENT_SERIES} most recent saved positions and the
 * chapters just before and after it, computed from the cached archives (a few reads of 1 KiB each) and recorded. No
 * whole-library pass: on a library of 100,000 chapters that would read a million samples for one unknown file, which
 * may well be a file from elsewhere. Blocking.
 */
public final class KosyncDocuments {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(KosyncDocuments.class);

  /** How many of the user's most recent series an unknown id is looked for in. */
  static final int RECENT_SERIES = 20;

  private static final int REMEMBERED_LIMIT = 100_000;

  private final LibraryFiles files;
  private final ChapterArchives archives;
  private final KosyncStore store;
  private final ProgressStore progress;
  private final InstantSource clock;
  /** Archives (by ETag) whose ids this process has recorded, so that a download records them once. */
  private final Set<String> recorded = ConcurrentHashMap.newKeySet();

  public KosyncDocuments(LibraryFiles files, ChapterArchives archives, KosyncStore store, ProgressStore progress,
      InstantSource clock) {
    this.files = files;
    this.archives = archives;
    this.store = store;
    this.progress = progress;
    this.clock = clock;
  }

  /** Whether a served archive's ids still need recording (an archive this process has not recorded yet). */
  public boolean unrecorded(ChapterArchives.Download download) {
    return !recorded.contains(download.etag());
  }

  /** Records the ids of a served archive. */
  public void recordServed(ChapterArchives.Download download) throws StoreException {
    LibraryFiles.Chapter chapter = download.chapter();
    record(chapter);
  }

  /**
   * Records the ids of a served archive off the event loop when this process has not yet: a failure is logged, never
   * the download's.
   */
  public void recordServedInBackground(io.vertx.core.Vertx vertx, ChapterArchives.Download download) {
    if (unrecorded(download)) {
      vertx.executeBlocking(() -> {
        recordServed(download);
        return null;
      }, false).onFailure(e -> LOG.warn("[KOSYNC] cannot record the KOReader ids of {}/{}: {}",
          download.chapter().seriesId(), download.chapter().id(), e.toString()));
    }
  }

  /** The ids of a chapter's CBZ as served now: its partial MD5 and the MD5 of each name a download gives it. */
  public List<KosyncStore.Document> ids(LibraryFiles.Chapter chapter) {
    String series = chapter.seriesId();
    String id = chapter.id();
    List<KosyncStore.Document> ids = new ArrayList<>();
    ids.add(new KosyncStore.Document(archives.koreaderDigest(files, series, id), series, id,
        KosyncStore.Kind.BINARY));
    Set<String> names = new LinkedHashSet<>(List.of(CbzDownload.asciiFileName(chapter),
        CbzDownload.fileName(chapter)));
    for (String name : names) {
      ids.add(new KosyncStore.Document(fileNameDigest(name), series, id, KosyncStore.Kind.FILENAME));
    }
    return ids;
  }

  /** KOReader's "filename" id: the MD5 hex of the file's name (base name and extension, as UTF-8). */
  public static String fileNameDigest(String name) {
    try {
      byte[] digest = java.security.MessageDigest.getInstance("MD5").digest(name.getBytes(StandardCharsets.UTF_8));
      return java.util.HexFormat.of().formatHex(digest);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has MD5", e);
    }
  }

  /**
   * The chapter {@code document} names for {@code userId}: as recorded, else found among the user's recent chapters
   * (and then recorded); empty when it names none of ours. A recorded chapter that is no longer published is none.
   */
  public Optional<LibraryFiles.Chapter> resolve(long userId, String document) throws StoreException {
    Optional<KosyncStore.Document> known = store.document(document);
    if (known.isPresent()) {
      return published(known.get().series(), known.get().chapter());
    }
    for (Progress p : recent(userId)) {
      List<LibraryFiles.Chapter> chapters;
      try {
        chapters = files.chapters(p.series());
      } catch (LibraryFiles.NotFoundException e) {
        continue;
      }
      for (int i = 0; i < chapters.size(); i++) {
        if (!chapters.get(i).id().equals(p.chapter())) {
          continue;
        }
        for (int j = Math.max(0, i - 1); j <= Math.min(chapters.size() - 1, i + 1); j++) {
          LibraryFiles.Chapter candidate = chapters.get(j);
          try {
            if (record(candidate).stream().anyMatch(d -> d.document().equals(document))) {
              return published(candidate.seriesId(), candidate.id());
            }
          } catch (LibraryFiles.NotFoundException | java.io.UncheckedIOException e) {
            // Gone or changing while looked at: not this one.
          }
        }
      }
    }
    return Optional.empty();
  }

  private List<Progress> recent(long userId) throws StoreException {
    List<Progress> all = progress.progress(userId);
    return all.size() > RECENT_SERIES ? all.subList(0, RECENT_SERIES) : all;
  }

  private Optional<LibraryFiles.Chapter> published(String series, String chapter) {
    try {
      return Optional.of(files.chapter(series, chapter));
    } catch (LibraryFiles.NotFoundException e) {
      return Optional.empty();
    }
  }

  private List<KosyncStore.Document> record(LibraryFiles.Chapter chapter) throws StoreException {
    ChapterArchives.Download download = archives.archive(files, chapter.seriesId(), chapter.id());
    List<KosyncStore.Document> ids = ids(download.chapter());
    if (!recorded.contains(download.etag())) {
      store.record(ids, clock.instant());
      if (recorded.size() >= REMEMBERED_LIMIT) {
        recorded.clear();
      }
      recorded.add(download.etag());
    }
    return ids;
  }
}
