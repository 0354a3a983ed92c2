package io.mangacircus.reader.trackers;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.matching.StringValuePattern;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.mangacircus.reader.TrackerConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kitsu on a WireMock server on 127.0.0.1: the JSON:API under {@code /api/edge} (Kitsu JSON:API docs,
 * hummingbird-me.github.io/api-docs: base path, {@code application/vnd.api+json}, "Filtering" and "Pagination"; the
 * resource shapes as Mihon's pre-GraphQL Kitsu tracker read them, {@code 31d3c2371^:app/src/main/java/eu/kanade/
 * tachiyomi/data/track/kitsu/KitsuApi.kt} and {@code dto/}) and the OAuth2 token endpoint under {@code /api/oauth}
 * (RFC 6749 §4.3 password grant, §6 refresh, §5.2 errors). Every JSON:API stub wants {@code Accept:
 * application/vnd.api+json} (the docs require it); library entries and the self user need a Bearer token and answer
 * 401 without it.
 */
public final class KitsuFake implements AutoCloseable {

  public static final String CLIENT_ID = "kitsu-client-id";
  public static final String CLIENT_SECRET = "kitsu-client-secret";
  public static final String ACCESS = "kitsu-access-1d2e";
  public static final String REFRESH = "kitsu-refresh-9c8b";
  /** Kitsu's {@code created_at} for the tokens handed out (epoch seconds). */
  public static final long CREATED_AT = 1_772_359_200L;
  public static final long EXPIRES_IN = 2_592_000L;

  private static final String JSON_API = "application/vnd.api+json";
  private static final int OUTAGE = 1;
  private static final int NORMAL = 5;
  private static final int REFUSAL = 9;
  private static final String AUTHED_PATHS = "/api/edge/(users|library-entries).*";

  private final WireMockServer server = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private final List<StubMapping> outages = new ArrayList<>();
  /** Library entry ids to their manga, so updates can be told apart by series. */
  private final Map<String, String> entryManga = new HashMap<>();
  private String access = ACCESS;

  public KitsuFake() {
    server.start();
    server.stubFor(any(urlMatching(AUTHED_PATHS)).atPriority(REFUSAL).willReturn(unauthorized()));
    // RFC 6749 §5.2: a grant the server does not accept answers 400 invalid_grant.
    server.stubFor(post(urlEqualTo("/api/oauth/token")).atPriority(REFUSAL).willReturn(aResponse().withStatus(400)
        .withHeader("Content-Type", "application/json").withBody(new JsonObject().put("error", "invalid_grant")
            .put("error_description", "The provided authorization grant is invalid, expired, revoked, does not"
                + " match the redirection URI used in the authorization request, or was issued to another client.")
            .encode())));
  }

  /** The fake as a tracker configuration, with this fake's client credentials. */
  public TrackerConfig config() {
    return new TrackerConfig(true, CLIENT_ID, CLIENT_SECRET, baseUrl() + "/api/edge", baseUrl() + "/api/oauth", null);
  }

  public String baseUrl() {
    return server.baseUrl();
  }

  public WireMockServer server() {
    return server;
  }

  /** Tokens for user {@code userId} as this fake accepts them. */
  public TrackerTokens tokens(String userId, String name) {
    return new TrackerTokens(new Secret(access), new Secret(REFRESH), java.time.Instant.ofEpochSecond(CREATED_AT
        + EXPIRES_IN), userId, name);
  }

  /**
   * {@code POST /api/oauth/token} with the form {@code grant_type=password, username, password, client_id,
   * client_secret} (RFC 6749 §4.3.2; Mihon KitsuApi.login) answers {@code access_token, token_type, expires_in,
   * refresh_token, created_at} (dto/KitsuOAuth.kt); anything else 400 invalid_grant.
   */
  public KitsuFake logInAccepts(String username, String password, String accessToken) {
    this.access = accessToken;
    server.stubFor(post(urlEqualTo("/api/oauth/token")).atPriority(NORMAL)
        .withFormParam("grant_type", equalTo("password")).withFormParam("username", equalTo(username))
        .withFormParam("password", equalTo(password)).withFormParam("client_id", equalTo(CLIENT_ID))
        .withFormParam("client_secret", equalTo(CLIENT_SECRET))
        .willReturn(tokenAnswer(accessToken, REFRESH, CREATED_AT)));
    return this;
  }

  /**
   * {@code POST /api/oauth/token} with {@code grant_type=refresh_token, refresh_token, client_id, client_secret}
   * (RFC 6749 §6; Mihon KitsuApi.refreshTokenRequest) answers new tokens created at {@code createdAt}.
   */
  public KitsuFake refreshAccepts(String refreshToken, String newAccess, String newRefresh, long createdAt) {
    server.stubFor(post(urlEqualTo("/api/oauth/token")).atPriority(NORMAL)
        .withFormParam("grant_type", equalTo("refresh_token")).withFormParam("refresh_token", equalTo(refreshToken))
        .withFormParam("client_id", equalTo(CLIENT_ID)).withFormParam("client_secret", equalTo(CLIENT_SECRET))
        .willReturn(tokenAnswer(newAccess, newRefresh, createdAt)));
    return this;
  }

