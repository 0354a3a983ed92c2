package io.mangacircus.reader.trackers;

import io.mangacircus.reader.TrackerConfig;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * AniList's GraphQL API (docs.anilist.co): sign-in by the OAuth authorization code grant, manga search, the viewer's
 * list entry of a series, and saving its progress and status with {@code SaveMediaListEntry}, nothing else.
 */
public final class AniListTracker implements TrackerClient {

  /** The GraphQL endpoint (docs.anilist.co/guide/graphql). */
  public static final String API_URL = "https://graphql.anilist.co";
  /** The OAuth base: {@code /authorize} and {@code /token} (docs.anilist.co/guide/auth/authorization-code). */
  public static final String AUTH_URL = "https://anilist.co/api/v2/oauth";
  /**
   * docs.anilist.co/guide/rate-limiting: "The API is currently in a degraded state and is limited to 30 requests per
   * minute" (90 a minute nominally); the lower figure until the docs say otherwise.
   */
  public static final int REQUESTS_PER_MINUTE = 30;
  /** docs.anilist.co/guide/auth: "They will remain valid for 1 year from the time they are issued." */
  static final Duration TOKEN_LIFE = Duration.ofDays(365);

  static final String VIEWER = "query { Viewer { id name } }";
  static final String SEARCH = "query ($search: String) { Page(perPage: 20) { media(search: $search, type: MANGA, "
      + "format_not_in: [NOVEL]) { id title { romaji english native userPreferred } synonyms format chapters "
      + "startDate { year } coverImage { large } siteUrl } } }";
  static final String ENTRY = "query ($id: Int) { Media(id: $id, type: MANGA) { id title { userPreferred } chapters "
      + "mediaListEntry { id status progress } } }";
  // Only the series, progress and status: scores, dates, notes and privacy stay as the user set them on AniList.
  static final String SAVE = "mutation ($mediaId: Int, $progress: Int, $status: MediaListStatus) { "
      + "SaveMediaListEntry(mediaId: $mediaId, progress: $progress, status: $status) { id status progress } }";

  private final WebClient web;
  private final TrackerConfig config;
  private final InstantSource clock;
  private final TrackerAnswers answers;

  public AniListTracker(WebClient web, TrackerConfig config, InstantSource clock) {
    this.web = web;
    this.config = config.withDefaults(API_URL, AUTH_URL, REQUESTS_PER_MINUTE);
    this.clock = clock;
    this.answers = new TrackerAnswers(id(), clock);
  }

  @Override
  public String id() {
    return "anilist";
  }

  @Override
  public String name() {
    return "AniList";
  }

  @Override
  public boolean signsInWithPassword() {
    return false;
  }

  @Override
  public String authorizeUrl(String state, String codeVerifier, String redirectUri) {
    // The docs do not mention state, but AniList hands back what it is given and the callback checks it.
    return config.authUrl() + "/authorize?client_id=" + encode(config.clientId()) + "&redirect_uri="
        + encode(redirectUri) + "&response_type=code&state=" + encode(state);
  }

  @Override
  public Future<TrackerTokens> exchangeCode(String code, String codeVerifier, String redirectUri) {
    JsonObject form = new JsonObject().put("grant_type", "authorization_code").put("client_id", config.clientId())
        .put("client_secret", config.clientSecret()).put("redirect_uri", redirectUri).put("code", code);
    String purpose = "exchange the sign-in code";
    Future<HttpResponse<Buffer>> sent = web.postAbs(config.authUrl() + "/token").idleTimeout(TrackerAnswers.TIMEOUT_MS)
        .putHeader("Accept", "application/json").sendJsonObject(form);
    return answers.json(sent, purpose).compose(body -> {
      String token = body.getValue("access_token") instanceof String text ? text : "";
      if (token.isEmpty()) {
        return Future.failedFuture(answers.notUnderstood(purpose));
      }
      long seconds = body.getValue("expires_in") instanceof Number number && number.longValue() > 0
          ? number.longValue() : TOKEN_LIFE.toSeconds();
      TrackerTokens tokens = new TrackerTokens(new Secret(token), null, clock.instant().plusSeconds(seconds), "", "");
      return account(tokens);
    });
  }

  private Future<TrackerTokens> account(TrackerTokens tokens) {
    String purpose = "read the signed-in account";
    return graphql(tokens, VIEWER, new JsonObject(), purpose, false).compose(data -> {
      JsonObject viewer = data.getJsonObject("Viewer");
      if (viewer == null || viewer.getValue("id") == null) {
        return Future.failedFuture(answers.notUnderstood(purpose));
      }
      return Future.succeededFuture(tokens.withAccount(String.valueOf(viewer.getValue("id")),
          viewer.getString("name", "")));
    });
  }

