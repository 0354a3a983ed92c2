package io.mangacircus.reader.alerts;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.reader.access.VisibleSeries;
import io.mangacircus.reader.accounts.AccessGuard;
import io.mangacircus.reader.http.ApiReplies;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.store.AlertStore;
import io.mangacircus.reader.store.AlertTarget;
import io.mangacircus.reader.store.Session;
import io.mangacircus.reader.store.StoreException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;

/**
 * A reader's own new-chapter alerts (docs/notifications.md): where they go (an ntfy topic or a webhook, secrets shown
 * only as "set") and which series they are about, under {@code /api/me/alerts}; and the answer to the notifier's
 * question "who wants to hear about these series", which names each user only with their own series. A target is saved
 * only once this process's notifier agreed to send there.
 */
public final class ChapterAlerts {

  /** How long the notifier may take to check a target's address (name lookups included). */
  static final Duration CHECK_TIMEOUT = Duration.ofSeconds(15);

  /** Series one user may subscribe to: a bound on the rows a reader can add. */
  public static final int MAX_SERIES_PER_USER = 1000;

  private final Vertx vertx;
  private final AlertStore alerts;
  private final LibraryFiles library;
  private final InstantSource clock;
  private final java.util.function.BiPredicate<String, String> sees;

  public ChapterAlerts(Vertx vertx, AlertStore alerts, LibraryFiles library, InstantSource clock) {
    this(vertx, alerts, library, clock, (user, series) -> true);
  }

  /** @param sees whether the account with a user name sees a series (who is told of its new chapters) */
  public ChapterAlerts(Vertx vertx, AlertStore alerts, LibraryFiles library, InstantSource clock,
      java.util.function.BiPredicate<String, String> sees) {
    this.vertx = vertx;
    this.alerts = alerts;
    this.library = library;
    this.clock = clock;
    this.sees = sees;
  }

  /** The routes, mounted at {@code /api/me/alerts}; every signed-in user, each for themselves. */
  public Router router() {
    Router router = Router.router(vertx);
    router.get("/").handler(this::handleGet);
    router.put("/target").handler(this::handlePutTarget);
    router.delete("/target").handler(this::handleDeleteTarget);
    router.put("/series/:series").handler(ctx -> handleSeries(ctx, true));
    router.delete("/series/:series").handler(ctx -> handleSeries(ctx, false));
    return router;
  }

  /** Answers {@link Addresses#READER_ALERTS_SUBSCRIBERS} (local only: the reply carries the users' secrets). */
  public MessageConsumer<Object> answerSubscribers() {
    return vertx.eventBus().localConsumer(Addresses.READER_ALERTS_SUBSCRIBERS, this::handleSubscribers);
  }

  private void handleSubscribers(Message<Object> message) {
    if (!(message.body() instanceof JsonObject body) || !(body.getValue("series") instanceof JsonArray series)) {
      message.fail(ErrorCode.MALFORMED_MESSAGE.code(), "send {v:1, series:[ids]}");
      return;
    }
    List<String> ids = series.stream().filter(String.class::isInstance).map(String.class::cast).toList();
    vertx.executeBlocking(() -> alerts.subscribers(ids), false).onComplete(ar -> {
      if (ar.failed()) {
        message.fail(ErrorCode.STORAGE_ERROR.code(), "reader.db: " + ar.cause().getMessage());
        return;
      }
      JsonArray subscribers = new JsonArray();
      // A reader is told only of series they may see (an admin may have narrowed that since they subscribed).
      ar.result().forEach(s -> {
        List<String> seen = s.series().stream().filter(id -> sees.test(s.username(), id)).toList();
        if (!seen.isEmpty()) {
          subscribers.add(new JsonObject().put("user", s.username())
              .put("target", new JsonObject().put("type", s.target().type()).put("url", s.target().url())
                  .put("topic", s.target().topic()).put("token", s.target().token()))
              .put("series", new JsonArray(seen)));
        }
      });
      message.reply(new JsonObject().put("v", 1).put("subscribers", subscribers));
    });
  }

