package io.mangacircus.reader.accounts;

import io.mangacircus.reader.store.Session;
import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;

/**
 * The credentials a connection last proved and whom they admitted, kept on the connection itself for a short span so
 * that the next request on it with the very same {@code Cookie} or {@code Authorization} header is admitted without
 * hashing a token or looking anything up; trusted only while the guard's generation is unchanged (logout, account and
 * app-password changes bump it) and the session has not expired. Used by {@link AccessGuard} only.
 */
final class ConnectionMemory {

  private static final AttributeKey<Remembered> KEY = AttributeKey.valueOf("mc.accessGuard.connection");

  private record Remembered(String credentials, Session session, long generation, Instant until) {
  }

  private ConnectionMemory() {
  }

  /** Whom {@code credentials} admitted on this connection, if still trusted at {@code generation}; else null. */
  static Session recall(RoutingContext ctx, String credentials, long generation, Instant now) {
    Channel channel = credentials == null ? null : channel(ctx);
    Remembered known = channel == null ? null : channel.attr(KEY).get();
    if (known == null || known.generation() != generation || !now.isBefore(known.until())
        || !now.isBefore(known.session().expiresAt()) || !Sessions.same(known.credentials(), credentials)) {
      return null;
    }
    return known.session();
  }

  /**
   * Remembers that {@code credentials} admitted {@code session} on this connection until {@code until}, unless the
   * generation moved while they were checked ({@code asked} is what it was when the check began).
   */
  static void keep(RoutingContext ctx, String credentials, Session session, long asked, long generation,
      Instant until) {
    Channel channel = credentials == null || asked != generation ? null : channel(ctx);
    if (channel != null) {
      channel.attr(KEY).set(new Remembered(credentials, session, generation, until));
    }
  }

  private static Channel channel(RoutingContext ctx) {
    return ctx.request().connection() instanceof ConnectionBase connection ? connection.channel() : null;
  }
}
