package io.mangacircus.reader.trackers;

import io.mangacircus.reader.TrackerConfig;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jsoup.parser.Parser;

/**
 * MangaUpdates' REST API v1 as Mihon's MangaUpdates tracker uses it: a session token from a user name and password,
 * series search, and the user's reading lists, where the list a series is on is its status.
 */
public final class MangaUpdatesTracker implements TrackerClient {

  public static final String ID = "mangaupdates";
  /** The public API; paths start with {@code /v1}. */
  public static final String API_URL = "https://api.mangaupdates.com";
  /** MangaUpdates signs in through its API ({@code PUT /v1/account/login}): no separate OAuth server. */
  public static final String AUTH_URL = API_URL;
  /** MangaUpdates publishes no limit; one request every two seconds stays well clear of abuse protection. */
  public static final int REQUESTS_PER_MINUTE = 30;

  /** MangaUpdates' list ids, which are the entry's status (Mihon's {@code MangaUpdates} list constants). */
  static final int READING_LIST = 0;
  static final int WISH_LIST = 1;
  static final int COMPLETE_LIST = 2;
  static final int UNFINISHED_LIST = 3;
  static final int ON_HOLD_LIST = 4;

  private final WebClient web;
  private final String apiUrl;
  private final TrackerAnswers answers;