  /** {@code GET /api/edge/users?filter[self]=true} answers the token's user in {@code data[0]} (KitsuApi.getCurrentUser, dto/KitsuUser.kt). */
  public KitsuFake self(String userId, String name) {
    server.stubFor(get(urlPathEqualTo("/api/edge/users")).atPriority(NORMAL).withHeader("Accept", equalTo(JSON_API)).withQueryParam("filter[self]",
        equalTo("true")).withHeader("Authorization", bearer())
        .willReturn(jsonApi(new JsonObject().put("data", new JsonArray().add(new JsonObject().put("id", userId)
            .put("type", "users").put("attributes", new JsonObject().put("name", name)
                .put("ratingSystem", "simple")))))));
    return this;
  }

  /** A manga resource as the JSON:API answers it ({@code type manga}, attributes). */
  public record Manga(String id, String slug, String canonicalTitle, Map<String, String> titles, Integer chapterCount,
      String subtype, String startDate) {

    JsonObject resource() {
      JsonObject names = new JsonObject();
      titles.forEach(names::put);
      return new JsonObject().put("id", id).put("type", "manga").put("attributes", new JsonObject()
          .put("slug", slug).put("canonicalTitle", canonicalTitle).put("titles", names)
          .put("chapterCount", chapterCount).put("subtype", subtype).put("mangaType", subtype)
          .put("startDate", startDate).put("status", "finished")
          .put("posterImage", new JsonObject().put("small", "https://media.kitsu.app/manga/" + id + "/small.jpg")
              .put("original", "https://media.kitsu.app/manga/" + id + "/original.jpg")));
    }
  }

  /** {@code GET /api/edge/manga?filter[text]=query} (docs "Filtering": search by text) answers the manga given. */
  public KitsuFake searchFinds(String query, Manga... manga) {
    JsonArray data = new JsonArray();
    for (Manga one : manga) {
      data.add(one.resource());
    }
    server.stubFor(get(urlPathEqualTo("/api/edge/manga")).atPriority(NORMAL).withHeader("Accept", equalTo(JSON_API))
        .withQueryParam("filter[text]", equalTo(query))
        .willReturn(jsonApi(new JsonObject().put("data", data).put("meta", new JsonObject().put("count",
            manga.length)))));
    return this;
  }

  /** {@code GET /api/edge/manga?filter[slug]=slug} (docs "Filtering") answers that manga, or none. */
  public KitsuFake slug(String slug, Manga manga) {
    server.stubFor(get(urlPathEqualTo("/api/edge/manga")).atPriority(NORMAL).withHeader("Accept", equalTo(JSON_API)).withQueryParam("filter[slug]",
        equalTo(slug)).willReturn(jsonApi(new JsonObject().put("data", manga == null ? new JsonArray()
            : new JsonArray().add(manga.resource())))));
    return this;
  }

  /**
   * {@code GET /api/edge/library-entries?filter[manga_id]=&filter[user_id]=&include=manga} answers the entry in
   * {@code data[0]} and the manga in {@code included} (KitsuApi.findLibManga, dto/KitsuListSearch.kt).
   */
  public KitsuFake libraryEntry(String entryId, String userId, Manga manga, int progress, String status,
      boolean reconsuming) {
    entryManga.put(entryId, manga.id());
    JsonObject entry = new JsonObject().put("id", entryId).put("type", "libraryEntries").put("attributes",
        new JsonObject().put("status", status).put("progress", progress).put("reconsuming", reconsuming)
            .put("private", false).putNull("ratingTwenty").putNull("startedAt").putNull("finishedAt"));
    server.stubFor(libraryQuery(manga.id(), userId).willReturn(jsonApi(new JsonObject()
        .put("data", new JsonArray().add(entry)).put("included", new JsonArray().add(manga.resource())))));
    return this;
  }

  /** The same query with empty {@code data}: the manga is not in the user's library. */
  public KitsuFake notListed(String mangaId, String userId) {
    server.stubFor(libraryQuery(mangaId, userId).willReturn(jsonApi(new JsonObject().put("data", new JsonArray())
        .put("meta", new JsonObject().put("count", 0)))));
    return this;
  }

