package io.mangacircus.reader.store;

import java.time.Instant;

/**
 * A live session joined with its user; {@code appScope} is null for a browser session and the app password's scope for
 * a request admitted by an app password.
 */
public record Session(String tokenHash, long userId, String username, String role, String csrfToken,
    Instant expiresAt, AppScope appScope) {

  /** A browser session. */
  public Session(String tokenHash, long userId, String username, String role, String csrfToken, Instant expiresAt) {
    this(tokenHash, userId, username, role, csrfToken, expiresAt, null);
  }

  /** Whether this request may move its user's reading position: a browser session may, an app password per scope. */
  public boolean mayMoveProgress() {
    return appScope == null || appScope.mayMoveProgress();
  }
}