  @Override
  public Future<TrackerTokens> logIn(String username, Secret password) {
    return Future.failedFuture(answers.failure(TrackerFailure.Kind.REFUSED,
        "AniList signs in through the browser, not with a password"));
  }

  @Override
  public Future<TrackerTokens> refresh(TrackerTokens tokens) {
    return Future.failedFuture(answers.failure(TrackerFailure.Kind.SIGN_IN_AGAIN,
        "AniList has no renewal: sign in again"));
  }

  @Override
  public Future<List<TrackerCandidate>> search(TrackerTokens tokens, String query) {
    return graphql(tokens, SEARCH, new JsonObject().put("search", query), "search for a series", false)
        .map(data -> {
          JsonObject page = data.getJsonObject("Page");
          JsonArray media = page == null ? null : page.getJsonArray("media");
          List<TrackerCandidate> found = new ArrayList<>();
          if (media != null) {
            for (Object item : media) {
              if (item instanceof JsonObject series && series.getValue("id") != null) {
                found.add(candidate(series));
              }
            }
          }
          return found;
        });
  }

  private static TrackerCandidate candidate(JsonObject series) {
    JsonObject title = series.getJsonObject("title", new JsonObject());
    String shown = firstOf(title.getString("userPreferred"), title.getString("romaji"), title.getString("english"),
        title.getString("native"));
    Set<String> others = new LinkedHashSet<>();
    for (String name : new String[] {title.getString("romaji"), title.getString("english"), title.getString("native")}) {
      addTitle(others, name);
    }
    for (Object synonym : series.getJsonArray("synonyms", new JsonArray())) {
      addTitle(others, synonym instanceof String text ? text : null);
    }
    others.remove(shown);
    JsonObject start = series.getJsonObject("startDate", new JsonObject());
    JsonObject cover = series.getJsonObject("coverImage", new JsonObject());
    return new TrackerCandidate(String.valueOf(series.getValue("id")), shown, List.copyOf(others),
        series.getString("format", ""), start.getInteger("year"), series.getInteger("chapters"),
        cover.getString("large", ""), series.getString("siteUrl", ""));
  }

  @Override
  public Future<RemoteEntry> entry(TrackerTokens tokens, String remoteId) {
    if (!remoteId.matches("[0-9]{1,10}")) {
      return Future.failedFuture(answers.failure(TrackerFailure.Kind.REFUSED, "'" + remoteId
          + "' is not an AniList series id"));
    }
    String purpose = "read the list entry of series " + remoteId;
    return graphql(tokens, ENTRY, new JsonObject().put("id", Long.parseLong(remoteId)), purpose, true)
        .compose(data -> {
          JsonObject media = data.getJsonObject("Media");
          if (media == null) {
            // Not Found: AniList has no such series, so there is nothing to list it under.
            return Future.failedFuture(answers.failure(TrackerFailure.Kind.REFUSED, "has no series " + remoteId));
          }
          Integer chapters = media.getInteger("chapters");
          String title = media.getJsonObject("title", new JsonObject()).getString("userPreferred", "");
          JsonObject listed = media.getJsonObject("mediaListEntry");
          if (listed == null) {
            return Future.succeededFuture(new RemoteEntry(remoteId, null, false, TrackerEntry.notListed(chapters),
                title));
          }
          Integer progress = listed.getInteger("progress");
          TrackerEntry entry = new TrackerEntry(progress == null ? 0 : Math.max(0, progress),
              status(listed.getString("status")), chapters);
          return Future.succeededFuture(new RemoteEntry(remoteId, String.valueOf(listed.getValue("id")), true, entry,
              title));
        });
  }

  @Override
  public Future<Void> save(TrackerTokens tokens, RemoteEntry current, int progress, TrackerStatus status) {
    if (!current.remoteId().matches("[0-9]{1,10}")) {
      return Future.failedFuture(answers.failure(TrackerFailure.Kind.REFUSED, "'" + current.remoteId()
          + "' is not an AniList series id"));
    }
    JsonObject variables = new JsonObject().put("mediaId", Long.parseLong(current.remoteId()))
        .put("progress", progress).put("status", apiStatus(status));
    return graphql(tokens, SAVE, variables, "save progress of series " + current.remoteId(), false).mapEmpty();
  }

