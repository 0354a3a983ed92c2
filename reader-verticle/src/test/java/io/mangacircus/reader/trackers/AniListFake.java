package io.mangacircus.reader.trackers;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.and;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.not;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import io.mangacircus.reader.TrackerConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * AniList on a WireMock server (127.0.0.1, a free port) answering only the requests its docs describe: the OAuth
 * authorization code token exchange and the GraphQL endpoint with a Bearer token, for the Viewer, manga search, a
 * Media's {@code mediaListEntry} and {@code SaveMediaListEntry}. Anything else gets the error AniList would give.
 */
public final class AniListFake implements AutoCloseable {

  public static final String CLIENT_ID = "4242";
  public static final String CLIENT_SECRET = "anilist-client-secret";
  static final String GRAPHQL = "/graphql";
  static final String OAUTH = "/api/v2/oauth";
  // The overrides (rate limit, down, revoked) come before every documented answer, which come before the refusals.
  private static final int OVERRIDE = 1;
  private static final int TOKEN_CHECK = 2;
  private static final int DOCUMENTED = 5;
  private static final int UNKNOWN = 10;

  private final WireMockServer server = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private final List<StubMapping> overrides = new ArrayList<>();
  private final JsonArray searchResults = new JsonArray();
  private StubMapping searchStub;
  private StubMapping wrongToken;
  private String token;

  public AniListFake() {
    server.start();
    refusals();
    accept("anilist-token");
  }

  /** The tracker config pointing at this fake, with its client id and secret. */
  public TrackerConfig config() {
    return new TrackerConfig(true, CLIENT_ID, CLIENT_SECRET, apiUrl(), authUrl(), null);
  }

  public String apiUrl() {
    return server.baseUrl() + GRAPHQL;
  }

  public String authUrl() {
    return server.baseUrl() + OAUTH;
  }

  /** The access token the fake accepts now. */
  public String token() {
    return token;
  }

  /**
   * The token endpoint accepts {@code code} and answers {@code token}, which the API then accepts.
   * docs.anilist.co/guide/auth/authorization-code, "Converting Authorization Codes to Access Tokens": POST
   * {@code /api/v2/oauth/token}, JSON {@code grant_type, client_id, client_secret, redirect_uri, code}, Accept JSON;
   * the answer's {@code expires_in} of 31536000 is the year docs.anilist.co/guide/auth gives.
   */
  public AniListFake signInAccepts(String code, String token) {
    accept(token);
    server.stubFor(post(urlEqualTo(OAUTH + "/token")).atPriority(DOCUMENTED)
        .withHeader("Content-Type", containing("application/json"))
        .withHeader("Accept", containing("application/json"))
        .withRequestBody(matchingJsonPath("$.grant_type", equalTo("authorization_code")))
        .withRequestBody(matchingJsonPath("$.client_id", equalTo(CLIENT_ID)))
        .withRequestBody(matchingJsonPath("$.client_secret", equalTo(CLIENT_SECRET)))
        .withRequestBody(matchingJsonPath("$.redirect_uri", matching("https?://.+")))
        .withRequestBody(matchingJsonPath("$.code", equalTo(code)))
        .willReturn(json(200, new JsonObject().put("token_type", "Bearer").put("expires_in", 31536000)
            .put("access_token", token).put("refresh_token", "")))); // AniList sends no usable refresh token
    return this;
  }

  /** The Viewer query (docs.anilist.co/guide/auth/authenticated-requests, "Viewer") names this account. */
  public AniListFake viewer(long id, String name) {
    server.stubFor(graphql("Viewer").willReturn(json(200, data(new JsonObject().put("Viewer",
        new JsonObject().put("id", id).put("name", name))))));
    return this;
  }

