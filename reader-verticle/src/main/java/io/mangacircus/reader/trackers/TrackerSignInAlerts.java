package io.mangacircus.reader.trackers;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.reader.store.AlertStore;
import io.mangacircus.reader.store.AlertTarget;
import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.UserStore;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a user that a tracker sign-in needs renewing, through their own alert target (the new-chapter alerts' ntfy
 * topic or webhook, docs/notifications.md) when they set one: one message each time a sign-in turns "needs sign-in
 * again". The profile page says it too, target or not. Blocking (reads the user and their target).
 */
public final class TrackerSignInAlerts {

  private static final Logger LOG = LoggerFactory.getLogger(TrackerSignInAlerts.class);

  private final Vertx vertx;
  private final UserStore users;
  private final AlertStore alerts;
  private final String publicUrl;

  /** @param publicUrl the reader's public address for the message's link to the profile page; empty: no link */
  public TrackerSignInAlerts(Vertx vertx, UserStore users, AlertStore alerts, String publicUrl) {
    this.vertx = vertx;
    this.users = users;
    this.alerts = alerts;
    this.publicUrl = publicUrl;
  }

  /** Sends the notice to the user's target, if they have one. */
  public void signInNeeded(long userId, String trackerName, String why) {
    Optional<AlertTarget> target;
    Optional<String> name;
    try {
      target = alerts.alertTarget(userId);
      name = users.userById(userId).map(u -> u.username());
    } catch (StoreException e) {
      LOG.warn("[TRACKERS] user {} not told to sign in to {} again (the profile page says it): {}", userId,
          trackerName, e.getMessage());
      return;
    }
    if (target.isEmpty() || name.isEmpty()) {
      return;
    }
    AlertTarget t = target.get();
    String title = "Sign in to " + trackerName + " again";
    String text = "MangaCircus cannot update your " + trackerName + " list: " + why + ". Your updates wait; sign in "
        + "again on your profile page and they go out.";
    vertx.eventBus().send(Addresses.LAUNCHER_NOTIFICATIONS_READER_NOTICE, new JsonObject().put("v", 1)
        .put("user", name.get())
        .put("target", new JsonObject().put("type", t.type()).put("url", t.url()).put("topic", t.topic())
            .put("token", t.token()))
        .put("key", "tracker-sign-in:" + trackerName).put("title", title).put("text", text)
        .put("click", publicUrl.isEmpty() ? "" : publicUrl + "/profile.html"), new DeliveryOptions().setLocalOnly(true));
    LOG.info("[TRACKERS] user {} told to sign in to {} again", userId, trackerName);
  }
}
