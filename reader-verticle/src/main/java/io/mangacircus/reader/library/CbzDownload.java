package io.mangacircus.reader.library;

import io.mangacircus.reader.http.ApiReplies;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.DefaultFileRegion;
import io.netty.handler.codec.http.HttpContentEncoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.traffic.AbstractTrafficShapingHandler;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a chapter as a CBZ ({@link ChapterArchives}): the stored ZIP streamed straight from the page files (zero-copy
 * over HTTP/1.x: ZIP headers from memory, page bytes by sendfile from files kept open, {@link OpenPageFiles}) with its
 * exact {@code Content-Length}, an {@code ETag}, and one {@code Range} of bytes on request (206), so that reading apps
 * show progress and resume a broken download. Used by the browser's and the OPDS catalog's download routes alike.
 */
public final class CbzDownload {

  private static final Logger LOG = LoggerFactory.getLogger(CbzDownload.class);

  /** The registered media type of a comic book ZIP. */
  public static final String MEDIA_TYPE = "application/vnd.comicbook+zip";

  private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");
  private static final int READ_BUFFER = 64 * 1024;

  /** Page files a direct send opens and queues at once; the next ones follow when these are on the wire. */
  static final int WINDOW = 64;

  private final Vertx vertx;
  private final LibraryFiles files;
  private final ChapterArchives archives;
  private final Served served;

  /** Told of each archive about to be sent (on the event loop: it must not block). */
  @FunctionalInterface
  public interface Served {
    void served(ChapterArchives.Download download);
  }

  /** Also closes the kept page files that stayed unused for their idle time (checked twice as often). */
  public CbzDownload(Vertx vertx, LibraryFiles files, ChapterArchives archives) {
    this(vertx, files, archives, download -> { });
  }

  /** @param served told of each archive about to be sent (KOReader sync records its document ids) */
  public CbzDownload(Vertx vertx, LibraryFiles files, ChapterArchives archives, Served served) {
    this.vertx = vertx;
    this.files = files;
    this.archives = archives;
    this.served = served;
    vertx.setPeriodic(Math.max(100, archives.pageFiles().idle().toMillis() / 2),
        id -> archives.pageFiles().closeIdle());
  }

  /** Answers {@code GET .../chapters/{chapter}.cbz}: 400 for an id that names no library folder, 404 unknown. */
  public void handle(RoutingContext ctx) {
    handle(ctx, ctx.pathParam("series"), ctx.pathParam("chapter"));
  }

  /** Answers the download of a chapter named otherwise than by the {@code :series} and {@code :chapter} parameters. */
  public void handle(RoutingContext ctx, String seriesId, String chapterId) {
    if (!LibraryFiles.validId(seriesId) || !LibraryFiles.validId(chapterId)) {
      ApiReplies.error(ctx, 400, "bad_request", "not a series or chapter id");
      return;
    }
    ApiReplies.blocking(vertx, ctx, () -> archives.archive(files, seriesId, chapterId), found -> send(ctx, found));
  }

  private void send(RoutingContext ctx, ChapterArchives.Download download) {
    LibraryFiles.Chapter chapter = download.chapter();
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
    served.served(download);
    List<CbzArchive.Segment> segments = download.archive().range(from, to);
    VertxConnection direct = directConnection(ctx);
    Future<Void> sent = direct != null ? direct(ctx, direct, download, segments, 0)
        : write(response, segments.iterator(), download);
    sent.onComplete(ar -> {
      if (ar.succeeded()) {
        response.end();
      } else if (!response.headWritten()) {
        // Nothing sent yet (a page file went away since the stamp was read): the chapter is gone.
        response.headers().remove(HttpHeaders.CACHE_CONTROL).remove(HttpHeaders.ETAG).remove(HttpHeaders.LAST_MODIFIED)
            .remove(HttpHeaders.CONTENT_TYPE).remove(HttpHeaders.CONTENT_LENGTH).remove(HttpHeaders.CONTENT_RANGE)
            .remove(HttpHeaders.ACCEPT_RANGES).remove("Content-Disposition");
        ApiReplies.error(ctx, 404, "not_found", "chapter " + chapter.id() + " changed or is gone; try again");
      } else {
        LOG.info("[READER] CBZ of {}/{} cut off: {}", chapter.seriesId(), chapter.id(), ar.cause().toString());
        response.reset();
      }
    });
  }

