package io.mangacircus.reader.library;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;

/**
 * The CBZ of a published chapter: its pages in reading order, named {@code 001.png}, {@code 002.jpg}... so that name
 * order is reading order, then {@code ComicInfo.xml} (the chapter's own, as the scraper wrote it, or one made from
 * {@code chapter.json} when the folder has none). Sizes and CRC-32s are read once per chapter and kept, since a
 * published chapter never changes. Blocking: call {@link #archive} off the event loop.
 */
public final class ChapterArchives {

  /** The name of the metadata entry comic readers look for. */
  public static final String COMIC_INFO = "ComicInfo.xml";

  private static final int CACHE_LIMIT = 512;
  private static final long COMIC_INFO_LIMIT = 1 << 20;

  /** A chapter's archive and what names it. */
  public record Download(CbzArchive archive, String etag, Instant modified) {
  }

  private final Map<String, Download> known = new ConcurrentHashMap<>();

  /** The archive of {@code chapter}, laid out (reading its pages once) or remembered. */
  public Download archive(LibraryFiles.Chapter chapter) {
    String key = chapter.seriesId() + "/" + chapter.id() + "@" + chapter.publishedAt();
    Download download = known.get(key);
    if (download != null) {
      return download;
    }
    download = build(chapter);
    if (known.size() >= CACHE_LIMIT) {
      known.clear();
    }
    known.put(key, download);
    return download;
  }

  /** Forgets a chapter whose files no longer match what was read (a page changed size on disk). */
  public void forget(LibraryFiles.Chapter chapter) {
    known.remove(chapter.seriesId() + "/" + chapter.id() + "@" + chapter.publishedAt());
  }

  private static Download build(LibraryFiles.Chapter chapter) {
    List<CbzArchive.Entry> entries = new ArrayList<>();
    int width = Math.max(3, String.valueOf(chapter.pages().size()).length());
    for (LibraryFiles.Page page : chapter.pages()) {
      String name = String.format(Locale.ROOT, "%0" + width + "d.%s", page.index(), extension(page.file()));
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
    return new Download(archive, etag, modified);
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
   * from the manifest.
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
    return ("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        + "<ComicInfo xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"
        + "  <Series>" + xml(chapter.seriesTitle()) + "</Series>\n"
        + "  <Number>" + xml(chapter.number()) + "</Number>\n"
        + (chapter.title() == null || chapter.title().isEmpty() ? ""
            : "  <Title>" + xml(chapter.title()) + "</Title>\n")
        + "  <PageCount>" + chapter.pages().size() + "</PageCount>\n"
        + "</ComicInfo>\n").getBytes(StandardCharsets.UTF_8);
  }

  static String xml(String text) {
    return text == null ? "" : text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;").replace("'", "&apos;");
  }
}
