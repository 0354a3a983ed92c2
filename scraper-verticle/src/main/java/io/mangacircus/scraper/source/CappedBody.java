package io.mangacircus.scraper.source;

import io.netty.buffer.Unpooled;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.streams.WriteStream;
import io.vertx.ext.web.codec.BodyCodec;
import io.vertx.ext.web.codec.spi.BodyStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A response body read into memory up to a limit: a longer answer fails with {@link TooLarge} as soon as the limit is
 * passed (or, with a {@code Content-Length} over it, before any of it is read), instead of filling the heap with
 * whatever a hostile or broken site sends. The bytes are copied once, into an array of the body's exact size (sized
 * from {@code Content-Length} when the answer declares one), and handed over without another copy: {@link #bytes}.
 */
final class CappedBody implements BodyCodec<Buffer> {

  /** The body passed the limit; the request is abandoned. */
  static final class TooLarge extends RuntimeException {
    private final long limit;

    TooLarge(long limit) {
      super("the answer is larger than " + limit + " bytes", null, false, false);
      this.limit = limit;
    }

    long limit() {
      return limit;
    }
  }

  /** The largest declared length an array is made for before the bytes arrive (a lying header costs no more). */
  static final int MOST_PRESIZED = 16 * 1024 * 1024;

  private final long limit;
  /** The declared length of the answer being read, -1 when none (chunked) or not known yet. */
  private long declared = -1;

  /** @param limit the most bytes read, inclusive */
  CappedBody(long limit) {
    this.limit = limit;
  }

  /**
   * The answer's headers are in: its {@code Content-Length} (null when absent) sizes the array the body is read into.
   * Returns the refusal when it declares more than the limit: nothing of such a body is read.
   */
  TooLarge declared(String contentLength) {
    declared = -1;
    if (contentLength == null) {
      return null;
    }
    long length;
    try {
      length = Long.parseLong(contentLength.trim());
    } catch (NumberFormatException e) {
      return null;   // unreadable: read as if absent, the limit still holds while reading
    }
    if (length > limit) {
      return new TooLarge(limit);
    }
    declared = Math.max(-1, length);
    return null;
  }

  /**
   * The bytes of a body this codec read, without a copy (the array stays the buffer's: never change it); a copy for
   * any other buffer.
   */
  static byte[] bytes(Buffer body) {
    if (body instanceof BufferInternal internal) {
      var buf = internal.getByteBuf();
      if (buf.hasArray() && buf.arrayOffset() == 0 && buf.readerIndex() == 0 && buf.array().length == buf.writerIndex()) {
        return buf.array();
      }
    }
    return body.getBytes();
  }

  @Override
  public BodyStream<Buffer> stream() {
    long expected = declared;
    return new BodyStream<>() {
      /** The body read so far when its length is declared (up to {@link #MOST_PRESIZED}), in place; else null. */
      private byte[] sized = expected >= 0 && expected <= MOST_PRESIZED ? new byte[(int) expected] : null;
      /** The chunks read so far when the length is not declared (or the answer sent more than it declared). */
      private final List<Buffer> chunks = new ArrayList<>();
      private long length;
      private final Promise<Buffer> result = Promise.promise();

      @Override
      public Future<Buffer> result() {
        return result.future();
      }

      @Override
      public void handle(Throwable failure) {
        result.tryFail(failure);
      }

      @Override
      public WriteStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
        return this;
      }

      @Override
      public Future<Void> write(Buffer data) {
        if (result.future().isComplete()) {
          return Future.failedFuture(new TooLarge(limit));
        }
        int n = data.length();
        if (length + n > limit) {
          TooLarge tooLarge = new TooLarge(limit);
          result.tryFail(tooLarge);
          return Future.failedFuture(tooLarge);
        }
        if (sized != null && length + n <= sized.length) {
          data.getBytes(0, n, sized, (int) length);
        } else {
          if (sized != null) {   // more than declared: keep what came so far as the first chunk
            chunks.add(BufferInternal.buffer(Unpooled.wrappedBuffer(sized, 0, (int) length)));
            sized = null;
          }
          chunks.add(data);
        }
        length += n;
        return Future.succeededFuture();
      }

      @Override
      public Future<Void> end() {
        byte[] body;
        if (sized != null && length == sized.length) {
          body = sized;
        } else if (sized != null) {   // fewer bytes than declared (the transport reports a cut answer itself)
          body = java.util.Arrays.copyOf(sized, (int) length);
        } else if (chunks.size() == 1 && CappedBody.bytes(chunks.get(0)).length == length) {
          body = CappedBody.bytes(chunks.get(0));
        } else {
          body = new byte[(int) length];
          int at = 0;
          for (Buffer chunk : chunks) {
            chunk.getBytes(0, chunk.length(), body, at);
            at += chunk.length();
          }
        }
        chunks.clear();
        result.tryComplete(BufferInternal.buffer(Unpooled.wrappedBuffer(body)));
        return Future.succeededFuture();
      }

      @Override
      public WriteStream<Buffer> setWriteQueueMaxSize(int maxSize) {
        return this;
      }

      @Override
      public boolean writeQueueFull() {
        return false;
      }

      @Override
      public WriteStream<Buffer> drainHandler(Handler<Void> handler) {
        return this;
      }
    };
  }
}
