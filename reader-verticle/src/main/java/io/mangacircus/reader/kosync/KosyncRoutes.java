package io.mangacircus.reader.kosync;

import io.mangacircus.reader.accounts.LoginThrottle;
import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.progress.ProgressRecorder;
import io.mangacircus.reader.store.KosyncStore;
import io.mangacircus.reader.store.Progress;
import io.mangacircus.reader.store.ProgressStore;
import io.mangacircus.reader.store.StoreException;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KOReader's progress sync server protocol (kosync), mounted at {@link #MOUNT}: the routes, status codes, error codes and
 * JSON of the reference server (koreader/koreader-sync-server app/controllers/1/syncs_controller.lua, config/routes.lua,
 * config/errors.lua) as KOReader's plugin calls them (koreader plugins/kosync.koplugin/api.json, KOSyncClient.lua,
 * main.lua). Authenticated by its own {@code x-auth-user} / {@code x-auth-key} headers ({@link KosyncAccounts}), not by
 * a session, under the login throttle. A document that names one of our chapters ({@link KosyncDocuments}) moves the
 * one reading position every reader shares ({@link ProgressRecorder}); any other document is kept as sent, as the
 * reference server keeps every document, so that two KOReader devices still sync a file from elsewhere (Komga answers
 * 404 there instead, interfaces/api/kosync/KoreaderSyncController.kt).
 */
public final class KosyncRoutes {

  private static final Logger LOG = LoggerFactory.getLogger(KosyncRoutes.class);

  /** Where the routes are mounted: the address a user enters in KOReader as its custom sync server. */
  public static final String MOUNT = "/kosync";

  /** The largest request body read: a push with its optional metadata (file name, title, authors) is far smaller. */
  public static final int MAX_BODY_BYTES = 16 * 1024;

  /** The device name a pull reports for a position saved by the browser reader (or any reader but KOReader). */
  public static final String OWN_DEVICE = "MangaCircus";

  /** The device id that goes with {@link #OWN_DEVICE}. */
  public static final String OWN_DEVICE_ID = "mangacircus";

  private static final int MAX_DOCUMENT = 255;
  private static final int MAX_FIELD = 1024;
  private static final String ACCOUNT = "mc.kosync.account";

  private final Vertx vertx;
  private final KosyncAccounts accounts;
  private final KosyncDocuments documents;
  private final KosyncStore store;
  private final ProgressStore progress;
  private final ProgressRecorder recorder;
  private final LoginThrottle throttle;
  private final Function<RoutingContext, String> clientAddress;
  private final InstantSource clock;
  private java.util.function.BiPredicate<String, String> sees = (user, series) -> true;

  /**
   * @param clientAddress the client's address as the access guard reads it ({@code guard::clientAddress}), for the
   *     login throttle
   */
  public KosyncRoutes(Vertx vertx, KosyncAccounts accounts, KosyncDocuments documents, KosyncStore store,
      ProgressStore progress, ProgressRecorder recorder, LoginThrottle throttle,
      Function<RoutingContext, String> clientAddress, InstantSource clock) {
    this.vertx = vertx;
    this.accounts = accounts;
    this.documents = documents;
    this.store = store;
    this.progress = progress;
    this.recorder = recorder;
    this.throttle = throttle;
    this.clientAddress = clientAddress;
    this.clock = clock;
  }

  /**
   * Only documents of series the account sees are known as our chapters (another is kept and answered as a document
   * of no chapter, as the reference server keeps any document).
   *
   * @param sees whether the account with a user name sees a series
   */
  public KosyncRoutes seeing(java.util.function.BiPredicate<String, String> sees) {
    this.sees = sees;
    return this;
  }

