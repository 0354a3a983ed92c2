package io.mangacircus.reader.trackers;

import io.mangacircus.reader.TrackerConfig;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
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
import java.util.Set;

/**
 * MyAnimeList's API v2 (myanimelist.net/apiconfig/references/api/v2): sign-in by OAuth2 with a plain PKCE challenge,
 * token renewal, manga search, the user's list status of a series, and saving its status and chapters read, nothing
 * else.
 */
public final class MyAnimeListTracker implements TrackerClient {

  /** The API base (v2 reference, "Versioning"). */
  public static final String API_URL = "https://api.myanimelist.net/v2";
  /** The OAuth base: {@code /authorize} and {@code /token} (myanimelist.net/apiconfig/references/authorization). */
  public static final String AUTH_URL = "https://myanimelist.net/v1/oauth2";
  /** MyAnimeList publishes no number; one a second stays well clear of its "DoS detected" refusals. */
  public static final int REQUESTS_PER_MINUTE = 60;
  /** Authorization reference: "Access Token lifetime: One hour." */
  static final Duration TOKEN_LIFE = Duration.ofHours(1);
  /**
   * The v2 reference lists {@code 403 Forbidden} as "DoS detected etc.": the answer to a client sending too much, with
   * no {@code Retry-After}, so it is taken as a rate limit with a pause long enough for the detection to calm down.
   */
  static final Duration DOS_PAUSE = Duration.ofMinutes(5);
  static final String SEARCH_FIELDS = "id,title,alternative_titles,num_chapters,media_type,start_date,main_picture";
  // Mihon (MyAnimeListApi.search): "MAL API throws a 400 when the query is over 64 characters".
  private static final int LONGEST_QUERY = 64;

  private final WebClient web;
  private final TrackerConfig config;
  private final InstantSource clock;
  private final TrackerAnswers answers;

  public MyAnimeListTracker(WebClient web, TrackerConfig config, InstantSource clock) {
    this.web = web;
    this.config = config.withDefaults(API_URL, AUTH_URL, REQUESTS_PER_MINUTE);
    this.clock = clock;
    this.answers = new TrackerAnswers(id(), clock);
  }

  @Override
  public String id() {
    return "myanimelist";
  }

  @Override
  public String name() {
    return "MyAnimeList";
  }

  @Override
  public boolean signsInWithPassword() {
    return false;
  }

  @Override
  public String authorizeUrl(String state, String codeVerifier, String redirectUri) {
    // "Currently, only the plain method is supported": the challenge is the verifier itself.
    return config.authUrl() + "/authorize?response_type=code&client_id=" + encode(config.clientId()) + "&state="
        + encode(state) + "&redirect_uri=" + encode(redirectUri) + "&code_challenge=" + encode(codeVerifier)
        + "&code_challenge_method=plain";
  }

  @Override
  public Future<TrackerTokens> exchangeCode(String code, String codeVerifier, String redirectUri) {
    MultiMap form = clientForm().add("grant_type", "authorization_code").add("code", code)
        .add("redirect_uri", redirectUri).add("code_verifier", codeVerifier);
    return tokens(form, "exchange the sign-in code").compose(this::account);
  }

  @Override
  public Future<TrackerTokens> logIn(String username, Secret password) {
    return Future.failedFuture(answers.failure(TrackerFailure.Kind.REFUSED,
        "MyAnimeList signs in through the browser, not with a password"));
  }

  @Override
  public Future<TrackerTokens> refresh(TrackerTokens tokens) {
    if (tokens.refresh() == null) {
      return Future.failedFuture(answers.failure(TrackerFailure.Kind.SIGN_IN_AGAIN,
          "no renewal token kept: sign in again"));
    }
    MultiMap form = clientForm().add("grant_type", "refresh_token").add("refresh_token", tokens.refresh().reveal());
    return tokens(form, "renew the sign-in")
        .recover(e -> {
          // An expired or revoked renewal token is refused with a 400 (OAuth 2.0, RFC 6749 5.2 invalid_grant) or,
          // as Mihon meets it, a 401: either way only a new sign-in helps.
          if (e instanceof TrackerFailure failure && failure.kind() == TrackerFailure.Kind.REFUSED) {
            return Future.failedFuture(answers.failure(TrackerFailure.Kind.SIGN_IN_AGAIN,
                "refused to renew the sign-in: sign in again"));
          }
          return Future.failedFuture(e);
        })
        .map(renewed -> renewed.withAccount(tokens.accountId(), tokens.accountName()));
  }

  private MultiMap clientForm() {
    MultiMap form = MultiMap.caseInsensitiveMultiMap().add("client_id", config.clientId());
    if (!config.clientSecret().isEmpty()) {
      form.add("client_secret", config.clientSecret());
    }
    return form;
  }