  /**
   * Manga search (docs.anilist.co/guide/graphql/pagination, {@code Page { media(search:) }}) finds this series too;
   * {@code format_not_in: [NOVEL]} is applied by AniList, so only what it would answer is added here.
   */
  public AniListFake searchFinds(long mediaId, String romaji, String english, Integer chapters, Integer year) {
    searchResults.add(new JsonObject().put("id", mediaId)
        .put("title", new JsonObject().put("romaji", romaji).put("english", english).put("native", null)
            .put("userPreferred", romaji))
        .put("synonyms", new JsonArray().add(romaji + " (synonym)")).put("format", "MANGA").put("chapters", chapters)
        .put("startDate", new JsonObject().put("year", year))
        .put("coverImage", new JsonObject().put("large", "https://s4.anilist.co/file/cover/" + mediaId + ".jpg"))
        .put("siteUrl", "https://anilist.co/manga/" + mediaId));
    if (searchStub != null) {
      server.removeStub(searchStub);
    }
    searchStub = server.stubFor(graphql("media(search:").withRequestBody(matchingJsonPath("$.query",
        containing("format_not_in: [NOVEL]"))).willReturn(json(200, data(new JsonObject().put("Page",
            new JsonObject().put("media", searchResults.copy()))))));
    return this;
  }

  /**
   * The viewer's list entry of {@code mediaId} (reference: {@code Media.mediaListEntry}, "The authenticated user's
   * media list entry for the media"), status an AniList {@code MediaListStatus} such as CURRENT.
   */
  public AniListFake listEntry(long mediaId, int progress, String status, Integer chapters) {
    return media(mediaId, chapters, new JsonObject().put("id", 900_000 + mediaId).put("status", status)
        .put("progress", progress));
  }

  /** {@code mediaId} exists but is not on the viewer's list: {@code mediaListEntry} is null. */
  public AniListFake notListed(long mediaId, Integer chapters) {
    return media(mediaId, chapters, null);
  }

  /** No series {@code mediaId}: AniList's 404 with {@code errors[{message:"Not Found.", status:404}]}. */
  public AniListFake noSuchMedia(long mediaId) {
    server.stubFor(graphql("Media(id:").withRequestBody(matchingJsonPath("$.variables.id", equalTo(
        Long.toString(mediaId)))).willReturn(errors(404, "Not Found.", 404)));
    return this;
  }

  private AniListFake media(long mediaId, Integer chapters, JsonObject entry) {
    server.stubFor(graphql("Media(id:").withRequestBody(matchingJsonPath("$.variables.id", equalTo(
        Long.toString(mediaId)))).willReturn(json(200, data(new JsonObject().put("Media", new JsonObject()
            .put("id", mediaId).put("title", new JsonObject().put("userPreferred", "Series " + mediaId))
            .put("chapters", chapters).put("mediaListEntry", entry))))));
    return this;
  }

  /**
   * {@code SaveMediaListEntry(mediaId:, progress:, status:)} is accepted (reference: Mutation
   * {@code SaveMediaListEntry}, "Create or update a media list entry"), answered with the entry's id.
   */
  public AniListFake acceptsSaves() {
    server.stubFor(graphql("SaveMediaListEntry").withRequestBody(matchingJsonPath("$.variables.mediaId"))
        .willReturn(json(200, data(new JsonObject().put("SaveMediaListEntry", new JsonObject().put("id", 1)
            .put("status", "CURRENT").put("progress", 0))))));
    return this;
  }

  /**
   * Every request answered 429 with {@code Retry-After} until {@link #back()} (docs.anilist.co/guide/rate-limiting,
   * "Exceeding the Rate Limit": the headers and the {@code "Too Many Requests."} body).
   */
  public AniListFake rateLimited(int seconds) {
    return override(aResponse().withStatus(429).withHeader("Content-Type", "application/json")
        .withHeader("Retry-After", Integer.toString(seconds)).withHeader("X-RateLimit-Limit", "90")
        .withHeader("X-RateLimit-Remaining", "0").withBody(new JsonObject().putNull("data").put("errors",
            new JsonArray().add(new JsonObject().put("message", "Too Many Requests.").put("status", 429))).encode()));
  }

  /** Every request answered 503 until {@link #back()}: AniList down. */
  public AniListFake down() {
    return override(aResponse().withStatus(503).withBody("Service Unavailable"));
  }

  /** Every request answered 401 Unauthorized until {@link #back()}: the user revoked the token. */
  public AniListFake revoked() {
    return override(errors(401, "Unauthorized.", 401));
  }

  /** Undoes {@link #rateLimited}, {@link #down} and {@link #revoked}. */
  public AniListFake back() {
    overrides.forEach(server::removeStub);
    overrides.clear();
    return this;
  }

  private AniListFake override(ResponseDefinitionBuilder answer) {
    overrides.add(server.stubFor(any(anyUrl()).atPriority(OVERRIDE).willReturn(answer)));
    return this;
  }

