package io.mangacircus.reader.trackers;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.mangacircus.reader.TrackerConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * MangaUpdates' API v1 on a WireMock server on 127.0.0.1, answering in the shapes Mihon's MangaUpdates tracker reads
 * ({@code app/src/main/java/eu/kanade/tachiyomi/data/track/mangaupdates/MangaUpdatesApi.kt} and its {@code dto/}
 * classes): MangaUpdates' own API docs (api.mangaupdates.com) were not reachable, so Mihon is the reference for every
 * stub here. The list calls want {@code Authorization: Bearer <session token>} and answer 401 without it.
 */
public final class MangaUpdatesFake implements AutoCloseable {

  /** The session token the fake hands out and accepts unless a test names another. */
  public static final String TOKEN = "mu-session-7f3a";

  private static final int OUTAGE = 1;
  private static final int NORMAL = 5;
  private static final int REFUSAL = 9;
  private static final String AUTHED_PATHS = "/v1/(account/profile|lists/.*)";

  private final WireMockServer server = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private final List<StubMapping> outages = new ArrayList<>();
  private String token = TOKEN;

  public MangaUpdatesFake() {
    server.start();
    // Mihon's interceptor (MangaUpdatesInterceptor.kt) sends the session token on these; without it there is no user.
    server.stubFor(any(urlMatching(AUTHED_PATHS)).atPriority(REFUSAL).willReturn(unauthorized()));
  }

  /** The fake as a tracker configuration (API address only: MangaUpdates needs no client id). */
  public TrackerConfig config() {
    return new TrackerConfig(true, null, null, baseUrl(), baseUrl(), null);
  }

  public String baseUrl() {
    return server.baseUrl();
  }

  public WireMockServer server() {
    return server;
  }

  /** The tokens a sign-in against this fake yields for user id {@code uid}. */
  public TrackerTokens tokens(long uid, String name) {
    return new TrackerTokens(new Secret(token), null, null, String.valueOf(uid), name);
  }

  /**
   * {@code PUT /v1/account/login} with {@code {"username","password"}} answers {@code {"context":{"session_token",
   * "uid"}}} (MangaUpdatesApi.authenticate, dto/MULoginResponse.kt, dto/MUContext.kt); other credentials get 401.
   */
  public MangaUpdatesFake logInAccepts(String username, String password, String sessionToken, long uid) {
    this.token = sessionToken;
    server.stubFor(put(urlEqualTo("/v1/account/login")).atPriority(NORMAL)
        .withRequestBody(equalToJson(new JsonObject().put("username", username).put("password", password).encode()))
        .willReturn(json(new JsonObject().put("status", "success").put("reason", "Successfully logged in.")
            .put("context", new JsonObject().put("session_token", sessionToken).put("uid", uid)))));
    server.stubFor(put(urlEqualTo("/v1/account/login")).atPriority(REFUSAL).willReturn(unauthorized()));
    return this;
  }

  /** {@code GET /v1/account/profile} answers the signed-in user's {@code username} (MangaUpdatesApi.getCurrentUser). */
  public MangaUpdatesFake profile(long uid, String username) {
    server.stubFor(get(urlEqualTo("/v1/account/profile")).atPriority(NORMAL).withHeader("Authorization", bearer())
        .willReturn(json(new JsonObject().put("user_id", uid).put("username", username))));
    return this;
  }

  /** A series record as {@code POST /v1/series/search} answers it (dto/MURecord.kt); the title as MangaUpdates sends it, HTML entities and all. */
  public record Series(long id, String htmlTitle, String year, String type) {

    JsonObject record() {
      return new JsonObject().put("series_id", id).put("title", htmlTitle)
          .put("url", "https://www.mangaupdates.com/series/" + Long.toString(id, 36)).put("type", type)
          .put("year", year).put("latest_chapter", 120)
          .put("image", new JsonObject().put("url", new JsonObject()
              .put("original", "https://cdn.mangaupdates.com/image/i" + id + ".jpg")
              .put("thumb", "https://cdn.mangaupdates.com/image/thumb/i" + id + ".jpg")));
    }
  }

  /**
   * {@code POST /v1/series/search} with {@code {"search": query}} answers {@code {"results":[{"record":...,
   * "hit_title":...}]}} (MangaUpdatesApi.search, dto/MUSearch.kt); no session needed.
   */
  public MangaUpdatesFake searchFinds(String query, Series... series) {
    JsonArray results = new JsonArray();
    for (Series one : series) {
      results.add(new JsonObject().put("record", one.record()).put("hit_title", one.htmlTitle()));
    }
    server.stubFor(post(urlEqualTo("/v1/series/search")).atPriority(NORMAL)
        .withRequestBody(matchingJsonPath("$.search", equalTo(query)))
        .willReturn(json(new JsonObject().put("total_hits", series.length).put("page", 1).put("per_page", 25)
            .put("results", results))));
    return this;
  }

