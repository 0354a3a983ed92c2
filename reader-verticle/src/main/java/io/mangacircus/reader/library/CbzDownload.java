package io.mangacircus.reader.library;

import io.mangacircus.reader.http.ApiReplies;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.impl.VertxConnection;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a chapter as a CBZ ({@link ChapterArchives}): the stored ZIP streamed straight from the page files (zero-copy
 * over HTTP/1.x: ZIP headers from memory, page bytes by sendfile) with its
 * exact {@code Content-Length}, an {@code ETag}, and one {@code Range} of bytes on request (206), so that reading apps
 * show progress and resume a broken download. Used by the browser's and the OPDS catalog's download routes alike.
 */
public final class CbzDownload {

  private static final Logger LOG = LoggerFactory.getLogger(CbzDownload.class);

  /** The registered media type of a comic book ZIP. */
  public static final String MEDIA_TYPE = "application/vnd.comicbook+zip";

  private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");
  private static final int READ_BUFFER = 64 * 1024;

  private final Vertx vertx;
  private final LibraryFiles files;
  private final ChapterArchives archives;

  public CbzDownload(Vertx vertx, LibraryFiles files, ChapterArchives archives) {
    this.vertx = vertx;
    this.files = files;
    this.archives = archives;
  }

  /** Answers {@code GET .../chapters/{chapter}.cbz}: 400 for an id that names no library folder, 404 unknown. */
  public void handle(RoutingContext ctx) {
    String seriesId = ctx.pathParam("series");
    String chapterId = ctx.pathParam("chapter");
    if (!LibraryFiles.validId(seriesId) || !LibraryFiles.validId(chapterId)) {
      ApiReplies.error(ctx, 400, "bad_request", "not a series or chapter id");
      return;
    }
    ApiReplies.blocking(vertx, ctx, () -> {
      LibraryFiles.Chapter chapter = files.chapter(seriesId, chapterId);
      return new Object[] {chapter, archives.archive(chapter)};
    }, found -> send(ctx, (LibraryFiles.Chapter) found[0], (ChapterArchives.Download) found[1]));
  }

  private void send(RoutingContext ctx, LibraryFiles.Chapter chapter, ChapterArchives.Download download) {
    HttpServerResponse response = ctx.response();
    long length = download.archive().length();
    String etag = "\"" + download.etag() + "\"";
    ctx.etag(etag);
    ctx.lastModified(download.modified());
    response.putHeader(HttpHeaders.CACHE_CONTROL, "private, no-cache");
    response.putHeader(HttpHeaders.ACCEPT_RANGES, "bytes");
    if (ctx.isFresh()) {
      response.setStatusCode(304).end();
      return;
    }
    long from = 0;
    long to = length;
    String range = ctx.request().getHeader("Range");
    String ifRange = ctx.request().getHeader("If-Range");
    if (range != null && (ifRange == null || ifRange.equals(etag))) {
      Matcher m = RANGE.matcher(range.trim());
      if (m.matches() && !(m.group(1).isEmpty() && m.group(2).isEmpty())) {
        try {
          if (m.group(1).isEmpty()) {
            from = Math.max(0, length - Long.parseLong(m.group(2)));
          } else {
            from = Long.parseLong(m.group(1));
            to = m.group(2).isEmpty() ? length : Math.min(length, Long.parseLong(m.group(2)) + 1);
          }
        } catch (NumberFormatException e) {
          from = length;
        }
        if (from >= length || from >= to) {
          response.putHeader(HttpHeaders.CONTENT_RANGE, "bytes */" + length);
          ApiReplies.error(ctx, 416, "range_not_satisfiable", "the archive has " + length + " bytes");
          return;
        }
        response.setStatusCode(206);
        response.putHeader(HttpHeaders.CONTENT_RANGE, "bytes " + from + "-" + (to - 1) + "/" + length);
      }
      // Several ranges, or a unit other than bytes: the whole archive (a server may ignore Range).
    }
    response.putHeader(HttpHeaders.CONTENT_TYPE, MEDIA_TYPE);
    response.putHeader("Content-Disposition", disposition(chapter));
    response.putHeader(HttpHeaders.CONTENT_LENGTH, String.valueOf(to - from));
    List<CbzArchive.Segment> segments = download.archive().range(from, to);
    write(response, segments.iterator(), chapter, zeroCopyConnection(ctx)).onComplete(ar -> {
      if (ar.succeeded()) {
        response.end();
      } else {
        LOG.info("[READER] CBZ of {}/{} cut off: {}", chapter.seriesId(), chapter.id(), ar.cause().toString());
        response.reset();
      }
    });
  }