  /** The progress of each save of {@code mediaId} AniList accepted, oldest first. */
  public List<Integer> savedProgress(long mediaId) {
    List<Integer> progress = new ArrayList<>();
    for (JsonObject variables : savedVariables()) {
      if (variables.getValue("mediaId") instanceof Number id && id.longValue() == mediaId) {
        progress.add(variables.getInteger("progress"));
      }
    }
    return progress;
  }

  /** The variables of every save AniList accepted, oldest first. */
  public List<JsonObject> savedVariables() {
    List<JsonObject> saves = new ArrayList<>();
    for (ServeEvent event : events()) {
      if (event.getResponse().getStatus() == 200 && GRAPHQL.equals(event.getRequest().getUrl())) {
        JsonObject body = new JsonObject(event.getRequest().getBodyAsString());
        if (body.getString("query", "").contains("SaveMediaListEntry")) {
          saves.add(body.getJsonObject("variables", new JsonObject()));
        }
      }
    }
    return saves;
  }

  /** The body of the last token exchange request. */
  public JsonObject lastTokenRequest() {
    JsonObject last = null;
    for (ServeEvent event : events()) {
      if (event.getRequest().getUrl().equals(OAUTH + "/token")) {
        last = new JsonObject(event.getRequest().getBodyAsString());
      }
    }
    return last;
  }

  /** How many requests reached the fake. */
  public int requestCount() {
    return server.getAllServeEvents().size();
  }

  /** Every request with its answer, oldest first. */
  public List<ServeEvent> events() {
    List<ServeEvent> events = new ArrayList<>(server.getAllServeEvents());
    java.util.Collections.reverse(events);
    return events;
  }

  @Override
  public void close() {
    server.stop();
  }

  /**
   * A documented GraphQL request: POST JSON to the endpoint with a Bearer token (one other than the accepted one is
   * refused before this), its query containing a word.
   */
  private MappingBuilder graphql(String queryHas) {
    return post(urlEqualTo(GRAPHQL)).atPriority(DOCUMENTED)
        .withHeader("Content-Type", containing("application/json"))
        .withHeader("Authorization", matching("Bearer .+"))
        .withRequestBody(matchingJsonPath("$.query", containing(queryHas)));
  }

  /** What AniList answers to what its docs do not describe. */
  private void refusals() {
    // No token where the viewer is needed: AniList's GraphQL "Unauthorized." error with a 401.
    server.stubFor(post(urlEqualTo(GRAPHQL)).atPriority(TOKEN_CHECK).withHeader("Authorization", absent())
        .withRequestBody(matchingJsonPath("$.query", matching("(?s).*(Viewer|mediaListEntry|SaveMediaListEntry).*")))
        .willReturn(errors(401, "Unauthorized.", 401)));
    // A query this fake does not know: a GraphQL validation error.
    server.stubFor(post(urlEqualTo(GRAPHQL)).atPriority(UNKNOWN)
        .willReturn(errors(400, "Validation error: this fake knows only the documented queries", 400)));
    server.stubFor(post(urlEqualTo(OAUTH + "/token")).atPriority(UNKNOWN).willReturn(json(400, new JsonObject()
        .put("error", "invalid_request").put("message", "The request is missing a required parameter"))));
    server.stubFor(any(anyUrl()).atPriority(UNKNOWN + 1).willReturn(aResponse().withStatus(404)
        .withBody("Not Found")));
  }

  /** Makes {@code token} the one accepted: any other Bearer token is AniList's "Invalid token" with a 400. */
  private void accept(String token) {
    this.token = token;
    if (wrongToken != null) {
      server.removeStub(wrongToken);
    }
    wrongToken = server.stubFor(post(urlEqualTo(GRAPHQL)).atPriority(TOKEN_CHECK + 1)
        .withHeader("Authorization", and(containing("Bearer"), not(equalTo("Bearer " + token))))
        .willReturn(errors(400, "Invalid token", 400)));
  }

  private static JsonObject data(JsonObject data) {
    return new JsonObject().put("data", data);
  }

  private static ResponseDefinitionBuilder errors(int httpStatus, String message, int status) {
    return json(httpStatus, new JsonObject().putNull("data").put("errors", new JsonArray().add(new JsonObject()
        .put("message", message).put("status", status))));
  }

  private static ResponseDefinitionBuilder json(int status, JsonObject body) {
    return aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body.encode());
  }
}