  /** The routes, relative to {@link #MOUNT}; every refusal answers in kosync's error shape. */
  public Router router() {
    Router router = Router.router(vertx);
    router.post("/users/create").handler(ctx -> KosyncError.REGISTRATION_DISABLED.answer(ctx,
        "User registration is disabled: accounts are made by the MangaCircus admin; log in with your user name and "
            + "an app password"));
    router.get("/healthcheck").handler(ctx -> ctx.json(new JsonObject().put("state", "OK")));
    router.get("/users/auth").handler(this::authenticate)
        .handler(ctx -> ctx.json(new JsonObject().put("authorized", "OK")));
    router.put("/syncs/progress").handler(this::refuseLargeBody);
    router.put("/syncs/progress").handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES))
        .handler(this::authenticate).handler(this::handlePush);
    router.get("/syncs/progress/:document").handler(this::authenticate).handler(this::handlePull);
    router.route().handler(ctx -> KosyncError.NOT_FOUND.answer(ctx, "no kosync route " + ctx.request().path()));
    return router;
  }

  /**
   * A body announced over {@link #MAX_BODY_BYTES} answers in kosync's shape before any of it is read (a chunked one
   * past the limit fails in the body handler and answers in the reader's shape, as every failure does).
   */
  private void refuseLargeBody(RoutingContext ctx) {
    String length = ctx.request().getHeader("Content-Length");
    long announced;
    try {
      announced = length == null ? 0 : Long.parseLong(length.trim());
    } catch (NumberFormatException e) {
      announced = Long.MAX_VALUE;
    }
    if (announced > MAX_BODY_BYTES) {
      KosyncError.TOO_LARGE.answer(ctx, "the body is over " + MAX_BODY_BYTES + " bytes");
      return;
    }
    ctx.next();
  }

  /** Checks the headers under the login throttle (per client address and user name); admits with the account. */
  private void authenticate(RoutingContext ctx) {
    String user = ctx.request().getHeader("x-auth-user");
    String key = ctx.request().getHeader("x-auth-key");
    if (user == null || user.isEmpty() || key == null || key.isEmpty() || user.length() > MAX_FIELD
        || key.length() > MAX_FIELD) {
      KosyncError.UNAUTHORIZED.answer(ctx, "Unauthorized");
      return;
    }
    LoginThrottle.Attempt attempt = throttle.begin(clientAddress.apply(ctx), user.toLowerCase(java.util.Locale.ROOT));
    if (!attempt.admitted()) {
      long seconds = Math.max(1, (attempt.retryAfter().toMillis() + 999) / 1000);
      ctx.response().putHeader("Retry-After", String.valueOf(seconds));
      KosyncError.THROTTLED.answer(ctx, "too many failed attempts; try again in " + seconds + " s");
      return;
    }
    vertx.executeBlocking(() -> accounts.check(user, key), false).onComplete(ar -> {
      if (ar.failed()) {
        throttle.abandoned(attempt);
        LOG.warn("[KOSYNC] cannot check the key of '{}': {}", user, ar.cause().toString());
        KosyncError.INTERNAL.answer(ctx, "Unknown server error.");
      } else if (ar.result().isEmpty()) {
        throttle.failed(attempt);
        KosyncError.UNAUTHORIZED.answer(ctx, "Unauthorized");
      } else {
        throttle.succeeded(attempt);
        ctx.put(ACCOUNT, ar.result().get());
        ctx.next();
      }
    });
  }

  private void handlePush(RoutingContext ctx) {
    KosyncAccounts.Account account = ctx.get(ACCOUNT);
    if (!account.mayMoveProgress()) {
      KosyncError.READ_ONLY.answer(ctx, "this app password may only read progress; give it the read+progress scope "
          + "on your profile page");
      return;
    }
    JsonObject body;
    try {
      body = ctx.body().length() == 0 ? null : ctx.body().asJsonObject();
    } catch (DecodeException | ClassCastException e) {
      body = null;
    }
    if (body == null) {
      KosyncError.INVALID.answer(ctx, "Invalid request: send a JSON object");
      return;
    }
    String document = body.getValue("document") instanceof String s ? s : null;
    if (!validDocument(document)) {
      KosyncError.DOCUMENT.answer(ctx, "Field 'document' not provided.");
      return;
    }
    Object rawProgress = body.getValue("progress");
    String sentProgress = rawProgress instanceof String s ? s : rawProgress instanceof Number n ? n.toString() : null;
    String device = body.getValue("device") instanceof String s ? s : null;
    Object rawDeviceId = body.getValue("device_id");
    String deviceId = rawDeviceId == null ? "" : rawDeviceId instanceof String s ? s : null;
    double percentage;
    try {
      percentage = KosyncPosition.fraction(body.getValue("percentage"));
    } catch (IllegalArgumentException e) {
      KosyncError.INVALID.answer(ctx, "Invalid request: " + e.getMessage());
      return;
    }
    if (sentProgress == null || sentProgress.isEmpty() || device == null || device.isEmpty() || deviceId == null
        || sentProgress.length() > MAX_FIELD || device.length() > MAX_FIELD || deviceId.length() > MAX_FIELD) {
      KosyncError.INVALID.answer(ctx, "Invalid request: progress, percentage and device are required");
      return;
    }
    vertx.executeBlocking(() -> push(account, document, sentProgress, percentage, device, deviceId), false)
        .onComplete(ar -> {
          if (ar.succeeded()) {
            ctx.json(new JsonObject().put("document", document).put("timestamp", ar.result().getEpochSecond()));
          } else if (ar.cause() instanceof IllegalArgumentException e) {
            KosyncError.INVALID.answer(ctx, "Invalid request: " + e.getMessage());
          } else {
            LOG.warn("[KOSYNC] cannot save the push of user {} for {}: {}", account.userId(), document,
                ar.cause().toString());
            KosyncError.INTERNAL.answer(ctx, "Unknown server error.");
          }
        });
  }

  /** Saves a push: a chapter's page through the recorder, the push itself in any case; returns its time. */
  private Instant push(KosyncAccounts.Account account, String document, String sent, double percentage, String device,
      String deviceId) throws StoreException {
    long userId = account.userId();
    Optional<LibraryFiles.Chapter> chapter = resolve(account, document);
    if (chapter.isEmpty()) {
      Instant now = clock.instant();
      store.savePush(userId, new KosyncStore.Push(document, sent, percentage, device, deviceId, now));
      return now;
    }
    LibraryFiles.Chapter c = chapter.get();
    int pages = c.pages().size();
    int page = KosyncPosition.page(sent, pages);
    ProgressRecorder.Saved saved = recorder.save(userId, c.seriesId(), c.id(), page);
    store.savePush(userId, new KosyncStore.Push(chapterKey(c), KosyncPosition.progress(page),
        KosyncPosition.percentage(page, pages), device, deviceId, saved.updatedAt()));
    return saved.updatedAt();
  }

  /** The chapter a document is, when it is one of a series the account sees. */
  private Optional<LibraryFiles.Chapter> resolve(KosyncAccounts.Account account, String document)
      throws StoreException {
    return documents.resolve(account.userId(), document).filter(c -> sees.test(account.username(), c.seriesId()));
  }

  private void handlePull(RoutingContext ctx) {
    KosyncAccounts.Account account = ctx.get(ACCOUNT);
    String document = ctx.pathParam("document");
    if (!validDocument(document)) {
      KosyncError.DOCUMENT.answer(ctx, "Field 'document' not provided.");
      return;
    }
    vertx.executeBlocking(() -> pull(account, document), false).onComplete(ar -> {
      if (ar.succeeded()) {
        ctx.json(ar.result());
      } else {
        LOG.warn("[KOSYNC] cannot read the position of user {} for {}: {}", account.userId(), document,
            ar.cause().toString());
        KosyncError.INTERNAL.answer(ctx, "Unknown server error.");
      }
    });
  }

  /**
   * A pull, as the reference server answers it: every field known, or {@code {}} when there is no position. For a
   * chapter: the saved position when it is in that chapter; a chapter marked read is its last page at 1; another
   * chapter's position is none. The device is the last KOReader push's when that push is the position, else
   * {@link #OWN_DEVICE}; the timestamp (seconds, which KOReader compares with its last page turn) is when the position
   * was saved, left out for a read mark whose time is unknown (KOReader then compares percentages).
   */
  private JsonObject pull(KosyncAccounts.Account account, String document) throws StoreException {
    long userId = account.userId();
    Optional<LibraryFiles.Chapter> chapter = resolve(account, document);
    if (chapter.isEmpty()) {
      return store.lastPush(userId, document).map(p -> answer(document, p.percentage(), p.progress(), p.device(), p.deviceId(), p.at()))
          .orElseGet(JsonObject::new);
    }
    LibraryFiles.Chapter c = chapter.get();
    Optional<KosyncStore.Push> push = store.lastPush(userId, chapterKey(c));
    int pages = c.pages().size();
    Optional<Progress> saved = progress.progress(userId, c.seriesId());
    int page;
    Instant at;
    if (saved.isPresent() && saved.get().chapter().equals(c.id())) {
      page = Math.max(1, Math.min(pages, saved.get().page()));
      at = saved.get().updatedAt();
    } else if (progress.readChapters(userId, c.seriesId()).contains(c.id())) {
      page = pages;
      at = null;
    } else {
      return new JsonObject();
    }
    String progressText = KosyncPosition.progress(page);
    boolean pushed = push.isPresent() && push.get().progress().equals(progressText)
        && (at == null || !push.get().at().isBefore(at));
    return answer(document, KosyncPosition.percentage(page, pages), progressText,
        pushed ? push.get().device() : OWN_DEVICE, pushed ? push.get().deviceId() : OWN_DEVICE_ID,
        pushed ? push.get().at() : at);
  }

  private static JsonObject answer(String document, double percentage, String progress, String device,
      String deviceId, Instant at) {
    JsonObject answer = new JsonObject().put("percentage", percentage).put("progress", progress).put("device", device)
        .put("device_id", deviceId);
    if (at != null) {
      answer.put("timestamp", at.getEpochSecond());
    }
    return answer.put("document", document);
  }

  /**
   * Where a chapter's last push is kept: under the chapter, not the document id it came with, so that a push by
   * file name and a pull by partial MD5 (two devices set up differently) agree; no client document id holds a ':'.
   */
  private static String chapterKey(LibraryFiles.Chapter chapter) {
    return "chapter:" + chapter.seriesId() + "/" + chapter.id();
  }

  /** The reference server's rule (a non-empty string without ':'), with a length limit and no control characters. */
  static boolean validDocument(String document) {
    return document != null && !document.isEmpty() && document.length() <= MAX_DOCUMENT && !document.contains(":")
        && document.chars().noneMatch(Character::isISOControl);
  }
}
