package io.mangacircus.reader.trackers;

import io.mangacircus.reader.TrackersConfig;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.progress.ProgressRecorder;
import io.mangacircus.reader.progress.ReadingEvents;
import io.mangacircus.reader.store.ReaderStores;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trackers feature put together (docs/trackers.md): the enabled trackers' clients, the sign-in and link routes,
 * the progress listener that requests updates, and the delivery that sends them. With no tracker enabled the routes
 * answer an empty list, nothing is contacted and no key file is made.
 */
public final class TrackerFeature {

  private static final Logger LOG = LoggerFactory.getLogger(TrackerFeature.class);

  /** How often the delivery looks for updates that became due (a new request runs it at once). */
  static final long DELIVERY_PERIOD_MS = 5_000;

  private final TrackerAccountRoutes accountRoutes;
  private final TrackerLinkRoutes linkRoutes;
  private final TrackerDelivery delivery;
  private final WebClient web;

  private TrackerFeature(TrackerAccountRoutes accountRoutes, TrackerLinkRoutes linkRoutes,
      TrackerDelivery delivery, WebClient web) {
    this.accountRoutes = accountRoutes;
    this.linkRoutes = linkRoutes;
    this.delivery = delivery;
    this.web = web;
  }

  /**
   * Puts the feature together. Blocking when a tracker is enabled (reads or creates the key file): call it on a worker.
   *
   * @param progress the progress store every reading goes through; told to pass finished chapters on
   * @param registry where the update counts and the pending gauge go; null: not counted
   */
  public static TrackerFeature create(Vertx vertx, TrackersConfig config, Path dataDir, ReaderStores stores,
      ReadingEvents progress, LibraryFiles files, MeterRegistry registry, InstantSource clock) {
    SourceTrackerIds sourceIds = new SourceTrackerIds(files);
    TrackerLinkReplies replies = new TrackerLinkReplies(stores.trackers(), files);
    ProgressRecorder recorder = new ProgressRecorder(files, progress, clock);
    TrackerTokenVault vault = null;
    if (config.anyEnabled()) {
      try {
        vault = config.sharedKeyFile().map(TrackerTokenVault::sharedKey)
            .orElseGet(() -> new TrackerTokenVault(dataDir));
      } catch (TrackerTokenVault.KeyFileRefused e) {
        // The tokens sealed with that key would be lost with it: the file is left as it is and trackers wait for the
        // operator, while the rest of the reader serves.
        LOG.error("[TRACKERS] trackers are off until this is repaired: {}", e.getMessage());
      }
    }
    if (vault == null) {
      return new TrackerFeature(new TrackerAccountRoutes(vertx, Map.of(), stores.trackers(), null, null,
          stores.sessions(), config.publicUrl(), replies, clock), new TrackerLinkRoutes(vertx, Map.of(),
          stores.trackers(), files, sourceIds, recorder, replies, clock, () -> { }), null, null);
    }
    WebClient web = WebClient.create(vertx, new WebClientOptions().setUserAgent("MangaCircus")
        .setConnectTimeout(10_000).setFollowRedirects(false));
    Map<String, TrackerClient> clients = TrackerClients.of(web, config, clock);
    TrackerSignInAlerts alerts = new TrackerSignInAlerts(vertx, stores.users(), stores.alerts(), config.publicUrl());
    TrackerDelivery delivery = new TrackerDelivery(vertx, stores.trackers(), vault, clients,
        new TrackerPace(clock, TrackerClients.requestsPerMinute(config)), new TrackerSyncRules(clock), clock,
        (user, series) -> SeriesReading.of(files.chapters(series), progress.readChapters(user, series)),
        (user, tracker, why) -> alerts.signInNeeded(user, clients.get(tracker).name(), why), registry);
    TrackerAccounts accounts = new TrackerAccounts(stores.trackers(), vault, clock, delivery::nudge);
    TrackerSync sync = new TrackerSync(stores.trackers(), clients, sourceIds, clock, delivery::nudge);
    progress.listen(sync::readingChanged);
    LOG.info("[TRACKERS] users may link {}", clients.values().stream().map(TrackerClient::name).toList());
    return new TrackerFeature(new TrackerAccountRoutes(vertx, clients, stores.trackers(), accounts,
        new OAuthSignIns(clock, vault), stores.sessions(), config.publicUrl(), replies, clock), new TrackerLinkRoutes(vertx, clients, stores.trackers(),
        files, sourceIds, recorder, replies, clock, delivery::nudge), delivery, web);
  }

  /** Mounts the routes: {@code /api/me/trackers}, the OAuth callbacks, and {@code /api/series/<id>/trackers}. */
  public void mount(Router router) {
    router.route("/api/me/trackers*").subRouter(accountRoutes.router());
    router.route(TrackerAccountRoutes.CALLBACK_MOUNT + "*").subRouter(accountRoutes.callbackRouter());
    router.route("/api/series*").subRouter(linkRoutes.router());
  }

  /** Starts delivering (what waited from before a restart goes out now). */
  public void start() {
    if (delivery != null) {
      delivery.start(DELIVERY_PERIOD_MS);
    }
  }

  /** Stops delivering; a pending update stays stored for the next start. */
  public void stop() {
    if (delivery != null) {
      delivery.stop();
    }
    if (web != null) {
      web.close();
    }
  }
}