  /** The user's alert target and the series they follow (those they see). */
  private JsonObject view(long userId, java.util.function.Predicate<String> seen) throws StoreException {
    Optional<AlertTarget> target = alerts.alertTarget(userId);
    return new JsonObject().put("target", target.map(t -> new JsonObject().put("type", t.type()).put("url", "set")
        .put("topic", t.topic().isEmpty() ? null : "set").put("token", t.token().isEmpty() ? "none" : "set"))
        .orElse(null)).put("series", new JsonArray(alerts.seriesAlerts(userId).stream().filter(seen).toList()));
  }

  private void handleGet(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    ApiReplies.blocking(vertx, ctx, () -> view(session.userId(), VisibleSeries.viewer(ctx)::sees), ctx::json);
  }

  private void handlePutTarget(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    Optional<JsonObject> body = ApiReplies.body(ctx, "{\"type\": \"ntfy\", \"url\": \"https://ntfy.sh\", \"topic\": "
        + "\"...\", \"token\": \"...\"}");
    if (body.isEmpty()) {
      return;
    }
    ApiReplies.blocking(vertx, ctx, () -> AlertTargetRules.edit(alerts.alertTarget(session.userId()), body.get()),
        target -> checkAddress(target)
            .onFailure(t -> refused(ctx, t))
            .onSuccess(checked -> ApiReplies.blocking(vertx, ctx, () -> {
              alerts.saveAlertTarget(session.userId(), checked, clock.instant());
              return view(session.userId(), VisibleSeries.viewer(ctx)::sees);
            }, ctx::json)));
  }

  /**
   * Asks this process's notifier whether the server may send to the target's address: a reader must not aim it at
   * the server's own network (docs/notifications.md). The notifier checks again at every send.
   */
  private Future<AlertTarget> checkAddress(AlertTarget target) {
    return vertx.eventBus().request(Addresses.LAUNCHER_NOTIFICATIONS_CHECK_TARGET, new JsonObject().put("v", 1)
            .put("url", target.url()), new DeliveryOptions().setLocalOnly(true)
            .setSendTimeout(CHECK_TIMEOUT.toMillis()))
        .map(reply -> target);
  }

  private static void refused(RoutingContext ctx, Throwable t) {
    if (t instanceof ReplyException reply && reply.failureType() == ReplyFailure.RECIPIENT_FAILURE
        && reply.failureCode() == ErrorCode.MALFORMED_MESSAGE.code()) {
      ApiReplies.error(ctx, 400, "bad_request", "url refused: " + reply.getMessage());
    } else if (t instanceof ReplyException reply && reply.failureType() == ReplyFailure.NO_HANDLERS) {
      ApiReplies.error(ctx, 503, "notifier_unavailable", "the notifier is not running in this process, so the "
          + "target cannot be checked; the log says why");
    } else {
      ApiReplies.error(ctx, 503, "notifier_unavailable", "the target could not be checked: " + t.getMessage());
    }
  }

  private void handleDeleteTarget(RoutingContext ctx) {
    Session session = ctx.get(AccessGuard.SESSION);
    ApiReplies.blocking(vertx, ctx, () -> {
      alerts.deleteAlertTarget(session.userId());
      return view(session.userId(), VisibleSeries.viewer(ctx)::sees);
    }, ctx::json);
  }

  private void handleSeries(RoutingContext ctx, boolean on) {
    Session session = ctx.get(AccessGuard.SESSION);
    String series = ctx.pathParam("series");
    if (!LibraryFiles.validId(series)) {
      ApiReplies.error(ctx, 400, "bad_request", "not a series id: " + series);
      return;
    }
    ApiReplies.<Object>blocking(vertx, ctx, () -> {
      if (!on) {
        // Ending a subscription works for a series removed from the library too.
        alerts.setSeriesAlert(session.userId(), series, false, clock.instant());
      } else {
        // Only a series the library serves (its page would answer): throws the same 404 otherwise.
        library.chapters(series);
        if (!alerts.addSeriesAlert(session.userId(), series, MAX_SERIES_PER_USER, clock.instant())) {
          return "limit";
        }
      }
      return view(session.userId(), VisibleSeries.viewer(ctx)::sees);
    }, result -> {
      if (result instanceof JsonObject view) {
        ctx.json(view);
      } else {
        ApiReplies.error(ctx, 409, "conflict", "at most " + MAX_SERIES_PER_USER
            + " series alerts; end one first");
      }
    });
  }
}
