package io.mangacircus.reader.trackers;

import io.mangacircus.reader.store.StoreException;
import io.mangacircus.reader.store.TrackerAccount;
import io.mangacircus.reader.store.TrackerLink;
import io.mangacircus.reader.store.TrackerStore;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns "this user finished a chapter of this series" (from whatever recorded it: the browser, OPDS page streaming,
 * the Komga API, KOReader sync) into one pending update per tracker the series is linked to on the user's accounts,
 * linking it first when the source named the series' id on that tracker. Blocking: called on the worker that saved
 * the reading, so the update is stored before the reading's answer goes out.
 */
public final class TrackerSync {

  private static final Logger LOG = LoggerFactory.getLogger(TrackerSync.class);

  /** How long an automatic link may wait for a tracker to turn a source's id into its own (a Kitsu slug). */
  static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(20);

  private final TrackerStore store;
  private final Map<String, TrackerClient> clients;
  private final SourceTrackerIds sourceIds;
  private final InstantSource clock;
  private final Runnable nudge;

  /** @param nudge asks the delivery to run soon (safe from any thread) */
  public TrackerSync(TrackerStore store, Map<String, TrackerClient> clients, SourceTrackerIds sourceIds,
      InstantSource clock, Runnable nudge) {
    this.store = store;
    this.clients = clients;
    this.sourceIds = sourceIds;
    this.clock = clock;
    this.nudge = nudge;
  }

  /** The user's reading of a series changed: request an update on every tracker it is (or can be) linked to. */
  public void readingChanged(long userId, String series) throws StoreException {
    Instant now = clock.instant();
    boolean requested = false;
    Map<String, String> fromSource = null;
    for (TrackerAccount account : store.accounts(userId)) {
      TrackerClient client = clients.get(account.tracker());
      if (client == null) {
        // a tracker the admin turned off since: its links wait, nothing is contacted
        continue;
      }
      Optional<TrackerLink> link = store.link(userId, account.tracker(), series);
      if (link.isEmpty()) {
        if (fromSource == null) {
          fromSource = sourceIds.of(series);
        }
        Optional<String> remote = remoteId(client, fromSource.get(account.tracker()));
        if (remote.isEmpty()) {
          continue;
        }
        store.saveLink(TrackerLink.of(userId, account.tracker(), series, remote.get(), "", true, now));
        LOG.info("[TRACKERS] user {} series {} linked to {} {} from its source's link", userId, series,
            client.name(), remote.get());
      }
      store.requestUpdate(userId, account.tracker(), series, now, now);
      requested = true;
    }
    if (requested) {
      nudge.run();
    }
  }

  /** The tracker's own id for a source's id of it, looked up when the tracker needs to; empty when there is none. */
  private Optional<String> remoteId(TrackerClient client, String sourceId) {
    if (sourceId == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(client.remoteId(null, sourceId).toCompletionStage().toCompletableFuture()
          .get(LOOKUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (Exception e) {
      LOG.info("[TRACKERS] the source's {} id '{}' is not linked automatically: {}", client.name(), sourceId,
          e.getCause() == null ? e.toString() : e.getCause().getMessage());
      return Optional.empty();
    }
  }
}
