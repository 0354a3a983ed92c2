package io.mangacircus.reader.pages;

import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.http.HttpDates;
import io.mangacircus.reader.http.SendCork;
import io.mangacircus.reader.library.LibraryFiles;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
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
    // The file is opened here rather than by sendFile(String): the path is already resolved inside the library, and
    // Vert.x's file resolver would stat it twice more per request (exists, canonical) before opening it anyway. A
    // FileChannel, not a RandomAccessFile: that one's open stats the file once more (is it a folder?) and Vert.x asks
    // its length again; here the one fstat is Vert.x's size() (manifest page paths are regular files, LibraryFiles).
    FileChannel file;
    try {
      file = FileChannel.open(page.file(), StandardOpenOption.READ);
    } catch (IOException | RuntimeException e) {
      gone(ctx, chapter, index);
      return;
    }
    // Headers and file in full segments together on a native connection (nginx's tcp_nopush); see SendCork.
    SendCork cork = ctx.request().version() == HttpVersion.HTTP_2 ? null : SendCork.hold(ctx.request().connection());
    ctx.response().sendFile(file, 0, Long.MAX_VALUE).onComplete(ar -> {
      if (cork != null) {
        cork.release();
      }
      closeQuietly(file);
      if (ar.failed()) {
        if (!ctx.response().headWritten()) {
          gone(ctx, chapter, index);
        } else {
          ctx.response().reset();
        }
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
