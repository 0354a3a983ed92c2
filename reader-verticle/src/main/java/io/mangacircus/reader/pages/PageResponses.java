package io.mangacircus.reader.pages;

import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.http.HttpDates;
import io.mangacircus.reader.http.SendCork;
import io.mangacircus.reader.library.LibraryFiles;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import io.mangacircus.reader.library.archive.ArchivePages;
import io.mangacircus.reader.library.archive.OpenArchives;
import io.mangacircus.reader.library.archive.PageRange;
import io.mangacircus.reader.library.collection.CollectionShelf;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.LinkOption;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * Sends one page file of a published chapter with {@code sendFile}, its validators and caching, or a 304 when the
 * client's copy is current; the browser reader's pages, the OPDS page stream and series covers all answer here.
 */
public final class PageResponses {

  /** Caching of page images: a published page never changes. */
  public static final String PAGE_CACHE = "private, max-age=31536000, immutable";

  /** Caching of a series cover (its first page): a series' first chapter may change. */
  public static final String COVER_CACHE = "private, max-age=300";

  /** The largest deflated page inflated to be sent (a page image is a few MB). */
  static final long MAX_INFLATED = 256L << 20;

  private PageResponses() {
  }

  /** Sends one page file (1-based {@code index}); 304 when the client's copy is current. */
  public static void send(RoutingContext ctx, LibraryFiles.Chapter chapter, int index, String cacheControl) {
    if (index < 1 || index > chapter.pages().size()) {
      ApiReplies.error(ctx, 404, "not_found", "chapter " + chapter.id() + " has pages 1 to " + chapter.pages().size());
      return;
    }
    LibraryFiles.Page page = chapter.pages().get(index - 1);
    String tag = page.sha256().isEmpty()
        ? chapter.id() + "-" + index + "-" + (chapter.publishedAt() == null ? 0 : chapter.publishedAt().toEpochMilli())
        : page.sha256();
    ctx.etag("\"" + tag + "\"");
    if (chapter.publishedAt() != null) {
      ctx.lastModified(HttpDates.format(chapter.publishedAt()));
    }
    ctx.response().putHeader(HttpHeaders.CACHE_CONTROL, cacheControl);
    if (ctx.isFresh()) {
      ctx.response().setStatusCode(304).end();
      return;
    }
    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, page.mediaType());
    if (page.part() != null && !page.part().stored()) {
      sendInflated(ctx, chapter, page);
      return;
    }
    if (page.part() != null) {
      sendStored(ctx, chapter, index, page);
      return;
    }
    // The file is opened here rather than by sendFile(String): the path is already resolved inside the library, and
    // Vert.x's file resolver would stat it twice more per request (exists, canonical) before opening it anyway. A
    // FileChannel, not a RandomAccessFile: that one's open stats the file once more (is it a folder?) and Vert.x asks
    // its length again; here the one fstat is Vert.x's size() (manifest page paths are regular files, LibraryFiles).
    FileChannel file;
    try {
      file = open(chapter, page);
    } catch (IOException | RuntimeException e) {
      gone(ctx, chapter, index);
      return;
    }
    sendRegion(ctx, chapter, index, file, 0, Long.MAX_VALUE, () -> closeQuietly(file));
  }

  /**
   * A stored page of an archive: its bytes are the image, sent as a region of the archive's file, which stays open
   * between the sends of its pages ({@link CollectionShelf#OPEN_ARCHIVES}). A page located when its book was opened is
   * sent as it is, without looking at the archive again (sendFile reads its size anyway, and a region past a shrunk
   * file's end is cut there): a changed archive is noticed by the next scan, within seconds when the collection is
   * watched, which drops every book located before it. One not located yet has its local header read here, with the
   * archive's size checked.
   */
  private static void sendStored(RoutingContext ctx, LibraryFiles.Chapter chapter, int index, LibraryFiles.Page page) {
    OpenArchives.Lease lease;
    PageRange range;
    try {
      lease = CollectionShelf.OPEN_ARCHIVES.lease(page.file(), page.part().archiveSize());
    } catch (IOException | RuntimeException e) {
      gone(ctx, chapter, index);
      return;
    }
    try {
      range = page.part().range() != null ? page.part().range() : ArchivePages.locate(lease.channel(), page.part());
    } catch (IOException | RuntimeException e) {
      lease.release();
      gone(ctx, chapter, index);
      return;
    }
    sendRegion(ctx, chapter, index, lease.channel(), range.offset(), range.length(), lease::release);
  }

  private static void sendRegion(RoutingContext ctx, LibraryFiles.Chapter chapter, int index, FileChannel file,
      long offset, long length, Runnable done) {
    // Headers and file in full segments together on a native connection (nginx's tcp_nopush); see SendCork.
    SendCork cork = ctx.request().version() == HttpVersion.HTTP_2 ? null : SendCork.hold(ctx.request().connection());
    ctx.response().sendFile(file, offset, length).onComplete(ar -> {
      if (cork != null) {
        cork.release();
      }
      done.run();
      if (ar.failed()) {
        if (!ctx.response().headWritten()) {
          gone(ctx, chapter, index);
        } else {
          ctx.response().reset();
        }
      }
    });
  }

  // A collection is read without following links: a page swapped for one after the scan could lead outside it.
  private static FileChannel open(LibraryFiles.Chapter chapter, LibraryFiles.Page page) throws IOException {
    return CollectionShelf.SOURCE.equals(chapter.source())
        ? FileChannel.open(page.file(), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)
        : FileChannel.open(page.file(), StandardOpenOption.READ);
  }

  /**
   * A deflated page of an archive, inflated on a worker (its size is bounded by the archive's own limits, checked when
   * it was indexed, and its CRC-32 checked as it ends) and sent whole.
   */
  private static void sendInflated(RoutingContext ctx, LibraryFiles.Chapter chapter, LibraryFiles.Page page) {
    ctx.vertx().executeBlocking(() -> {
      if (page.part().entry().uncompressedSize() > MAX_INFLATED) {
        throw new IOException("page of " + page.part().entry().uncompressedSize() + " bytes is larger than "
            + MAX_INFLATED + " bytes");
      }
      try (FileChannel file = open(chapter, page); InputStream in = ArchivePages.open(file, page.part())) {
        return Buffer.buffer(in.readAllBytes());
      }
    }, false).onComplete(ar -> {
      if (ar.succeeded()) {
        ctx.response().end(ar.result());
      } else if (!ctx.response().headWritten()) {
        gone(ctx, chapter, page.index());
      }
    });
  }

  private static void gone(RoutingContext ctx, LibraryFiles.Chapter chapter, int index) {
    ctx.response().headers().remove(HttpHeaders.CACHE_CONTROL).remove(HttpHeaders.ETAG)
        .remove(HttpHeaders.LAST_MODIFIED).remove(HttpHeaders.CONTENT_TYPE);
    ApiReplies.error(ctx, 404, "not_found", "page " + index + " of " + chapter.id() + " is gone");
  }

  private static void closeQuietly(FileChannel file) {
    try {
      file.close();
    } catch (IOException e) {
      // read-only: nothing was lost
    }
  }
}
