package io.mangacircus.reader.komga;

import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.store.Session;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.time.InstantSource;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/** What every Komga route does with a request: its user, blocking work with Komga's 404, its paging. */
final class KomgaRequests {

  private KomgaRequests() {
  }

  /** The user the request's session (or app password) is for. */
  static long user(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    return session.userId();
  }

  /** Blocking work off the loop; a library miss answers Komga's 404. */
  static <T> void blocking(Vertx vertx, InstantSource clock, RoutingContext ctx, Callable<T> work,
      Consumer<T> answer) {
    vertx.executeBlocking(work, false).onComplete(ar -> {
      if (ar.succeeded()) {
        answer.accept(ar.result());
      } else if (ar.cause() instanceof LibraryFiles.NotFoundException) {
        KomgaErrors.notFound(ctx, clock);
      } else {
        ApiReplies.failure(ctx, ar.cause());
      }
    });
  }

  /** The request's paging; null after a 400. */
  static KomgaPaging paging(RoutingContext ctx, InstantSource clock) {
    KomgaPaging.Parsed parsed = KomgaPaging.parse(ctx.request().getParam("page"), ctx.request().getParam("size"),
        ctx.request().getParam("unpaged"));
    if (parsed.paging() == null) {
      KomgaErrors.badRequest(ctx, clock, parsed.problem());
    }
    return parsed.paging();
  }
}
