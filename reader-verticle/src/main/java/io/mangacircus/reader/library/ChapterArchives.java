package io.mangacircus.reader.library;

import io.mangacircus.contracts.library.ChapterManifest;
import io.mangacircus.support.xml.ComicInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;

/**
 * The CBZ of a published chapter: its pages in reading order, named {@code 001.png}, {@code 002.jpg}... so that name
 * order is reading order, then {@code ComicInfo.xml} (the chapter's own, as the scraper wrote it, or one made from
 * {@code chapter.json} when the folder has none). Sizes and CRC-32s are read once per chapter and kept, since a
 * published chapter never changes (it is replaced as a whole, which its {@link Stamp} tells). The bytes depend on the
 * chapter's content alone: entries stored, in that order, without extra fields, each stamped with the publication time
 * {@code chapter.json} records (1980-01-01, the first DOS date, when it records none), never a file's modification
 * time, which a copy or restore of the library changes. So every build, before or after a restart, sends the same
 * bytes under the same ETag, and KOReader's document id of the file ({@link #koreaderDigest}) holds. Blocking: call
 * {@link #archive} off the event loop.
 */
public final class ChapterArchives {

  /** The name of the metadata entry comic readers look for. */
  public static final String COMIC_INFO = "ComicInfo.xml";

  private static final int CACHE_LIMIT = 512;
  private static final long COMIC_INFO_LIMIT = 1 << 20;

  /**
   * A chapter's archive and what names it.
   *
   * @param pages the identity of every page file when it was read, which a send checks when it opens the file
   * @param stamp the chapter folder and its {@code chapter.json} when the archive was laid out
   */
  public record Download(LibraryFiles.Chapter chapter, CbzArchive archive, String etag, Instant modified,
      Map<Path, OpenPageFiles.Identity> pages, Stamp stamp) {
  }

  /**
   * What a chapter folder is now: its identity and that of its {@code chapter.json} (null when missing). A publication
   * replaces the folder by a rename, so a republished or deleted chapter has another stamp.
   */
  public record Stamp(OpenPageFiles.Identity folder, OpenPageFiles.Identity manifest) {
    static Stamp of(Path folder) throws IOException {
      OpenPageFiles.Identity identity = OpenPageFiles.Identity.ofOrNull(folder);
      return new Stamp(identity, identity == null ? null
          : OpenPageFiles.Identity.ofOrNull(folder.resolve(ChapterManifest.FILE)));
    }
  }

  private final Map<String, Download> known = new ConcurrentHashMap<>();
  /** KOReader's partial MD5 by archive ETag: the ETag names the archive's bytes, so a digest never goes stale. */
  private final Map<String, String> koreaderDigests = new ConcurrentHashMap<>();
  private final OpenPageFiles pageFiles;

  /** Archives whose page files stay open in {@code pageFiles} between sends. */
  public ChapterArchives(OpenPageFiles pageFiles) {
    this.pageFiles = pageFiles;
  }

  /** The page files kept open for sends. */
  public OpenPageFiles pageFiles() {
    return pageFiles;
  }

  /**
   * The archive of a published chapter: the one laid out before when its folder and {@code chapter.json} are still the
   * same files (one look at each), else laid out now from a fresh read of its manifest and pages, the kept page files
   * of the replaced folder dropped. Blocking.
   *
   * @throws LibraryFiles.NotFoundException when the chapter is not (or no longer) published
   */
  public Download archive(LibraryFiles files, String seriesId, String chapterId) {
    String key = seriesId + "/" + chapterId;
    LibraryFiles.Chapter inCollection = files.inCollection(seriesId) ? files.chapter(seriesId, chapterId) : null;
    Path folder = inCollection == null ? files.root().resolve(seriesId).resolve(chapterId)
        : inCollection.pages().get(0).part() != null ? inCollection.pages().get(0).file()
        : inCollection.pages().get(0).file().getParent();
    Stamp stamp;
    try {
      stamp = inCollection != null && inCollection.pages().get(0).part() != null
          ? new Stamp(OpenPageFiles.Identity.ofOrNull(folder), null) : Stamp.of(folder);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read chapter " + key + ": " + e.getMessage(), e);
    }
    Download download = known.get(key);
    if (download != null) {
      if (download.stamp().equals(stamp)) {
        return download;
      }
      forget(download);
    }
    // The manifest another route read may predate a republication: read it again, after the stamp was taken.
    files.forget(seriesId, chapterId);
    download = inCollection != null && inCollection.pages().get(0).part() != null ? whole(inCollection, stamp)
        : build(inCollection != null ? inCollection : files.chapter(seriesId, chapterId), stamp);
    if (known.size() >= CACHE_LIMIT) {
      known.clear();
    }
    known.put(key, download);
    return download;
  }

  /**
   * KOReader's document id ({@link KoreaderDigest}, its "binary" mode) of the chapter's archive as {@link #archive}
   * serves it: computed once per archive from the 12 samples it takes (page bytes read through the kept page files, so
   * a page replaced since the layout fails as a send would), then kept by the archive's ETag. Blocking.
   *
   * @throws LibraryFiles.NotFoundException when the chapter is not (or no longer) published
   */
  public String koreaderDigest(LibraryFiles files, String seriesId, String chapterId) {
    Download download = archive(files, seriesId, chapterId);
    String known = koreaderDigests.get(download.etag());
    if (known != null) {
      return known;
    }
    String digest;
    try {
      digest = KoreaderDigest.partialMd5(download.archive().length(), (offset, length) -> read(download, offset,
          length));
    } catch (IOException e) {
      forget(download);
      throw new UncheckedIOException("cannot read the archive of " + seriesId + "/" + chapterId + ": "
          + e.getMessage(), e);
    }
    if (koreaderDigests.size() >= CACHE_LIMIT * 8) {
      koreaderDigests.clear();
    }
    koreaderDigests.put(download.etag(), digest);
    return digest;
  }

