package io.mangacircus.reader.trackers;

import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.progress.ProgressRecorder;
import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.store.TrackerAccount;
import io.mangacircus.reader.store.TrackerLink;
import io.mangacircus.reader.store.TrackerStore;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/series/<series>/trackers} (docs/api.md "Trackers"): the signed-in user's links of one series to tracker
 * entries — each enabled tracker with the user's sign-in state, the id the source gave for the series there, and the
 * link with its last sync; linking to an entry the user picked, unlinking, and taking a tracker's progress that is
 * ahead ("mark read up to"). The series is one the user sees (the series guard checks before these routes).
 */
public final class TrackerLinkRoutes {

  private static final Logger LOG = LoggerFactory.getLogger(TrackerLinkRoutes.class);

  /** A tracker's series id as the routes accept it: numbers, slugs, base-36 ids. */
  static final Pattern REMOTE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

  /** The longest tracker title kept with a link. */
  static final int MAX_TITLE = 300;

  private final Vertx vertx;
  private final Map<String, TrackerClient> clients;
  private final TrackerStore store;
  private final LibraryFiles files;
  private final SourceTrackerIds sourceIds;
  private final ProgressRecorder recorder;
  private final TrackerLinkReplies replies;
  private final InstantSource clock;
  private final Runnable nudge;

  /** @param nudge asks the delivery to run soon */
  public TrackerLinkRoutes(Vertx vertx, Map<String, TrackerClient> clients, TrackerStore store, LibraryFiles files,
      SourceTrackerIds sourceIds, ProgressRecorder recorder, TrackerLinkReplies replies, InstantSource clock,
      Runnable nudge) {
    this.vertx = vertx;
    this.clients = clients;
    this.store = store;
    this.files = files;
    this.sourceIds = sourceIds;
    this.recorder = recorder;
    this.replies = replies;
    this.clock = clock;
    this.nudge = nudge;
  }

  /** The routes, mounted at {@code /api/series}. */
  public Router router() {
    Router router = Router.router(vertx);
    router.get("/:series/trackers").handler(this::handleList);
    router.put("/:series/trackers/:tracker").handler(this::handleLink);
    router.delete("/:series/trackers/:tracker").handler(this::handleUnlink);
    router.post("/:series/trackers/:tracker/pull").handler(this::handlePull);
    return router;
  }

  private Optional<TrackerClient> client(RoutingContext ctx) {
    TrackerClient client = clients.get(ctx.pathParam("tracker"));
    if (client == null) {
      ApiReplies.error(ctx, 404, "not_found", "no tracker '" + ctx.pathParam("tracker") + "' is enabled here");
    }
    return Optional.ofNullable(client);
  }

  /** The series' chapters; a {@link LibraryFiles.NotFoundException} (404) when it has none. */
  private List<LibraryFiles.Chapter> chapters(String series) {
    List<LibraryFiles.Chapter> chapters = files.chapters(series);
    if (chapters.isEmpty()) {
      throw new LibraryFiles.NotFoundException("no series " + series);
    }
    return chapters;
  }

  private void handleList(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String series = ctx.pathParam("series");
    ApiReplies.blocking(vertx, ctx, () -> {
      String title = chapters(series).get(0).seriesTitle();
      Map<String, TrackerAccount> accounts = new HashMap<>();
      for (TrackerAccount account : store.accounts(session.userId())) {
        accounts.put(account.tracker(), account);
      }
      Map<String, String> fromSource = sourceIds.of(series);
      JsonArray list = new JsonArray();
      for (TrackerClient client : clients.values()) {
        TrackerAccount account = accounts.get(client.id());
        Optional<TrackerLink> link = store.link(session.userId(), client.id(), series);
        list.add(new JsonObject().put("id", client.id()).put("name", client.name())
            .put("signedIn", account != null && !account.needsSignIn())
            .put("needsSignIn", account != null && account.needsSignIn())
            .put("sourceId", fromSource.get(client.id()))
            .put("link", link.isEmpty() ? null : replies.link(link.get())));
      }
      return new JsonObject().put("title", title).put("trackers", list);
    }, ctx::json);
  }