  /**
   * {@code GET /v1/lists/series/{id}} answers the entry {@code {series:{id,title}, list_id, status:{volume,chapter},
   * priority}} (MangaUpdatesApi.getSeriesListItem, dto/MUListItem.kt).
   */
  public MangaUpdatesFake listEntry(long seriesId, int chapter, int listId) {
    server.stubFor(get(urlEqualTo("/v1/lists/series/" + seriesId)).atPriority(NORMAL)
        .withHeader("Authorization", bearer())
        .willReturn(json(new JsonObject().put("series", new JsonObject().put("id", seriesId).put("title", "Series "
            + seriesId)).put("list_id", listId).put("status", new JsonObject().put("volume", 1).put("chapter",
                chapter)).put("priority", 0))));
    return this;
  }

  /** {@code GET /v1/lists/series/{id}} answers 404: the series is on none of the user's lists (MangaUpdates.bind). */
  public MangaUpdatesFake notListed(long seriesId) {
    server.stubFor(get(urlEqualTo("/v1/lists/series/" + seriesId)).atPriority(NORMAL)
        .withHeader("Authorization", bearer())
        .willReturn(json(404, new JsonObject().put("status", "exception").put("reason",
            "You do not have this series in your lists."))));
    return this;
  }

  /**
   * {@code POST /v1/lists/series} (add) and {@code POST /v1/lists/series/update} take a JSON array of
   * {@code {"series":{"id"},"list_id","status":{"chapter"}}} and answer 200 (MangaUpdatesApi.addSeriesToList,
   * updateSeriesListItem: Mihon counts only 200 as done).
   */
  public MangaUpdatesFake acceptsSaves() {
    for (String path : List.of("/v1/lists/series", "/v1/lists/series/update")) {
      server.stubFor(post(urlEqualTo(path)).atPriority(NORMAL).withHeader("Authorization", bearer())
          .withRequestBody(matchingJsonPath("$[0].series.id"))
          .willReturn(json(new JsonObject().put("status", "success").put("reason", "Series updated"))));
    }
    return this;
  }

  /** Every request answers 429 with {@code Retry-After} (HTTP's pause; MangaUpdates documents none of its own). */
  public MangaUpdatesFake rateLimited(int seconds) {
    outage(aResponse().withStatus(429).withHeader("Retry-After", String.valueOf(seconds)));
    return this;
  }

  /** Every request answers 503: MangaUpdates is down. */
  public MangaUpdatesFake down() {
    outage(aResponse().withStatus(503).withBody("Service Unavailable"));
    return this;
  }

  /** The session token no longer counts: every call that needs it answers 401. */
  public MangaUpdatesFake revoked() {
    outages.add(server.stubFor(any(urlMatching(AUTHED_PATHS)).atPriority(OUTAGE).willReturn(unauthorized())));
    return this;
  }

  /** Ends {@link #rateLimited}, {@link #down} and {@link #revoked}: the stubs set before answer again. */
  public MangaUpdatesFake recovered() {
    outages.forEach(server::removeStub);
    outages.clear();
    return this;
  }

  /** The chapters saved for a series (adds and updates), oldest first, as read from the request bodies. */
  public List<Integer> savedProgress(long seriesId) {
    List<Integer> chapters = new ArrayList<>();
    for (JsonObject item : savedItems()) {
      if (item.getJsonObject("series").getLong("id") == seriesId) {
        chapters.add(item.getJsonObject("status").getInteger("chapter"));
      }
    }
    return chapters;
  }

  /** Every list item sent to the add and update calls, oldest first, each tagged with {@code "path"}. */
  public List<JsonObject> savedItems() {
    List<JsonObject> items = new ArrayList<>();
    for (LoggedRequest request : requests()) {
      if ("POST".equals(request.getMethod().getName()) && request.getUrl().startsWith("/v1/lists/series")) {
        JsonArray body = new JsonArray(request.getBodyAsString());
        for (int i = 0; i < body.size(); i++) {
          items.add(body.getJsonObject(i).copy().put("path", request.getUrl()));
        }
      }
    }
    return items;
  }

  /** Every request received, oldest first. */
  public List<LoggedRequest> requests() {
    return server.findAll(com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor(anyUrl()));
  }

  public int requestCount() {
    return requests().size();
  }

  @Override
  public void close() {
    server.stop();
  }

  private void outage(ResponseDefinitionBuilder answer) {
    outages.add(server.stubFor(any(anyUrl()).atPriority(OUTAGE).willReturn(answer)));
  }

  private com.github.tomakehurst.wiremock.matching.StringValuePattern bearer() {
    return equalTo("Bearer " + token);
  }

  private static ResponseDefinitionBuilder unauthorized() {
    return json(401, new JsonObject().put("status", "exception").put("reason", "You must be logged in."));
  }

  private static ResponseDefinitionBuilder json(JsonObject body) {
    return json(200, body);
  }

  private static ResponseDefinitionBuilder json(int status, JsonObject body) {
    return aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body.encode());
  }
}