  private Future<TrackerTokens> tokens(MultiMap form, String purpose) {
    Future<HttpResponse<Buffer>> sent = web.postAbs(config.authUrl() + "/token")
        .idleTimeout(TrackerAnswers.TIMEOUT_MS).putHeader("Accept", "application/json").sendForm(form);
    return json(sent, purpose).compose(body -> {
      String access = body.getValue("access_token") instanceof String text ? text : "";
      if (access.isEmpty()) {
        return Future.failedFuture(answers.notUnderstood(purpose));
      }
      String refresh = body.getValue("refresh_token") instanceof String text && !text.isEmpty() ? text : null;
      long seconds = body.getValue("expires_in") instanceof Number number && number.longValue() > 0
          ? number.longValue() : TOKEN_LIFE.toSeconds();
      return Future.succeededFuture(new TrackerTokens(new Secret(access), refresh == null ? null : new Secret(refresh),
          clock.instant().plusSeconds(seconds), "", ""));
    });
  }

  private Future<TrackerTokens> account(TrackerTokens tokens) {
    String purpose = "read the signed-in account";
    return json(get(tokens, config.apiUrl() + "/users/@me").send(), purpose).compose(user -> {
      if (user.getValue("id") == null) {
        return Future.failedFuture(answers.notUnderstood(purpose));
      }
      return Future.succeededFuture(tokens.withAccount(String.valueOf(user.getValue("id")), user.getString("name",
          "")));
    });
  }

  @Override
  public Future<List<TrackerCandidate>> search(TrackerTokens tokens, String query) {
    String q = query.strip();
    q = q.length() > LONGEST_QUERY ? q.substring(0, LONGEST_QUERY) : q;
    Future<HttpResponse<Buffer>> sent = get(tokens, config.apiUrl() + "/manga").addQueryParam("q", q)
        .addQueryParam("limit", "20").addQueryParam("nsfw", "true").addQueryParam("fields", SEARCH_FIELDS).send();
    return json(sent, "search for a series").map(body -> {
      List<TrackerCandidate> found = new ArrayList<>();
      for (Object item : body.getJsonArray("data", new JsonArray())) {
        JsonObject node = item instanceof JsonObject wrapper ? wrapper.getJsonObject("node") : null;
        // Novels share MyAnimeList's manga catalogue (light_novel, novel); a reader of chapters has none to track.
        if (node != null && node.getValue("id") != null && !node.getString("media_type", "").contains("novel")) {
          found.add(candidate(node));
        }
      }
      return found;
    });
  }

  private static TrackerCandidate candidate(JsonObject node) {
    String title = node.getString("title", "");
    JsonObject alternatives = node.getJsonObject("alternative_titles", new JsonObject());
    Set<String> others = new LinkedHashSet<>();
    addTitle(others, alternatives.getString("en"));
    addTitle(others, alternatives.getString("ja"));
    for (Object synonym : alternatives.getJsonArray("synonyms", new JsonArray())) {
      addTitle(others, synonym instanceof String text ? text : null);
    }
    others.remove(title);
    String start = node.getString("start_date", "");
    Integer year = start.matches("[0-9]{4}.*") ? Integer.valueOf(start.substring(0, 4)) : null;
    JsonObject picture = node.getJsonObject("main_picture", new JsonObject());
    String id = String.valueOf(node.getValue("id"));
    return new TrackerCandidate(id, title, List.copyOf(others), node.getString("media_type", ""), year,
        known(node.getInteger("num_chapters")), picture.getString("large", picture.getString("medium", "")),
        "https://myanimelist.net/manga/" + id);
  }

  @Override
  public Future<RemoteEntry> entry(TrackerTokens tokens, String remoteId) {
    if (!remoteId.matches("[0-9]{1,10}")) {
      return Future.failedFuture(answers.failure(TrackerFailure.Kind.REFUSED, "'" + remoteId
          + "' is not a MyAnimeList manga id"));
    }
    Future<HttpResponse<Buffer>> sent = get(tokens, config.apiUrl() + "/manga/" + remoteId)
        .addQueryParam("fields", "num_chapters,title,my_list_status").send();
    return json(sent, "read the list status of manga " + remoteId).map(manga -> {
      Integer chapters = manga.getInteger("num_chapters");
      String title = manga.getString("title", "");
      JsonObject listed = manga.getJsonObject("my_list_status");
      if (listed == null) {
        return new RemoteEntry(remoteId, null, false, TrackerEntry.notListed(chapters), title);
      }
      Integer read = listed.getInteger("num_chapters_read");
      TrackerEntry entry = new TrackerEntry(read == null ? 0 : Math.max(0, read),
          status(listed.getString("status"), listed.getBoolean("is_rereading", false)), chapters);
      // MyAnimeList addresses a list entry by its manga's id.
      return new RemoteEntry(remoteId, remoteId, true, entry, title);
    });
  }