  /**
   * {@code POST /api/edge/library-entries} answers 201 with the new entry, {@code PATCH /api/edge/library-entries/{id}}
   * 200 (KitsuApi.addLibManga / updateLibManga; JSON:API bodies with {@code data.type libraryEntries}).
   */
  public KitsuFake acceptsSaves() {
    server.stubFor(post(urlEqualTo("/api/edge/library-entries")).atPriority(NORMAL).withHeader("Accept", equalTo(JSON_API)).withHeader("Authorization",
        bearer()).withHeader("Content-Type", equalTo(JSON_API))
        .withRequestBody(matchingJsonPath("$.data[?(@.type == 'libraryEntries')]"))
        .willReturn(jsonApi(new JsonObject().put("data", new JsonObject().put("id", "90001")
            .put("type", "libraryEntries"))).withStatus(201)));
    server.stubFor(patch(urlPathMatching("/api/edge/library-entries/[0-9]+")).atPriority(NORMAL).withHeader("Accept", equalTo(JSON_API))
        .withHeader("Authorization", bearer()).withHeader("Content-Type", equalTo(JSON_API))
        .withRequestBody(matchingJsonPath("$.data[?(@.type == 'libraryEntries')]"))
        .willReturn(jsonApi(new JsonObject().put("data", new JsonObject().put("type", "libraryEntries")))));
    return this;
  }

  /** Every request answers 429 with {@code Retry-After}. */
  public KitsuFake rateLimited(int seconds) {
    outage(aResponse().withStatus(429).withHeader("Retry-After", String.valueOf(seconds)));
    return this;
  }

  /** Every request answers 503: Kitsu is down. */
  public KitsuFake down() {
    outage(aResponse().withStatus(503).withBody("Service Unavailable"));
    return this;
  }

  /** The access token no longer counts: calls that need it answer 401, and the refresh token is refused (400). */
  public KitsuFake revoked() {
    outages.add(server.stubFor(any(urlMatching(AUTHED_PATHS)).atPriority(OUTAGE).willReturn(unauthorized())));
    outages.add(server.stubFor(post(urlEqualTo("/api/oauth/token")).atPriority(OUTAGE).withFormParam("grant_type",
        equalTo("refresh_token")).willReturn(aResponse().withStatus(400).withHeader("Content-Type",
            "application/json").withBody(new JsonObject().put("error", "invalid_grant").encode()))));
    return this;
  }

  /** Ends {@link #rateLimited}, {@link #down} and {@link #revoked}. */
  public KitsuFake recovered() {
    outages.forEach(server::removeStub);
    outages.clear();
    return this;
  }

  /** The progress values saved for a manga (creations and updates), oldest first, read from the request bodies. */
  public List<Integer> savedProgress(String mangaId) {
    List<Integer> progress = new ArrayList<>();
    for (JsonObject data : savedData()) {
      JsonObject relationships = data.getJsonObject("relationships");
      String manga = relationships != null
          ? relationships.getJsonObject("media").getJsonObject("data").getString("id")
          : entryManga.get(data.getString("id"));
      if (mangaId.equals(manga)) {
        progress.add(data.getJsonObject("attributes").getInteger("progress"));
      }
    }
    return progress;
  }

  /** The {@code data} of every library entry creation and update received, oldest first, tagged with {@code "method"}. */
  public List<JsonObject> savedData() {
    List<JsonObject> saved = new ArrayList<>();
    for (LoggedRequest request : requests()) {
      String method = request.getMethod().getName();
      if (request.getUrl().startsWith("/api/edge/library-entries") && ("POST".equals(method)
          || "PATCH".equals(method))) {
        saved.add(new JsonObject(request.getBodyAsString()).getJsonObject("data").copy().put("method", method));
      }
    }
    return saved;
  }

  /** Every request received, oldest first. */
  public List<LoggedRequest> requests() {
    return server.findAll(anyRequestedFor(anyUrl()));
  }

  public int requestCount() {
    return requests().size();
  }

  @Override
  public void close() {
    server.stop();
  }

  private com.github.tomakehurst.wiremock.client.MappingBuilder libraryQuery(String mangaId, String userId) {
    return get(urlPathEqualTo("/api/edge/library-entries")).atPriority(NORMAL).withHeader("Accept", equalTo(JSON_API))
        .withQueryParam("filter[manga_id]", equalTo(mangaId)).withQueryParam("filter[user_id]", equalTo(userId))
        .withHeader("Authorization", bearer());
  }

  private void outage(ResponseDefinitionBuilder answer) {
    outages.add(server.stubFor(any(anyUrl()).atPriority(OUTAGE).willReturn(answer)));
  }

  private StringValuePattern bearer() {
    return equalTo("Bearer " + access);
  }

  private static ResponseDefinitionBuilder tokenAnswer(String accessToken, String refreshToken, long createdAt) {
    return aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(new JsonObject()
        .put("access_token", accessToken).put("token_type", "bearer").put("expires_in", EXPIRES_IN)
        .put("refresh_token", refreshToken).put("scope", "public").put("created_at", createdAt).encode());
  }

  private static ResponseDefinitionBuilder unauthorized() {
    // JSON:API error objects (jsonapi.org "Error Objects"), as the edge API answers a missing or refused token.
    return jsonApi(new JsonObject().put("errors", new JsonArray().add(new JsonObject().put("title",
        "Invalid token").put("status", "401")))).withStatus(401);
  }

  private static ResponseDefinitionBuilder jsonApi(JsonObject body) {
    return aResponse().withStatus(200).withHeader("Content-Type", JSON_API).withBody(body.encode());
  }
}