  /** Bytes {@code offset} to {@code offset + length} of an archive, as a send would produce them. */
  private byte[] read(Download download, long offset, int length) throws IOException {
    ByteBuffer out = ByteBuffer.allocate(length);
    for (CbzArchive.Segment segment : download.archive().range(offset, offset + length)) {
      if (segment.bytes() != null) {
        out.put(segment.bytes());
        continue;
      }
      OpenPageFiles.Handle handle = pageFiles.acquire(segment.file(), download.pages().get(segment.file()));
      try {
        ByteBuffer part = out.slice(out.position(), (int) segment.length());
        for (long at = segment.fileOffset(); part.hasRemaining(); ) {
          int read = handle.channel().read(part, at);
          if (read < 0) {
            throw new IOException("page " + segment.file().getFileName() + " is shorter than when it was read");
          }
          at += read;
        }
        out.position(out.position() + (int) segment.length());
      } finally {
        handle.release();
      }
    }
    return out.array();
  }

  /** Forgets a chapter whose files no longer match what was read, and the page files kept open for it. */
  public void forget(Download download) {
    LibraryFiles.Chapter chapter = download.chapter();
    known.remove(chapter.seriesId() + "/" + chapter.id(), download);
    pageFiles.forgetUnder(chapter.pages().get(0).file().getParent());
  }

  /**
   * A collection's CBZ, sent as the file it is (what Komga serves as a book's file): its bytes are the collection's,
   * named by its size and modification time.
   */
  private static Download whole(LibraryFiles.Chapter chapter, Stamp stamp) {
    Path file = chapter.pages().get(0).file();
    OpenPageFiles.Identity identity = stamp.folder();
    if (identity == null) {
      throw new LibraryFiles.NotFoundException("book " + chapter.seriesId() + "/" + chapter.id() + " is gone");
    }
    String fingerprint = chapter.id() + ":" + identity.size() + ":" + identity.modifiedMillis();
    CbzArchive archive = CbzArchive.whole(file, identity.size(), fingerprint.getBytes(StandardCharsets.UTF_8));
    String etag = "cbz-" + io.mangacircus.reader.accounts.Sessions.hash(fingerprint).substring(0, 32);
    return new Download(chapter, archive, etag, chapter.publishedAt(), Map.of(file, identity), stamp);
  }

  private static Download build(LibraryFiles.Chapter chapter, Stamp stamp) {
    List<CbzArchive.Entry> entries = new ArrayList<>();
    Map<Path, OpenPageFiles.Identity> identities = new HashMap<>();
    int width = Math.max(3, String.valueOf(chapter.pages().size()).length());
    for (LibraryFiles.Page page : chapter.pages()) {
      String name = String.format(Locale.ROOT, "%0" + width + "d.%s", page.index(), extension(page.file()));
      try {
        identities.put(page.file(), OpenPageFiles.Identity.of(page.file()));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read page " + page.file().getFileName() + ": " + e.getMessage(), e);
      }
      long[] sizeAndCrc = sizeAndCrc(page.file());
      entries.add(new CbzArchive.Entry(name, page.file(), null, sizeAndCrc[0], (int) sizeAndCrc[1]));
    }
    byte[] info = comicInfo(chapter);
    CRC32 crc = new CRC32();
    crc.update(info);
    entries.add(new CbzArchive.Entry(COMIC_INFO, null, info, info.length, (int) crc.getValue()));
    Instant modified = chapter.publishedAt() == null ? Instant.EPOCH : chapter.publishedAt();
    CbzArchive archive = CbzArchive.of(entries, modified);
    String etag = "cbz-" + io.mangacircus.reader.accounts.Sessions.hash(
        new String(archive.centralDirectory(), StandardCharsets.ISO_8859_1)).substring(0, 32);
    return new Download(chapter, archive, etag, modified, Map.copyOf(identities), stamp);
  }

  private static long[] sizeAndCrc(Path file) {
    CRC32 crc = new CRC32();
    long size = 0;
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = Files.newInputStream(file)) {
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        crc.update(buffer, 0, read);
        size += read;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read page " + file.getFileName() + ": " + e.getMessage(), e);
    }
    return new long[] {size, crc.getValue()};
  }

  private static String extension(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "jpg" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
  }

  /**
   * The chapter folder's {@code ComicInfo.xml} when it is a plain file (not a link) of at most 1 MiB, else one made
   * from the manifest (its {@code LanguageISO} the manifest's language).
   */
  static byte[] comicInfo(LibraryFiles.Chapter chapter) {
    Path folder = chapter.pages().get(0).file().getParent();
    Path file = folder.resolve(COMIC_INFO);
    try {
      if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.size(file) <= COMIC_INFO_LIMIT) {
        return Files.readAllBytes(file);
      }
    } catch (IOException e) {
      // made from the manifest below
    }
    return new ComicInfo(chapter.seriesTitle(), chapter.number(), chapter.title(), chapter.pages().size(),
        chapter.language(), null).xml().getBytes(StandardCharsets.UTF_8);
  }
}