  /** Writes the runs one after the other; a file's bytes are piped with back-pressure, never read whole. */
  private Future<Void> write(HttpServerResponse response, Iterator<CbzArchive.Segment> segments,
      LibraryFiles.Chapter chapter, VertxConnection zeroCopy) {
    if (!segments.hasNext()) {
      return Future.succeededFuture();
    }
    CbzArchive.Segment segment = segments.next();
    if (segment.bytes() != null) {
      return response.write(Buffer.buffer(segment.bytes()))
          .compose(v -> write(response, segments, chapter, zeroCopy));
    }
    if (zeroCopy != null) {
      return zeroCopy(zeroCopy, response, segment, chapter)
          .compose(v -> write(response, segments, chapter, zeroCopy));
    }
    return vertx.fileSystem().open(segment.file().toString(), new OpenOptions().setRead(true).setWrite(false)
        .setCreate(false)).compose(file -> pipe(file, segment, chapter, response)
            .eventually(() -> file.close()))
        .compose(v -> write(response, segments, chapter, zeroCopy));
  }

  /**
   * Sends a page file's run as a file region: the kernel copies it from the page cache to the socket (sendfile), no
   * byte passes through the heap. The head goes first (a range may begin inside a page); the next run waits until
   * this one is on the wire, which is the back-pressure.
   */
  private Future<Void> zeroCopy(VertxConnection connection, HttpServerResponse response, CbzArchive.Segment segment,
      LibraryFiles.Chapter chapter) {
    Future<Void> head = response.headWritten() ? Future.succeededFuture() : response.writeHead();
    return head.compose(v -> {
      FileChannel channel;
      try {
        channel = FileChannel.open(segment.file(), StandardOpenOption.READ);
        if (channel.size() < segment.fileOffset() + segment.length()) {
          channel.close();
          archives.forget(chapter);
          return Future.failedFuture(segment.file().getFileName() + " is shorter than when the archive was laid out");
        }
      } catch (IOException e) {
        return Future.failedFuture(e);
      }
      Promise<Void> sent = Promise.promise();
      connection.sendFile(channel, segment.fileOffset(), segment.length()).addListener(done -> {
        closeQuietly(channel);
        if (done.isSuccess()) {
          sent.complete();
        } else {
          sent.fail(done.cause());
        }
      });
      return sent.future();
    });
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // read-only: nothing was lost
    }
  }

  /**
   * The connection's zero-copy file send, when this response can use it: HTTP/1.x (Vert.x has no public API for a file
   * region in the middle of a response, so this reaches its connection's {@code sendFile}; over TLS or with compression
   * the connection itself falls back to a chunked copy). HTTP/2 gets the piped copy.
   */
  private static VertxConnection zeroCopyConnection(RoutingContext ctx) {
    if (ctx.request().version() == HttpVersion.HTTP_2) {
      return null;
    }
    return ctx.request().connection() instanceof VertxConnection connection ? connection : null;
  }

  private Future<Void> pipe(AsyncFile file, CbzArchive.Segment segment, LibraryFiles.Chapter chapter,
      HttpServerResponse response) {
    return file.size().compose(size -> {
      if (size < segment.fileOffset() + segment.length()) {
        // The page changed since its size was read: the length already promised cannot be kept.
        archives.forget(chapter);
        return Future.failedFuture(segment.file().getFileName() + " is shorter than when the archive was laid out");
      }
      file.setReadBufferSize(READ_BUFFER).setReadPos(segment.fileOffset()).setReadLength(segment.length());
      return file.pipe().endOnComplete(false).to(response);
    });
  }

  /** {@code attachment; filename="Series - 12.cbz"} with an ASCII fallback and the UTF-8 name. */
  static String disposition(LibraryFiles.Chapter chapter) {
    String name = (chapter.seriesTitle() + " - " + chapter.number()).replaceAll("[\\\\/:*?\"<>|\\p{Cntrl}]", "_")
        .trim() + ".cbz";
    String ascii = name.replaceAll("[^\\x20-\\x7e]", "_");
    return "attachment; filename=\"" + ascii + "\"; filename*=UTF-8''"
        + java.net.URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
