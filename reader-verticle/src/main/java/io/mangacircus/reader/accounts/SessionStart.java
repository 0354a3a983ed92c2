package io.mangacircus.reader.accounts;

import io.mangacircus.reader.store.SessionStore;
import io.mangacircus.reader.store.StoreException;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * Starts a browser session for an account whose sign-in succeeded (password or provider): a new session token and CSRF
 * token, only the token's hash stored, and the HttpOnly session cookie.
 */
public final class SessionStart {

  /** A stored session: the token for the cookie and the CSRF token for the page. Never logged. */
  public record Started(String token, String csrf) {
    @Override
    public String toString() {
      return "Started[<secret>]";
    }
  }

  private final SessionStore sessions;
  private final Duration sessionLength;
  private final InstantSource clock;

  public SessionStart(SessionStore sessions, Duration sessionLength, InstantSource clock) {
    this.sessions = sessions;
    this.sessionLength = sessionLength;
    this.clock = clock;
  }

  /** Stores a new session of {@code userId}. Blocking: call it on a worker. */
  public Started create(long userId) throws StoreException {
    String token = Sessions.newToken();
    String csrf = Sessions.newToken();
    Instant now = clock.instant();
    sessions.createSession(Sessions.hash(token), userId, csrf, now, now.plus(sessionLength));
    return new Started(token, csrf);
  }

  /** Sets the session cookie of {@code started} on the answer (Secure when the request came over https). */
  public void setCookie(RoutingContext ctx, Started started) {
    ctx.response().addCookie(Cookie.cookie(Sessions.COOKIE, started.token()).setHttpOnly(true).setPath("/")
        .setSameSite(CookieSameSite.STRICT).setSecure(overHttps(ctx)).setMaxAge(sessionLength.toSeconds()));
  }

  /** Whether the browser reached us over https: directly, or through a proxy that says so. */
  public static boolean overHttps(RoutingContext ctx) {
    return ctx.request().isSSL() || "https".equalsIgnoreCase(ctx.request().getHeader("X-Forwarded-Proto"));
  }
}
