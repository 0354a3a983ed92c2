package io.mangacircus.reader.trackers;

import io.vertx.core.Future;
import java.util.List;

/**
 * One tracker's API as the reader uses it (docs/trackers.md): signing in, searching, reading the user's list entry
 * and saving progress and status to it. One request per call, never retried here: a failed call fails its future with
 * a {@link TrackerFailure} saying what kind of failure it was, and the tracker outbox decides when to try again.
 * Scores, dates and notes are never sent.
 */
public interface TrackerClient {

  /** The tracker's id in configuration, routes and storage: {@code anilist}, {@code myanimelist}, ... */
  String id();

  /** The tracker's name as users know it. */
  String name();

  /** True when users sign in with a user name and password sent through the reader (no browser redirect). */
  boolean signsInWithPassword();

  /**
   * Where to send the user's browser to sign in (OAuth tracker only).
   *
   * @param state the value the callback must bring back unchanged
   * @param codeVerifier the PKCE verifier of this sign-in (MyAnimeList's "plain" challenge is the verifier itself);
   *     trackers without PKCE ignore it
   * @param redirectUri the reader's callback address, exactly as registered with the tracker
   */
  String authorizeUrl(String state, String codeVerifier, String redirectUri);

  /** Exchanges an OAuth callback's code for tokens and reads whose account they are. */
  Future<TrackerTokens> exchangeCode(String code, String codeVerifier, String redirectUri);

  /** Signs in with a user name and password (password trackers only); the password is not kept. */
  Future<TrackerTokens> logIn(String username, Secret password);

  /**
   * Renewed tokens, the same account. Fails with {@link TrackerFailure.Kind#SIGN_IN_AGAIN} when the tracker has no
   * renewal (AniList, MangaUpdates) or refuses it.
   */
  Future<TrackerTokens> refresh(TrackerTokens tokens);

  /**
   * The tracker's id for a series from the id a source gave for it (MangaDex's {@code links}): the same id when it is
   * already the tracker's, else looked up (a Kitsu slug, a MangaUpdates base-36 id). {@code tokens} may be null: an
   * automatic link is made before any request in the user's name, so the look-up needs no sign-in. Fails with
   * {@link TrackerFailure.Kind#REFUSED} when it names nothing.
   */
  default Future<String> remoteId(TrackerTokens tokens, String sourceLinkId) {
    return Future.succeededFuture(sourceLinkId);
  }

  /** Series of the tracker matching a title, best first. */
  Future<List<TrackerCandidate>> search(TrackerTokens tokens, String query);

  /** The user's list entry for a series as it is on the tracker now (not listed: {@link RemoteEntry#listEntryId} null). */
  Future<RemoteEntry> entry(TrackerTokens tokens, String remoteId);

  /**
   * Saves a progress and status on the user's list entry of a series (creating the entry when {@code current} is not
   * listed); only those two fields are sent.
   */
  Future<Void> save(TrackerTokens tokens, RemoteEntry current, int progress, TrackerStatus status);
}
