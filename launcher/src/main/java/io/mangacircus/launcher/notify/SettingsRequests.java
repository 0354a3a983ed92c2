package io.mangacircus.launcher.notify;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.launcher.config.NotificationsConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Settings page's side of the notifier (docs/notifications.md): what applies (the config file's destinations with
 * the page's saved ones merged in), the view with every secret shown only as "set", changes saved to
 * {@code destinations.json} and applied without a restart, and the test button.
 */
final class SettingsRequests {

  private static final Logger LOG = LoggerFactory.getLogger(SettingsRequests.class);

  private final Vertx vertx;
  private final SettingsFile file;
  private final NotificationSettings settings;
  private SettingsFile.Saved saved = SettingsFile.Saved.NONE;
  /** Why the saved settings are not in use (their file does not parse), or null. */
  private String problem;
  private NotificationsConfig current;
  private Future<Void> changing = Future.succeededFuture();

  /** @param fileConfig the config file's section, read-only here */
  SettingsRequests(Vertx vertx, NotificationsConfig fileConfig, Path folder) {
    this.vertx = vertx;
    this.file = new SettingsFile(folder);
    this.settings = new NotificationSettings(fileConfig);
    this.current = fileConfig;
  }

  /**
   * Reads the saved settings, blocking; a file that does not parse leaves the config file's destinations in use and
   * the page says why (the file stays).
   */
  void load() {
    try {
      saved = file.load();
    } catch (CorruptStateFileException e) {
      problem = e.getMessage() + "; repair it or move it away, then save again";
      LOG.error("[NOTIFY] the destinations saved from the Settings page are not used: {}", problem);
    }
  }

  /** What applies now. */
  NotificationsConfig current() {
    current = settings.merged(saved);
    return current;
  }

  /**
   * Answers the page's view, change and test requests (local consumers).
   *
   * @param applied told what applies after each saved change
   */
  List<MessageConsumer<Object>> answer(Dispatcher dispatcher, EventMessages messages, RequestSender sender,
      Consumer<NotificationsConfig> applied) {
    List<MessageConsumer<Object>> consumers = new ArrayList<>();
    consumers.add(vertx.eventBus().localConsumer(Addresses.LAUNCHER_NOTIFICATIONS_GET,
        message -> message.reply(view(dispatcher))));
    consumers.add(vertx.eventBus().localConsumer(Addresses.LAUNCHER_NOTIFICATIONS_CHANGE,
        message -> change(message, dispatcher, applied)));
    consumers.add(vertx.eventBus().localConsumer(Addresses.LAUNCHER_NOTIFICATIONS_TEST,
        message -> test(message, messages, sender)));
    return consumers;
  }

  private JsonObject view(Dispatcher dispatcher) {
    return settings.view(saved, problem).put("waiting", dispatcher.waiting()).put("dropped", dispatcher.dropped());
  }

  /** One test message to every destination and one heartbeat, at once and outside the outbox. */
  private void test(Message<Object> message, EventMessages messages, RequestSender sender) {
    String by = message.body() instanceof JsonObject body && body.getValue("requestedBy") instanceof String who
        ? who : "the Settings page";
    if (!current.active()) {
      message.fail(ErrorCode.NOT_READY.code(), "no notification destination and no heartbeat URL is configured");
      return;
    }
    Notification test = messages.test(by);
    List<Future<JsonObject>> answers = new ArrayList<>();
    for (NotificationsConfig.Destination d : current.destinations()) {
      answers.add(answer(sender.send(Destination.of(d).request(test)), new JsonObject().put("name", d.name())
          .put("type", d.type())));
    }
    Future<JsonObject> heartbeat = current.heartbeat().enabled()
        ? answer(sender.send(new OutgoingRequest("GET", current.heartbeat().url(), Map.of(), null)), new JsonObject())
        : Future.succeededFuture(null);
    LOG.info("[NOTIFY] test message to {} destination(s) and {} requested by {}", answers.size(),
        current.heartbeat().enabled() ? "one heartbeat" : "no heartbeat", by);
    Future.join(answers).onComplete(all -> heartbeat.onComplete(hb -> message.reply(new JsonObject().put("v", 1)
        .put("destinations", new JsonArray(answers.stream().map(Future::result).toList()))
        .put("heartbeat", hb.result()))));
  }

  /** The answer of one test request as the Settings page shows it. */
  private static Future<JsonObject> answer(Future<HttpResponse<Buffer>> sent, JsonObject into) {
    return sent.transform(ar -> Future.succeededFuture(ar.succeeded()
        ? into.put("ok", true).put("answer", "HTTP " + ar.result().statusCode())
        : into.put("ok", false).put("answer", ar.cause().getMessage())));
  }

  /**
   * A change from the Settings page: the file is read again (a repaired file is used, a corrupt one refused and left
   * as it is), the edit applied and checked, the file written, and the destinations and heartbeat reloaded, all
   * without a restart. Changes run one after the other. Replies with the new view.
   */
  private void change(Message<Object> message, Dispatcher dispatcher, Consumer<NotificationsConfig> applied) {
    if (!(message.body() instanceof JsonObject body) || !(body.getValue("action") instanceof String action)) {
      message.fail(ErrorCode.MALFORMED_MESSAGE.code(), "send {v:1, action, ...}");
      return;
    }
    String name = body.getString("name", "");
    JsonObject fields = body.getJsonObject("fields", new JsonObject());
    String by = body.getString("requestedBy", "the Settings page");
    changing = changing.transform(previous -> vertx.executeBlocking(() -> {
      SettingsFile.Saved now = file.load();
      SettingsFile.Saved next = switch (action) {
        case "put-destination" -> settings.putDestination(now, name, fields);
        case "remove-destination" -> settings.removeDestination(now, name);
        case "put-heartbeat" -> settings.putHeartbeat(now, fields);
        case "remove-heartbeat" -> settings.removeHeartbeat(now);
        default -> throw new NotificationSettings.Refused(NotificationSettings.Refusal.INVALID,
            "unknown action " + action);
      };
      file.save(next);
      return next;
    }, true).onComplete(ar -> {
      if (ar.succeeded()) {
        saved = ar.result();
        problem = null;
        NotificationsConfig config = current();
        applied.accept(config);
        LOG.info("[NOTIFY] {}{} by {}: now {} destination(s) {}, heartbeat {}", action.replace('-', ' '),
            name.isEmpty() ? "" : " " + name, by, config.destinations().size(),
            config.destinations().stream().map(NotificationsConfig.Destination::name).toList(),
            config.heartbeat().enabled() ? "every " + config.heartbeat().intervalSeconds() + " s" : "off");
        message.reply(view(dispatcher));
      } else if (ar.cause() instanceof NotificationSettings.Refused refused) {
        message.fail(switch (refused.reason()) {
          case INVALID -> ErrorCode.MALFORMED_MESSAGE.code();
          case NOT_FOUND -> ErrorCode.NOT_FOUND.code();
          case READ_ONLY -> ErrorCode.ILLEGAL_TRANSITION.code();
        }, refused.getMessage());
      } else {
        String failure = ar.cause() instanceof CorruptStateFileException ? ar.cause().getMessage()
            + "; repair it or move it away, then save again"
            : "cannot save " + file.path() + ": " + ar.cause().getMessage();
        LOG.error("[NOTIFY] {} refused: {}", action.replace('-', ' '), failure);
        message.fail(ErrorCode.STORAGE_ERROR.code(), failure);
      }
    }).mapEmpty());
  }
}