  private void handleLink(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String series = ctx.pathParam("series");
    Optional<TrackerClient> client = client(ctx);
    if (client.isEmpty()) {
      return;
    }
    Optional<JsonObject> body = ApiReplies.body(ctx, "{\"remoteId\": \"30013\", \"title\": \"...\"}");
    if (body.isEmpty()) {
      return;
    }
    Object remote = body.get().getValue("remoteId");
    String remoteId = remote instanceof Number number ? String.valueOf(number.longValue())
        : remote instanceof String text ? text.trim() : null;
    Object givenTitle = body.get().getValue("title");
    if (remoteId == null || !REMOTE_ID.matcher(remoteId).matches()
        || (givenTitle != null && !(givenTitle instanceof String))) {
      ApiReplies.error(ctx, 400, "bad_request", "send {\"remoteId\": <the tracker's id of the series>, \"title\": "
          + "<optional>}");
      return;
    }
    String title = givenTitle == null ? "" : ((String) givenTitle).strip();
    String tracker = client.get().id();
    ApiReplies.<Object>blocking(vertx, ctx, () -> {
      chapters(series);
      Optional<TrackerAccount> account = store.account(session.userId(), tracker);
      if (account.isEmpty()) {
        return "signed-out";
      }
      TrackerLink link = TrackerLink.of(session.userId(), tracker, series, remoteId,
          title.length() > MAX_TITLE ? title.substring(0, MAX_TITLE) : title, false, clock.instant());
      store.saveLink(link);
      store.requestUpdate(session.userId(), tracker, series, clock.instant(), clock.instant());
      return replies.link(link);
    }, result -> {
      if ("signed-out".equals(result)) {
        ApiReplies.error(ctx, 409, "conflict", "sign in to " + client.get().name() + " on your profile first");
        return;
      }
      LOG.info("[TRACKERS] '{}' linked series {} to {} {}", session.username(), series, client.get().name(),
          remoteId);
      nudge.run();
      ctx.json(result);
    });
  }

  private void handleUnlink(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String series = ctx.pathParam("series");
    Optional<TrackerClient> client = client(ctx);
    if (client.isEmpty()) {
      return;
    }
    ApiReplies.blocking(vertx, ctx, () -> store.deleteLink(session.userId(), client.get().id(), series), removed -> {
      if (!removed) {
        ApiReplies.error(ctx, 404, "not_found", "this series is not linked to " + client.get().name());
        return;
      }
      LOG.info("[TRACKERS] '{}' unlinked series {} from {}", session.username(), series, client.get().name());
      ctx.response().setStatusCode(204).end();
    });
  }

  private void handlePull(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    String series = ctx.pathParam("series");
    Optional<TrackerClient> client = client(ctx);
    if (client.isEmpty()) {
      return;
    }
    ApiReplies.<Object>blocking(vertx, ctx, () -> {
      Optional<TrackerLink> found = store.link(session.userId(), client.get().id(), series);
      if (found.isEmpty() || found.get().pullOffered() == null) {
        return "none";
      }
      TrackerLink link = found.get();
      int upTo = link.pullOffered();
      Set<String> chapters = new HashSet<>();
      for (LibraryFiles.Chapter chapter : chapters(series)) {
        int whole = SeriesReading.whole(chapter.number());
        if (whole >= 0 && whole <= upTo) {
          chapters.add(chapter.id());
        }
      }
      recorder.markRead(session.userId(), series, chapters);
      store.saveLink(new TrackerLink(link.userId(), link.tracker(), link.series(), link.remoteId(), link.title(),
          link.automatic(), link.listEntryId(), link.trackerProgress(), link.trackerStatus(), link.totalChapters(),
          link.lastPushAt(), link.lastSyncAt(), link.lastError(), null, link.linkedAt()));
      return chapters.size();
    }, result -> {
      if ("none".equals(result)) {
        ApiReplies.error(ctx, 409, "conflict", client.get().name() + " is not ahead of your reading here");
        return;
      }
      LOG.info("[TRACKERS] '{}' took {}'s progress for series {}: {} chapter(s) marked read", session.username(),
          client.get().name(), series, result);
      ctx.json(new JsonObject().put("marked", result));
    });
  }
}
