package io.mangacircus.reader.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A user's sign-in on one tracker as stored: the tokens sealed by the tracker token vault (never in clear), the
 * tracker account they belong to, and whether it still works.
 *
 * @param sealedRefresh null when the tracker has no refresh token
 * @param expiresAt when the access token expires; null when the tracker gives no expiry
 * @param needsSignIn true once the tracker refused the token or it expired with no renewal: updates wait for the user
 *     to sign in again
 * @param problem what the tracker last said was wrong with the sign-in, in words for the user; empty when nothing
 */
public record TrackerAccount(long userId, String tracker, String sealedAccess, String sealedRefresh, Instant expiresAt,
    String accountId, String accountName, boolean needsSignIn, String problem, Instant updatedAt) {

  public TrackerAccount {
    Objects.requireNonNull(tracker, "tracker");
    Objects.requireNonNull(sealedAccess, "sealedAccess");
    accountId = accountId == null ? "" : accountId;
    accountName = accountName == null ? "" : accountName;
    problem = problem == null ? "" : problem;
    Objects.requireNonNull(updatedAt, "updatedAt");
  }

  /** This account marked "needs sign-in again" for a reason. */
  public TrackerAccount signInAgain(String why, Instant now) {
    return new TrackerAccount(userId, tracker, sealedAccess, sealedRefresh, expiresAt, accountId, accountName, true,
        why, now);
  }

  @Override
  public String toString() {
    return "TrackerAccount[user=" + userId + ", tracker=" + tracker + ", account=" + accountName + ", needsSignIn="
        + needsSignIn + "]";
  }
}
