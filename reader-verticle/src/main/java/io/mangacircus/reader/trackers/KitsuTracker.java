package io.mangacircus.reader.trackers;

import io.mangacircus.reader.TrackerConfig;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Kitsu's JSON:API ({@code /api/edge}) with its OAuth2 password grant, as Mihon's Kitsu tracker used it before its
 * GraphQL port: manga search, slugs to ids, and the user's library entries (progress and status only).
 */
public final class KitsuTracker implements TrackerClient {

  public static final String ID = "kitsu";
  /** The JSON:API's base address. */
  public static final String API_URL = "https://kitsu.app/api/edge";
  /** The OAuth2 server; {@code /token} is added. */
  public static final String AUTH_URL = "https://kitsu.app/api/oauth";
  /** Kitsu publishes no limit; one request a second is what a reader's own app sends at most. */
  public static final int REQUESTS_PER_MINUTE = 60;
  /** Where a manga's page is, by slug, for the link dialog (the public site, whatever API address is configured). */
  static final String MANGA_PAGE = "https://kitsu.app/manga/";

  private static final String JSON_API = "application/vnd.api+json";

  private final WebClient web;
  private final TrackerConfig config;
  private final String apiUrl;
  private final String tokenUrl;
  private final TrackerAnswers answers;

  public KitsuTracker(WebClient web, TrackerConfig config, InstantSource clock) {
    this.web = Objects.requireNonNull(web, "web");
    this.config = config.withDefaults(API_URL, AUTH_URL, REQUESTS_PER_MINUTE);
    this.apiUrl = stripSlash(this.config.apiUrl());
    this.tokenUrl = stripSlash(this.config.authUrl()) + "/token";
    this.answers = new TrackerAnswers(name(), clock);
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String name() {
    return "Kitsu";
  }

  @Override
  public boolean signsInWithPassword() {
    return true;
  }

  @Override
  public String authorizeUrl(String state, String codeVerifier, String redirectUri) {
    throw new UnsupportedOperationException("Kitsu signs in with a user name and password");
  }

  @Override
  public Future<TrackerTokens> exchangeCode(String code, String codeVerifier, String redirectUri) {
    throw new UnsupportedOperationException("Kitsu signs in with a user name and password");
  }

  @Override
  public Future<TrackerTokens> logIn(String username, Secret password) {
    MultiMap form = MultiMap.caseInsensitiveMultiMap().add("grant_type", "password").add("username", username)
        .add("password", password.reveal());
    return answers.json(tokenRequest(form), "sign in").compose(answer -> tokens(answer, null, "sign in"))
        .compose(tokens -> answers.json(request(HttpMethod.GET, "/users", tokens).addQueryParam("filter[self]", "true")
            .send(), "read the account").compose(users -> {
              JsonObject user = first(users);
              if (user == null || user.getValue("id") == null) {
                return Future.failedFuture(answers.notUnderstood("read the account"));
              }
              return Future.succeededFuture(tokens.withAccount(String.valueOf(user.getValue("id")),
                  attributes(user).getString("name", username)));
            }));
  }

  @Override
  public Future<TrackerTokens> refresh(TrackerTokens tokens) {
    if (tokens.refresh() == null) {
      return Future.failedFuture(answers.failure(TrackerFailure.Kind.SIGN_IN_AGAIN, "has no refresh token"));
    }
    MultiMap form = MultiMap.caseInsensitiveMultiMap().add("grant_type", "refresh_token")
        .add("refresh_token", tokens.refresh().reveal());
    Future<HttpResponse<Buffer>> sent = tokenRequest(form);
    return sent.transform(done -> {
      // OAuth2 (RFC 6749 §5.2) refuses a revoked or expired refresh token with 400 invalid_grant.
      if (done.succeeded() && (done.result().statusCode() == 400 || done.result().statusCode() == 401)) {
        return Future.failedFuture(answers.failure(TrackerFailure.Kind.SIGN_IN_AGAIN,
            "refused the token renewal (" + done.result().statusCode() + "): sign in again"));
      }
      return answers.json(sent, "renew the token").compose(answer -> tokens(answer, tokens.refresh(),
          "renew the token"));
    }).map(renewed -> renewed.withAccount(tokens.accountId(), tokens.accountName()));
  }

  private Future<TrackerTokens> tokens(JsonObject answer, Secret previousRefresh, String purpose) {
    String access = answer.getString("access_token");
    String refresh = answer.getString("refresh_token");
    Long createdAt = answer.getLong("created_at");
    Long expiresIn = answer.getLong("expires_in");
    if (access == null || access.isEmpty()) {
      return Future.failedFuture(answers.notUnderstood(purpose));
    }
    Instant expiresAt = createdAt == null || expiresIn == null ? null : Instant.ofEpochSecond(createdAt + expiresIn);
    return Future.succeededFuture(new TrackerTokens(new Secret(access),
        refresh == null || refresh.isEmpty() ? previousRefresh : new Secret(refresh), expiresAt, "", ""));
  }

  private Future<HttpResponse<Buffer>> tokenRequest(MultiMap form) {
    form.add("client_id", config.clientId()).add("client_secret", config.clientSecret());
    return web.requestAbs(HttpMethod.POST, tokenUrl).putHeader("Accept", "application/json")
        .connectTimeout(TrackerAnswers.TIMEOUT_MS).idleTimeout(TrackerAnswers.TIMEOUT_MS).sendForm(form);
  }

  /** MangaDex's {@code kt} link is a Kitsu id or a manga's slug. */
  @Override
  public Future<String> remoteId(TrackerTokens tokens, String sourceLinkId) {
    String value = sourceLinkId == null ? "" : sourceLinkId.trim();
    if (value.matches("[0-9]+")) {
      return Future.succeededFuture(value);
    }
    if (value.isEmpty()) {
      return Future.failedFuture(answers.failure(TrackerFailure.Kind.REFUSED, "no Kitsu id or slug given"));
    }
    return answers.json(request(HttpMethod.GET, "/manga", null).addQueryParam("filter[slug]", value).send(),
        "find a manga by slug").compose(answer -> {
          JsonObject manga = first(answer);
          return manga == null || manga.getValue("id") == null
              ? Future.failedFuture(answers.failure(TrackerFailure.Kind.REFUSED, "has no manga with the slug '"
                  + value + "'"))
              : Future.succeededFuture(String.valueOf(manga.getValue("id")));
        });
  }

  @Override
  public Future<List<TrackerCandidate>> search(TrackerTokens tokens, String query) {
    return answers.json(request(HttpMethod.GET, "/manga", null).addQueryParam("filter[text]", query)
        .addQueryParam("page[limit]", "20").send(), "search").map(answer -> {
          List<TrackerCandidate> found = new ArrayList<>();
          JsonArray data = answer.getJsonArray("data", new JsonArray());
          for (int i = 0; i < data.size(); i++) {
            JsonObject manga = data.getJsonObject(i);
            if (manga != null && manga.getValue("id") != null) {
              found.add(candidate(manga));
            }
          }
          return found;
        });
  }

  private static TrackerCandidate candidate(JsonObject manga) {
    JsonObject attributes = attributes(manga);
    String title = attributes.getString("canonicalTitle", "");
    Set<String> alternatives = new LinkedHashSet<>();
    JsonObject titles = attributes.getJsonObject("titles", new JsonObject());
    for (String language : titles.fieldNames()) {
      Object alternative = titles.getValue(language);
      if (alternative instanceof String text && !text.isBlank() && !text.equals(title)) {
        alternatives.add(text);
      }
    }
    JsonObject poster = attributes.getJsonObject("posterImage");
    String slug = attributes.getString("slug");
    return new TrackerCandidate(String.valueOf(manga.getValue("id")), title, List.copyOf(alternatives),
        attributes.getString("subtype"), year(attributes.getString("startDate")), attributes.getInteger("chapterCount"),
        poster == null ? "" : poster.getString("small"), slug == null ? "" : MANGA_PAGE + slug);
  }

  @Override
  public Future<RemoteEntry> entry(TrackerTokens tokens, String remoteId) {
    return answers.json(request(HttpMethod.GET, "/library-entries", tokens).addQueryParam("filter[manga_id]", remoteId)
        .addQueryParam("filter[user_id]", tokens.accountId()).addQueryParam("include", "manga").send(),
        "read the library entry").compose(answer -> {
          JsonObject entry = first(answer);
          if (entry == null) {
            return Future.succeededFuture(new RemoteEntry(remoteId, null, false, TrackerEntry.notListed(null), ""));
          }
          JsonObject attributes = attributes(entry);
          TrackerStatus status = status(attributes.getString("status"), attributes.getBoolean("reconsuming", false));
          if (entry.getValue("id") == null || status == null) {
            return Future.failedFuture(answers.notUnderstood("read the library entry"));
          }
          JsonObject manga = included(answer, remoteId);
          Integer total = manga == null ? null : attributes(manga).getInteger("chapterCount");
          String title = manga == null ? "" : attributes(manga).getString("canonicalTitle", "");
          return Future.succeededFuture(new RemoteEntry(remoteId, String.valueOf(entry.getValue("id")), true,
              new TrackerEntry(Math.max(0, attributes.getInteger("progress", 0)), status, total), title));
        });
  }

  @Override
  public Future<Void> save(TrackerTokens tokens, RemoteEntry current, int progress, TrackerStatus status) {
    JsonObject attributes = new JsonObject().put("status", apiStatus(status)).put("progress", progress);
    if (status == TrackerStatus.REREADING) {
      attributes.put("reconsuming", true);
    }
    JsonObject data = new JsonObject().put("type", "libraryEntries");
    HttpRequest<Buffer> request;
    if (current.listed() && current.listEntryId() != null) {
      data.put("id", current.listEntryId()).put("attributes", attributes);
      request = request(HttpMethod.PATCH, "/library-entries/" + current.listEntryId(), tokens);
    } else {
      data.put("attributes", attributes).put("relationships", new JsonObject()
          .put("user", relation("users", tokens.accountId()))
          .put("media", relation("manga", current.remoteId())));
      request = request(HttpMethod.POST, "/library-entries", tokens);
    }
    return answers.checked(request.putHeader("Content-Type", JSON_API)
        .sendBuffer(new JsonObject().put("data", data).toBuffer()),
        current.listed() ? "update the library entry" : "add the manga to the library").mapEmpty();
  }

  private static JsonObject relation(String type, String id) {
    return new JsonObject().put("data", new JsonObject().put("type", type).put("id", id));
  }

  /** Kitsu's library status names (JSON:API {@code libraryEntries.status}); re-reading is current + reconsuming. */
  static String apiStatus(TrackerStatus status) {
    return switch (status) {
      case READING, REREADING -> "current";
      case COMPLETED -> "completed";
      case ON_HOLD -> "on_hold";
      case DROPPED -> "dropped";
      case PLAN_TO_READ -> "planned";
    };
  }

  /** Null for a status Kitsu does not document. */
  static TrackerStatus status(String apiStatus, boolean reconsuming) {
    if (apiStatus == null) {
      return null;
    }
    return switch (apiStatus) {
      case "current" -> reconsuming ? TrackerStatus.REREADING : TrackerStatus.READING;
      case "completed" -> TrackerStatus.COMPLETED;
      case "on_hold" -> TrackerStatus.ON_HOLD;
      case "dropped" -> TrackerStatus.DROPPED;
      case "planned" -> TrackerStatus.PLAN_TO_READ;
      default -> null;
    };
  }

  private HttpRequest<Buffer> request(HttpMethod method, String path, TrackerTokens tokens) {
    HttpRequest<Buffer> request = web.requestAbs(method, apiUrl + path).putHeader("Accept", JSON_API)
        .connectTimeout(TrackerAnswers.TIMEOUT_MS).idleTimeout(TrackerAnswers.TIMEOUT_MS);
    if (tokens != null) {
      request.putHeader("Authorization", "Bearer " + tokens.access().reveal());
    }
    return request;
  }

  private static JsonObject first(JsonObject answer) {
    Object data = answer.getValue("data");
    return data instanceof JsonArray list && !list.isEmpty() && list.getValue(0) instanceof JsonObject first
        ? first : null;
  }

  private static JsonObject included(JsonObject answer, String mangaId) {
    Object included = answer.getValue("included");
    if (included instanceof JsonArray list) {
      for (int i = 0; i < list.size(); i++) {
        if (list.getValue(i) instanceof JsonObject resource && "manga".equals(resource.getString("type"))
            && mangaId.equals(String.valueOf(resource.getValue("id")))) {
          return resource;
        }
      }
    }
    return null;
  }

  private static JsonObject attributes(JsonObject resource) {
    Object attributes = resource.getValue("attributes");
    return attributes instanceof JsonObject object ? object : new JsonObject();
  }

  private static Integer year(String date) {
    return date != null && date.matches("\\d{4}.*") ? Integer.valueOf(date.substring(0, 4)) : null;
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
