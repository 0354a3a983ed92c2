package io.mangacircus.reader.store;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Users' new-chapter alerts: where each user's go (one target a user) and which series each user subscribed to.
 * Blocking: call it from a worker thread or {@code executeBlocking}, never from an event loop.
 */
public interface AlertStore {

  /** Where the user's alerts go, if they chose. */
  Optional<AlertTarget> alertTarget(long userId) throws StoreException;

  /** Sets where the user's alerts go. */
  void saveAlertTarget(long userId, AlertTarget target, Instant now) throws StoreException;

  /** Forgets where the user's alerts go (their subscriptions stay); false when none was set. */
  boolean deleteAlertTarget(long userId) throws StoreException;

  /** Subscribes the user to new-chapter alerts of a series, or ends that subscription. */
  void setSeriesAlert(long userId, String series, boolean on, Instant now) throws StoreException;

  /**
   * Subscribes the user to new-chapter alerts of a series unless they already have {@code max} subscriptions; true
   * when subscribed (already subscribed included), false when the limit refused it. Checked and added in one step.
   */
  boolean addSeriesAlert(long userId, String series, int max, Instant now) throws StoreException;

  /** The series the user gets new-chapter alerts of, by id. */
  List<String> seriesAlerts(long userId) throws StoreException;

  /**
   * The users to alert about new chapters of some of {@code series}: those not disabled, with a target, each with
   * only the series of the list they subscribed to (in id order), the users by name.
   */
  List<Subscriber> subscribers(Collection<String> series) throws StoreException;
}
