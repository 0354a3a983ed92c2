package io.mangacircus.reader.trackers;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A user's sign-in on a tracker: the access token, the refresh token when the tracker has one, when the access token
 * expires when known, and the tracker account it belongs to (its id and the name shown on the profile page).
 *
 * @param refresh null when the tracker has no renewal
 * @param expiresAt null when the tracker gives no expiry
 */
public record TrackerTokens(Secret access, Secret refresh, Instant expiresAt, String accountId, String accountName) {

  /** Renewed this long before the access token expires, so no request goes out with one about to lapse. */
  public static final Duration RENEW_BEFORE = Duration.ofMinutes(5);

  public TrackerTokens {
    Objects.requireNonNull(access, "access token");
    accountId = accountId == null ? "" : accountId;
    accountName = accountName == null ? "" : accountName;
  }

  /** Whether the access token should be renewed (or, without a refresh token, is past use) at {@code now}. */
  public boolean expiresSoon(Instant now) {
    return expiresAt != null && !now.isBefore(expiresAt.minus(RENEW_BEFORE));
  }

  /** The same tokens naming their account. */
  public TrackerTokens withAccount(String id, String name) {
    return new TrackerTokens(access, refresh, expiresAt, id, name);
  }

  @Override
  public String toString() {
    return "TrackerTokens[account=" + accountName + ", expiresAt=" + expiresAt + "]";
  }
}