  public MangaUpdatesTracker(WebClient web, TrackerConfig config, InstantSource clock) {
    this.web = Objects.requireNonNull(web, "web");
    this.apiUrl = stripSlash(config.withDefaults(API_URL, AUTH_URL, REQUESTS_PER_MINUTE).apiUrl());
    this.answers = new TrackerAnswers(name(), clock);
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String name() {
    return "MangaUpdates";
  }

  @Override
  public boolean signsInWithPassword() {
    return true;
  }

  @Override
  public String authorizeUrl(String state, String codeVerifier, String redirectUri) {
    throw new UnsupportedOperationException("MangaUpdates signs in with a user name and password");
  }

  @Override
  public Future<TrackerTokens> exchangeCode(String code, String codeVerifier, String redirectUri) {
    throw new UnsupportedOperationException("MangaUpdates signs in with a user name and password");
  }

  @Override
  public Future<TrackerTokens> logIn(String username, Secret password) {
    JsonObject body = new JsonObject().put("username", username).put("password", password.reveal());
    return answers.json(request(HttpMethod.PUT, "/v1/account/login", null).sendJsonObject(body), "sign in")
        .compose(answer -> {
          JsonObject context = answer.getJsonObject("context");
          Object uid = context == null ? null : context.getValue("uid");
          String token = context == null ? null : context.getString("session_token");
          if (token == null || token.isEmpty() || uid == null) {
            return Future.failedFuture(answers.notUnderstood("sign in"));
          }
          TrackerTokens tokens = new TrackerTokens(new Secret(token), null, null, String.valueOf(uid), "");
          return answers.json(request(HttpMethod.GET, "/v1/account/profile", tokens).send(), "read the account")
              .map(profile -> tokens.withAccount(tokens.accountId(), profile.getString("username", username)));
        });
  }

  /** MangaUpdates has no renewal, and the password that would sign in again is never kept. */
  @Override
  public Future<TrackerTokens> refresh(TrackerTokens tokens) {
    return Future.failedFuture(answers.failure(TrackerFailure.Kind.SIGN_IN_AGAIN,
        "has no token renewal: sign in again"));
  }

  /**
   * MangaDex's {@code mu} link: the current base-36 id (it has letters) is the API's {@code series_id} written in base
   * 36; an all-digit value is a legacy id from before MangaUpdates' new site, which the API documents no way to
   * translate, so such a series is linked by search instead.
   */
  @Override
  public Future<String> remoteId(TrackerTokens tokens, String sourceLinkId) {
    String value = sourceLinkId == null ? "" : sourceLinkId.trim();
    if (value.matches("[0-9]+")) {
      return Future.failedFuture(answers.failure(TrackerFailure.Kind.REFUSED,
          "legacy MangaUpdates id " + value + ": link it by search"));
    }
    if (!value.matches("[0-9A-Za-z]{1,12}")) {
      return Future.failedFuture(answers.failure(TrackerFailure.Kind.REFUSED, "not a MangaUpdates id: '" + value
          + "'"));
    }
    return Future.succeededFuture(Long.toString(Long.parseLong(value, 36)));
  }

  @Override
  public Future<List<TrackerCandidate>> search(TrackerTokens tokens, String query) {
    // Mihon leaves out the types MangaUpdates lists that are not read as pages.
    JsonObject body = new JsonObject().put("search", query).put("filter_types", new JsonArray().add("drama cd")
        .add("novel"));
    return answers.json(request(HttpMethod.POST, "/v1/series/search", null).sendJsonObject(body), "search")
        .map(answer -> {
          List<TrackerCandidate> found = new ArrayList<>();
          JsonArray results = answer.getJsonArray("results", new JsonArray());
          for (int i = 0; i < results.size(); i++) {
            JsonObject record = results.getJsonObject(i).getJsonObject("record");
            if (record != null && record.getValue("series_id") != null) {
              found.add(candidate(record));
            }
          }
          return found;
        });
  }

  private static TrackerCandidate candidate(JsonObject record) {
    JsonObject image = record.getJsonObject("image");
    JsonObject imageUrl = image == null ? null : image.getJsonObject("url");
    // latest_chapter is the newest release, not a total: an ongoing series would read as finished at it.
    return new TrackerCandidate(String.valueOf(record.getValue("series_id")), decoded(record.getString("title")),
        List.of(), record.getString("type"), year(record.getValue("year")), null,
        imageUrl == null ? "" : imageUrl.getString("original"), record.getString("url"));
  }

  @Override
  public Future<RemoteEntry> entry(TrackerTokens tokens, String remoteId) {
    Long seriesId = seriesId(remoteId);
    if (seriesId == null) {
      return Future.failedFuture(notASeries(remoteId));
    }
    Future<HttpResponse<Buffer>> sent = request(HttpMethod.GET, "/v1/lists/series/" + seriesId, tokens).send();
    return sent.transform(done -> {
      if (done.succeeded() && done.result().statusCode() == 404) {
        // Not on any of the user's lists.
        return Future.succeededFuture(new RemoteEntry(remoteId, null, false, TrackerEntry.notListed(null), ""));
      }
      return answers.json(sent, "read the list entry").map(item -> listed(remoteId, item));
    });
  }

  private static RemoteEntry listed(String remoteId, JsonObject item) {
    TrackerStatus status = status(item.getInteger("list_id", READING_LIST));
    JsonObject progress = item.getJsonObject("status");
    Integer chapter = progress == null ? null : progress.getInteger("chapter");
    JsonObject series = item.getJsonObject("series");
    String title = series == null ? "" : decoded(series.getString("title"));
    return new RemoteEntry(remoteId, remoteId, true,
        new TrackerEntry(chapter == null ? 0 : Math.max(0, chapter), status, null), title);
  }

  @Override
  public Future<Void> save(TrackerTokens tokens, RemoteEntry current, int progress, TrackerStatus status) {
    Long seriesId = seriesId(current.remoteId());
    if (seriesId == null) {
      return Future.failedFuture(notASeries(current.remoteId()));
    }
    JsonArray body = new JsonArray().add(new JsonObject()
        .put("series", new JsonObject().put("id", seriesId))
        .put("list_id", listId(status))
        .put("status", new JsonObject().put("chapter", progress)));
    String path = current.listed() ? "/v1/lists/series/update" : "/v1/lists/series";
    return answers.checked(request(HttpMethod.POST, path, tokens).putHeader("Content-Type", "application/json")
        .sendBuffer(body.toBuffer()), current.listed() ? "update the list entry" : "add the series to a list")
        .mapEmpty();
  }

  /** The list that holds a status; MangaUpdates has no re-reading list, so that is reading. */
  static int listId(TrackerStatus status) {
    return switch (status) {
      case READING, REREADING -> READING_LIST;
      case PLAN_TO_READ -> WISH_LIST;
      case COMPLETED -> COMPLETE_LIST;
      case DROPPED -> UNFINISHED_LIST;
      case ON_HOLD -> ON_HOLD_LIST;
    };
  }

  /** A list's status; the user's own custom lists count as reading, as Mihon reads them. */
  static TrackerStatus status(int listId) {
    return switch (listId) {
      case WISH_LIST -> TrackerStatus.PLAN_TO_READ;
      case COMPLETE_LIST -> TrackerStatus.COMPLETED;
      case UNFINISHED_LIST -> TrackerStatus.DROPPED;
      case ON_HOLD_LIST -> TrackerStatus.ON_HOLD;
      default -> TrackerStatus.READING;
    };
  }

  private static Long seriesId(String remoteId) {
    try {
      return Long.valueOf(remoteId);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private TrackerFailure notASeries(String remoteId) {
    return answers.failure(TrackerFailure.Kind.REFUSED, "not a MangaUpdates series id: '" + remoteId + "'");
  }

  private HttpRequest<Buffer> request(HttpMethod method, String path, TrackerTokens tokens) {
    HttpRequest<Buffer> request = web.requestAbs(method, apiUrl + path).putHeader("Accept", "application/json")
        .connectTimeout(TrackerAnswers.TIMEOUT_MS).idleTimeout(TrackerAnswers.TIMEOUT_MS);
    if (tokens != null) {
      request.putHeader("Authorization", "Bearer " + tokens.access().reveal());
    }
    return request;
  }

  private static String decoded(String html) {
    return html == null ? "" : Parser.unescapeEntities(html, false);
  }

  private static Integer year(Object value) {
    if (value == null) {
      return null;
    }
    try {
      return Integer.valueOf(value.toString().trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