  /**
   * Sends the runs from {@code first} on straight to the connection's channel: the page files of the next
   * {@link #WINDOW} runs are taken from the open files (off the event loop, opened when not kept), then every run up
   * to there is queued, ZIP headers as buffers and page bytes as file regions (the kernel copies them from the page
   * cache to the socket, sendfile; no byte passes through the heap), with a single flush; the next window follows when
   * the last run is on the wire, which is the back-pressure. A region gives its file back when Netty is done with it,
   * sent or not.
   */
  private Future<Void> direct(RoutingContext ctx, VertxConnection connection, ChapterArchives.Download download,
      List<CbzArchive.Segment> segments, int first) {
    if (first >= segments.size()) {
      return Future.succeededFuture();
    }
    int end = first;
    for (int files = 0; end < segments.size() && files < WINDOW; end++) {
      files += segments.get(end).file() != null ? 1 : 0;
    }
    int last = end;
    OpenPageFiles pageFiles = archives.pageFiles();
    Future<OpenPageFiles.Handle[]> lent = vertx.executeBlocking(() -> {
      OpenPageFiles.Handle[] handles = new OpenPageFiles.Handle[last - first];
      try {
        for (int i = first; i < last; i++) {
          Path file = segments.get(i).file();
          if (file != null) {
            handles[i - first] = pageFiles.acquire(file, download.pages().get(file));
          }
        }
        return handles;
      } catch (IOException | RuntimeException e) {
        for (OpenPageFiles.Handle h : handles) {
          if (h != null) {
            h.release();
          }
        }
        archives.forget(download);
        throw e;
      }
    }, false);
    HttpServerResponse response = ctx.response();
    return lent.compose(handles -> {
      Future<Void> head = response.headWritten() ? Future.succeededFuture() : response.writeHead();
      return head.transform(ar -> {
        if (ar.failed()) {
          Arrays.stream(handles).filter(h -> h != null).forEach(OpenPageFiles.Handle::release);
          return Future.failedFuture(ar.cause());
        }
        ChannelHandlerContext channel = connection.channelHandlerContext();
        Promise<Void> done = Promise.promise();
        for (int i = first; i < last; i++) {
          CbzArchive.Segment segment = segments.get(i);
          Object message = segment.bytes() != null ? Unpooled.wrappedBuffer(segment.bytes())
              : new LentRegion(handles[i - first], segment.fileOffset(), segment.length());
          if (i < last - 1) {
            channel.write(message, connection.voidPromise);
          } else {
            channel.writeAndFlush(message).addListener(f -> {
              if (f.isSuccess()) {
                done.complete();
              } else {
                done.fail(f.cause());
              }
            });
          }
        }
        return done.future();
      });
    }).compose(v -> direct(ctx, connection, download, segments, last));
  }

  /** A page file's run as a Netty file region that gives the open file back instead of closing it. */
  private static final class LentRegion extends DefaultFileRegion {
    private final OpenPageFiles.Handle handle;

    LentRegion(OpenPageFiles.Handle handle, long position, long count) {
      super(handle.channel(), position, count);
      this.handle = handle;
    }

    @Override
    protected void deallocate() {
      handle.release();
    }
  }

  /** Writes the runs one after the other; a file's bytes are piped with back-pressure, never read whole. */
  private Future<Void> write(HttpServerResponse response, Iterator<CbzArchive.Segment> segments,
      ChapterArchives.Download download) {
    if (!segments.hasNext()) {
      return Future.succeededFuture();
    }
    CbzArchive.Segment segment = segments.next();
    if (segment.bytes() != null) {
      return response.write(Buffer.buffer(segment.bytes())).compose(v -> write(response, segments, download));
    }
    return vertx.fileSystem().open(segment.file().toString(), new OpenOptions().setRead(true).setWrite(false)
        .setCreate(false)).compose(file -> pipe(file, segment, download, response)
            .eventually(() -> file.close()))
        .compose(v -> write(response, segments, download));
  }

  /**
   * The connection to queue file regions on directly, when this response can take them: HTTP/1.x in clear, nothing
   * between the response and the socket that rewrites bytes (TLS, compression, traffic shaping). Vert.x has no public
   * API for a file region in the middle of a response, so this reaches its connection's channel; anything else gets
   * the piped copy.
   */
  private static VertxConnection directConnection(RoutingContext ctx) {
    if (ctx.request().version() == HttpVersion.HTTP_2
        || !(ctx.request().connection() instanceof VertxConnection connection) || connection.isSsl()) {
      return null;
    }
    ChannelPipeline pipeline = connection.channelHandlerContext().pipeline();
    if (pipeline.get(HttpContentEncoder.class) != null || pipeline.get(AbstractTrafficShapingHandler.class) != null
        || pipeline.get(SslHandler.class) != null) {
      return null;
    }
    return connection;
  }

  private Future<Void> pipe(AsyncFile file, CbzArchive.Segment segment, ChapterArchives.Download download,
      HttpServerResponse response) {
    return file.size().compose(size -> {
      if (size < segment.fileOffset() + segment.length()) {
        // The page changed since its size was read: the length already promised cannot be kept.
        archives.forget(download);
        return Future.failedFuture(segment.file().getFileName() + " is shorter than when the archive was laid out");
      }
      file.setReadBufferSize(READ_BUFFER).setReadPos(segment.fileOffset()).setReadLength(segment.length());
      return file.pipe().endOnComplete(false).to(response);
    });
  }

  /** The file name a download gives a chapter's CBZ: {@code Series - 12.cbz}, characters no file system takes as _. */
  public static String fileName(LibraryFiles.Chapter chapter) {
    return (chapter.seriesTitle() + " - " + chapter.number()).replaceAll("[\\\\/:*?\"<>|\\p{Cntrl}]", "_")
        .trim() + ".cbz";
  }

  /** {@link #fileName} for clients that read only the plain {@code filename} parameter: non-ASCII as _. */
  public static String asciiFileName(LibraryFiles.Chapter chapter) {
    return fileName(chapter).replaceAll("[^\\x20-\\x7e]", "_");
  }

  /** {@code attachment; filename="Series - 12.cbz"} with an ASCII fallback and the UTF-8 name. */
  static String disposition(LibraryFiles.Chapter chapter) {
    String name = fileName(chapter);
    String ascii = asciiFileName(chapter);
    return "attachment; filename=\"" + ascii + "\"; filename*=UTF-8''"
        + java.net.URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
