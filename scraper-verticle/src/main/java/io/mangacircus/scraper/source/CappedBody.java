package io.mangacircus.scraper.source;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.WriteStream;
import io.vertx.ext.web.codec.BodyCodec;
import io.vertx.ext.web.codec.spi.BodyStream;

/**
 * A response body read into memory up to a limit: a longer answer fails with {@link TooLarge} as soon as the limit is
 * passed, instead of filling the heap with whatever a hostile or broken site sends.
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

  private final long limit;

  /** @param limit the most bytes read, inclusive */
  CappedBody(long limit) {
    this.limit = limit;
  }

  @Override
  public BodyStream<Buffer> stream() {
    return new BodyStream<>() {
      private final Buffer buffer = Buffer.buffer();
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
        if ((long) buffer.length() + data.length() > limit) {
          TooLarge tooLarge = new TooLarge(limit);
          result.tryFail(tooLarge);
          return Future.failedFuture(tooLarge);
        }
        buffer.appendBuffer(data);
        return Future.succeededFuture();
      }

      @Override
      public Future<Void> end() {
        result.tryComplete(buffer);
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
