package io.mangacircus.scraper.source;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Supplier;

/**
 * The line a site's requests wait in: one request at a time, in the order they were asked for, each started in the
 * slot its {@link RequestLimiter} gives once the one before it has ended. One request at a time is what makes the
 * limiter's spacing hold where the site measures it (on arrival), whatever a request's own delays; the lanes send one
 * request at a time anyway. Waits on timers of the asking caller's context, never on a sleeping thread, and runs each
 * request on that context.
 */
public final class RequestLine {

  private record Waiting<T>(Context context, List<RequestLimiter.Rule> rules, Supplier<Future<T>> request,
      Promise<T> done) {
  }

  private final RequestLimiter limiter;
  private final ArrayDeque<Waiting<?>> line = new ArrayDeque<>();
  private boolean busy;

  public RequestLine(RequestLimiter limiter) {
    this.limiter = limiter;
  }

  /** The limits this line keeps. */
  public RequestLimiter limiter() {
    return limiter;
  }

  /**
   * Sends {@code request} (which must create and send it only when called) once it is its turn and its slot under
   * {@code rules} has come. The future completes as the request's does. Call it on a Vert.x context.
   *
   * @throws IllegalStateException when called outside a Vert.x context (there would be no timer to wait on)
   */
  public <T> Future<T> submit(List<RequestLimiter.Rule> rules, Supplier<Future<T>> request) {
    Context context = Vertx.currentContext();
    if (context == null) {
      throw new IllegalStateException("a request line is used from a Vert.x context, which it waits on");
    }
    Promise<T> done = Promise.promise();
    synchronized (this) {
      line.addLast(new Waiting<>(context, rules, request, done));
    }
    next();
    return done.future();
  }

  /** How many requests wait or run. */
  public synchronized int size() {
    return line.size() + (busy ? 1 : 0);
  }

  private void next() {
    Waiting<?> head;
    synchronized (this) {
      if (busy || line.isEmpty()) {
        return;
      }
      busy = true;
      head = line.removeFirst();
    }
    start(head);
  }

  private <T> void start(Waiting<T> waiting) {
    Duration wait = limiter.reserve(waiting.rules());
    long ms = wait.toMillis() + (wait.toNanosPart() % 1_000_000 == 0 ? 0 : 1);
    waiting.context().runOnContext(v -> {
      if (ms <= 0) {
        send(waiting);
      } else {
        waiting.context().owner().setTimer(ms, id -> send(waiting));
      }
    });
  }

  private <T> void send(Waiting<T> waiting) {
    Future<T> sent;
    limiter.started(waiting.rules());
    try {
      sent = waiting.request().get();
    } catch (RuntimeException e) {
      sent = Future.failedFuture(e);
    }
    sent.onComplete(ar -> {
      limiter.finished(waiting.rules());
      synchronized (this) {
        busy = false;
      }
      next();
      waiting.done().handle(ar);
    });
  }
}