  @Override
  public Future<Void> save(TrackerTokens tokens, RemoteEntry current, int progress, TrackerStatus status) {
    String remoteId = current.remoteId();
    if (!remoteId.matches("[0-9]{1,10}")) {
      return Future.failedFuture(answers.failure(TrackerFailure.Kind.REFUSED, "'" + remoteId
          + "' is not a MyAnimeList manga id"));
    }
    // Status and chapters read only; MyAnimeList's rereading is a flag beside "reading", so it travels with the
    // status when we set it or leave it, and never otherwise.
    MultiMap form = MultiMap.caseInsensitiveMultiMap().add("status", apiStatus(status))
        .add("num_chapters_read", Integer.toString(progress));
    if (status == TrackerStatus.REREADING) {
      form.add("is_rereading", "true");
    } else if (current.listed() && current.entry().status() == TrackerStatus.REREADING) {
      form.add("is_rereading", "false");
    }
    String purpose = "save progress of manga " + remoteId;
    Future<HttpResponse<Buffer>> sent = web.requestAbs(HttpMethod.PATCH, config.apiUrl() + "/manga/" + remoteId
        + "/my_list_status").idleTimeout(TrackerAnswers.TIMEOUT_MS).putHeader("Accept", "application/json")
        .putHeader("Authorization", "Bearer " + tokens.access().reveal()).sendForm(form);
    return sent.transform(done -> {
      if (done.succeeded() && done.result().statusCode() == 400 && "invalid_content".equals(errorOf(done.result()))) {
        // Mihon (MyAnimeListApi.updateItem): a title not yet approved on MyAnimeList cannot be listed; no retry helps.
        return Future.failedFuture(answers.failure(TrackerFailure.Kind.REFUSED,
            "does not accept manga " + remoteId + " on lists yet (title not approved)"));
      }
      return checked(sent, purpose).mapEmpty();
    });
  }

  /** MyAnimeList's list status for ours (Mihon's {@code MyAnimeListUtils}); rereading is "reading" plus a flag. */
  static String apiStatus(TrackerStatus status) {
    return switch (status) {
      case READING, REREADING -> "reading";
      case COMPLETED -> "completed";
      case ON_HOLD -> "on_hold";
      case DROPPED -> "dropped";
      case PLAN_TO_READ -> "plan_to_read";
    };
  }

  /** Ours for MyAnimeList's list status; an unknown one reads as reading, as Mihon takes it. */
  static TrackerStatus status(String apiStatus, boolean rereading) {
    if (rereading) {
      return TrackerStatus.REREADING;
    }
    return switch (apiStatus == null ? "" : apiStatus) {
      case "completed" -> TrackerStatus.COMPLETED;
      case "on_hold" -> TrackerStatus.ON_HOLD;
      case "dropped" -> TrackerStatus.DROPPED;
      case "plan_to_read" -> TrackerStatus.PLAN_TO_READ;
      default -> TrackerStatus.READING;
    };
  }

  private io.vertx.ext.web.client.HttpRequest<Buffer> get(TrackerTokens tokens, String url) {
    return web.getAbs(url).idleTimeout(TrackerAnswers.TIMEOUT_MS).putHeader("Accept", "application/json")
        .putHeader("Authorization", "Bearer " + tokens.access().reveal());
  }

  /** The answer as every tracker's is read, but a 403 ("DoS detected") as a five-minute pause. */
  private Future<HttpResponse<Buffer>> checked(Future<HttpResponse<Buffer>> sent, String purpose) {
    return sent.transform(done -> {
      if (done.succeeded() && done.result().statusCode() == 403) {
        return Future.failedFuture(new TrackerFailure(id(), TrackerFailure.Kind.RATE_LIMITED,
            "refused as too many requests (403) to " + purpose, DOS_PAUSE));
      }
      return answers.checked(sent, purpose);
    });
  }

  private Future<JsonObject> json(Future<HttpResponse<Buffer>> sent, String purpose) {
    // Checked here first, then read: the shared reader would take a failure handed to it for no answer at all.
    return checked(sent, purpose).compose(response -> answers.json(Future.succeededFuture(response), purpose));
  }

  private static String errorOf(HttpResponse<Buffer> response) {
    try {
      JsonObject body = response.bodyAsJsonObject();
      return body == null ? null : body.getString("error");
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** MyAnimeList's count, absent for a series still running (it answers 0 there). */
  private static Integer known(Integer chapters) {
    return chapters == null || chapters <= 0 ? null : chapters;
  }

  private static void addTitle(Set<String> titles, String title) {
    if (title != null && !title.isBlank()) {
      titles.add(title.trim());
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value == null ? "" : value, StandardCharsets.UTF_8);
  }
}
