package io.mangacircus.reader.library;

import io.mangacircus.reader.http.ApiReplies;
import io.vertx.ext.web.RoutingContext;

/** The answer to a request whose series or chapter id cannot name a library folder ({@link LibraryFiles#validId}). */
public final class LibraryIds {

  private LibraryIds() {
  }

  /** Answers 400 and returns true when an id cannot name a library folder. */
  public static boolean refused(RoutingContext ctx, String... ids) {
    for (String id : ids) {
      if (!LibraryFiles.validId(id)) {
        ApiReplies.error(ctx, 400, "bad_request", "not a series or chapter id");
        return true;
      }
    }
    return false;
  }
}
