package io.mangacircus.reader.trackers;

/** Tells a user that a tracker sign-in stopped working and updates wait for a new one (the reader alert path). */
@FunctionalInterface
public interface SignInNotices {

  /**
   * Called once when the user's account on the tracker turns "needs sign-in again", from a worker thread.
   *
   * @param why what the tracker said, in words for the user; never a token
   */
  void signInNeeded(long userId, String tracker, String why);
}