  /** AniList's {@code MediaListStatus} for ours (Mihon's {@code AnilistUtils.toApiStatus}). */
  static String apiStatus(TrackerStatus status) {
    return switch (status) {
      case READING -> "CURRENT";
      case COMPLETED -> "COMPLETED";
      case ON_HOLD -> "PAUSED";
      case DROPPED -> "DROPPED";
      case PLAN_TO_READ -> "PLANNING";
      case REREADING -> "REPEATING";
    };
  }

  /** Ours for AniList's {@code MediaListStatus}; an unknown one reads as reading, as Mihon takes it. */
  static TrackerStatus status(String apiStatus) {
    return switch (apiStatus == null ? "" : apiStatus) {
      case "COMPLETED" -> TrackerStatus.COMPLETED;
      case "PAUSED" -> TrackerStatus.ON_HOLD;
      case "DROPPED" -> TrackerStatus.DROPPED;
      case "PLANNING" -> TrackerStatus.PLAN_TO_READ;
      case "REPEATING" -> TrackerStatus.REREADING;
      default -> TrackerStatus.READING;
    };
  }

  /**
   * One GraphQL request with the user's token; its {@code data}. GraphQL errors come in the body with a 200, 400 or
   * 404: a token problem is a sign-in again, "Not Found" an empty {@code data} when {@code notFoundIsEmpty}, any other
   * a refusal. A 401, 429 or 5xx is read as every tracker's answer is.
   */
  private Future<JsonObject> graphql(TrackerTokens tokens, String query, JsonObject variables, String purpose,
      boolean notFoundIsEmpty) {
    Future<HttpResponse<Buffer>> sent = web.postAbs(config.apiUrl()).idleTimeout(TrackerAnswers.TIMEOUT_MS)
        .putHeader("Accept", "application/json")
        .putHeader("Authorization", "Bearer " + tokens.access().reveal())
        .sendJsonObject(new JsonObject().put("query", query).put("variables", variables));
    return sent.transform(done -> {
      if (done.succeeded()) {
        HttpResponse<Buffer> response = done.result();
        int code = response.statusCode();
        JsonArray errors = code == 401 || code == 429 || code >= 500 ? null : errors(response);
        if (errors != null && !errors.isEmpty()) {
          return graphqlErrors(errors, tokens, purpose, notFoundIsEmpty);
        }
      }
      return answers.json(sent, purpose).compose(body -> {
        JsonObject data = body.getValue("data") instanceof JsonObject object ? object : null;
        return data == null ? Future.failedFuture(answers.notUnderstood(purpose)) : Future.succeededFuture(data);
      });
    });
  }

  private Future<JsonObject> graphqlErrors(JsonArray errors, TrackerTokens tokens, String purpose,
      boolean notFoundIsEmpty) {
    String token = tokens.access().reveal();
    boolean notFound = false;
    String said = "";
    for (Object item : errors) {
      JsonObject error = item instanceof JsonObject object ? object : new JsonObject();
      String message = error.getValue("message") instanceof String text ? text : "";
      Object status = error.getValue("status");
      String lower = message.toLowerCase(Locale.ROOT);
      if (Integer.valueOf(401).equals(status) || lower.contains("token") || lower.contains("unauthorized")) {
        return Future.failedFuture(answers.failure(TrackerFailure.Kind.SIGN_IN_AGAIN,
            "refused the sign-in to " + purpose));
      }
      notFound |= Integer.valueOf(404).equals(status) || lower.startsWith("not found");
      // A message is the tracker's own words, kept short and never carrying the token should it echo it.
      said = message.replace(token, "****");
      said = said.length() > 120 ? said.substring(0, 120) : said;
    }
    if (notFound && notFoundIsEmpty) {
      return Future.succeededFuture(new JsonObject());
    }
    return Future.failedFuture(answers.failure(TrackerFailure.Kind.REFUSED, "refused to " + purpose + ": " + said));
  }

  private static JsonArray errors(HttpResponse<Buffer> response) {
    try {
      JsonObject body = response.bodyAsJsonObject();
      return body != null && body.getValue("errors") instanceof JsonArray errors ? errors : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static void addTitle(Set<String> titles, String title) {
    if (title != null && !title.isBlank()) {
      titles.add(title.trim());
    }
  }

  private static String firstOf(String... values) {
    for (String value : values) {
      if (value != null && !value.isBlank()) {
        return value.trim();
      }
    }
    return "";
  }

  private static String encode(String value) {
    return URLEncoder.encode(value == null ? "" : value, StandardCharsets.UTF_8);
  }
}
