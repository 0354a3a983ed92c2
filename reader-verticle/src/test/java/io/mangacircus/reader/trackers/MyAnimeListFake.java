package io.mangacircus.reader.trackers;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.not;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import io.mangacircus.reader.TrackerConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * MyAnimeList on a WireMock server (127.0.0.1, a free port) answering only the requests its docs describe: the OAuth2
 * token endpoint (code with a PKCE verifier, and renewal) and API v2 with a Bearer token: {@code users/@me}, manga
 * search, a manga's {@code my_list_status} and {@code PATCH my_list_status}. Anything else gets MyAnimeList's error.
 */
public final class MyAnimeListFake implements AutoCloseable {

  public static final String CLIENT_ID = "0123456789abcdef0123456789abcdef";
  public static final String CLIENT_SECRET = "mal-client-secret";
  static final String API = "/v2";
  static final String OAUTH = "/v1/oauth2";
  // Authorization reference, step 1: a verifier is 43 to 128 of the unreserved characters.
  private static final String VERIFIER = "[A-Za-z0-9._~-]{43,128}";
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

  private int expiresIn = 3600;

  public MyAnimeListFake() {
    server.start();
    refusals();
    accept("mal-token");
  }

  /** The tracker config pointing at this fake, with its client id and secret (a "web" app). */
  public TrackerConfig config() {
    return new TrackerConfig(true, CLIENT_ID, CLIENT_SECRET, apiUrl(), authUrl(), null);
  }

  public String apiUrl() {
    return server.baseUrl() + API;
  }

  public String authUrl() {
    return server.baseUrl() + OAUTH;
  }

  /** The access token the fake accepts now. */
  public String token() {
    return token;
  }

  /** Tokens issued from the next sign-in or renewal stubbed on last {@code seconds} (the docs' hour unless set). */
  public MyAnimeListFake tokensLast(int seconds) {
    this.expiresIn = seconds;
    return this;
  }

  /**
   * The token endpoint accepts {@code code} with a verifier and answers {@code token} (renewal {@code token +
   * "-refresh"}), which the API then accepts. myanimelist.net/apiconfig/references/authorization, "Access Token
   * Request" (POST {@code /v1/oauth2/token}, form {@code client_id, client_secret, grant_type=authorization_code, code,
   * redirect_uri, code_verifier}); "Access Token lifetime: One hour".
   */
  public MyAnimeListFake signInAccepts(String code, String token) {
    accept(token);
    server.stubFor(tokenRequest("authorization_code").withFormParam("code", equalTo(code))
        .withFormParam("redirect_uri", matching("https?://.+")).withFormParam("code_verifier", matching(VERIFIER))
        .willReturn(tokens(token, token + "-refresh")));
    return this;
  }

  /**
   * The token endpoint renews {@code refreshToken} into {@code token} (renewal {@code token + "-refresh"}), which the
   * API then accepts. Authorization reference, "Refresh Token" (form {@code grant_type=refresh_token,
   * refresh_token}, the client's credentials); "Refresh Token lifetime: One month".
   */
  public MyAnimeListFake refreshAccepts(String refreshToken, String token) {
    accept(token);
    server.stubFor(tokenRequest("refresh_token").withFormParam("refresh_token", equalTo(refreshToken))
        .willReturn(tokens(token, token + "-refresh")));
    return this;
  }

  /** Every renewal refused with a 401, as Mihon meets an expired renewal ({@code MyAnimeListInterceptor}). */
  public MyAnimeListFake refreshRefused() {
    server.stubFor(post(urlEqualTo(OAUTH + "/token")).atPriority(DOCUMENTED - 1)
        .withFormParam("grant_type", equalTo("refresh_token"))
        .willReturn(json(401, error("invalid_token", "token is invalid"))));
    return this;
  }

  /** {@code GET /v2/users/@me} (v2 reference, "user" → "Get my user information") names this account. */
  public MyAnimeListFake viewer(long id, String name) {
    server.stubFor(api(get(urlPathEqualTo(API + "/users/@me"))).willReturn(json(200, new JsonObject().put("id", id)
        .put("name", name).put("location", "").put("joined_at", "2020-01-01T00:00:00+00:00"))));
    return this;
  }

  /**
   * Manga search ({@code GET /v2/manga?q=}, v2 reference "manga" → "Get manga list") finds this series too; MyAnimeList
   * answers novels as well, so {@code mediaType} may be {@code light_novel}.
   */
  public MyAnimeListFake searchFinds(long id, String title, String english, String mediaType, Integer chapters,
      String startDate) {
    searchResults.add(new JsonObject().put("node", new JsonObject().put("id", id).put("title", title)
        .put("main_picture", new JsonObject().put("medium", "https://cdn.myanimelist.net/images/manga/" + id + "m.jpg")
            .put("large", "https://cdn.myanimelist.net/images/manga/" + id + "l.jpg"))
        .put("alternative_titles", new JsonObject().put("synonyms", new JsonArray().add(title + " (synonym)"))
            .put("en", english).put("ja", ""))
        .put("num_chapters", chapters).put("media_type", mediaType).put("start_date", startDate)));
    if (searchStub != null) {
      server.removeStub(searchStub);
    }
    searchStub = server.stubFor(api(get(urlPathEqualTo(API + "/manga"))).withQueryParam("q", matching(".{3,64}"))
        .willReturn(json(200, new JsonObject().put("data", searchResults.copy()).put("paging", new JsonObject()))));
    return this;
  }

  /**
   * {@code GET /v2/manga/{id}?fields=...my_list_status} (v2 reference "manga" → "Get manga details"): the user's list
   * status with {@code status} a MyAnimeList one such as {@code reading}.
   */
  public MyAnimeListFake listEntry(long mangaId, int progress, String status, Integer chapters) {
    return manga(mangaId, chapters, listStatus(status, progress));
  }

  /** The manga is not on the user's list: the details have no {@code my_list_status}. */
  public MyAnimeListFake notListed(long mangaId, Integer chapters) {
    return manga(mangaId, chapters, null);
  }

  private MyAnimeListFake manga(long mangaId, Integer chapters, JsonObject listStatus) {
    JsonObject manga = new JsonObject().put("id", mangaId).put("title", "Manga " + mangaId)
        .put("num_chapters", chapters == null ? 0 : chapters);
    if (listStatus != null) {
      manga.put("my_list_status", listStatus);
    }
    server.stubFor(api(get(urlPathEqualTo(API + "/manga/" + mangaId)))
        .withQueryParam("fields", containing("my_list_status")).willReturn(json(200, manga)));
    return this;
  }

  /**
   * {@code PATCH /v2/manga/{id}/my_list_status}, form-urlencoded (v2 reference "user mangalist" → "Update my manga list
   * status"), answered with the list status as saved.
   */
  public MyAnimeListFake acceptsSaves() {
    server.stubFor(api(patch(urlPathMatching(API + "/manga/[0-9]+/my_list_status")))
        .withHeader("Content-Type", containing("application/x-www-form-urlencoded"))
        .willReturn(json(200, listStatus("reading", 0))));
    return this;
  }

  /** Saving {@code mangaId} refused as Mihon meets a title not yet approved: 400 {@code invalid_content}. */
  public MyAnimeListFake titleNotApproved(long mangaId) {
    server.stubFor(api(patch(urlPathEqualTo(API + "/manga/" + mangaId + "/my_list_status"))).atPriority(DOCUMENTED - 1)
        .willReturn(json(400, error("invalid_content", "Invalid content"))));
    return this;
  }

  /** Every request answered 429 with {@code Retry-After} until {@link #back()} (not in MyAnimeList's docs). */
  public MyAnimeListFake rateLimited(int seconds) {
    return override(aResponse().withStatus(429).withHeader("Retry-After", Integer.toString(seconds)));
  }

  /** Every request answered 403 until {@link #back()}: v2 reference, "Common status codes": "DoS detected etc.". */
  public MyAnimeListFake dosDetected() {
    return override(json(403, error("forbidden", "DoS detected")));
  }

  /** Every request answered 503 until {@link #back()}: MyAnimeList down. */
  public MyAnimeListFake down() {
    return override(aResponse().withStatus(503).withBody("Service Unavailable"));
  }

  /** Every API request answered 401 {@code invalid_token} until {@link #back()} (v2 reference, "Common formats"). */
  public MyAnimeListFake revoked() {
    overrides.add(server.stubFor(any(urlPathMatching(API + "/.*")).atPriority(OVERRIDE)
        .willReturn(json(401, error("invalid_token", "token is invalid")))));
    return this;
  }

  /** Undoes {@link #rateLimited}, {@link #dosDetected}, {@link #down} and {@link #revoked}. */
  public MyAnimeListFake back() {
    overrides.forEach(server::removeStub);
    overrides.clear();
    return this;
  }

  private MyAnimeListFake override(ResponseDefinitionBuilder answer) {
    overrides.add(server.stubFor(any(anyUrl()).atPriority(OVERRIDE).willReturn(answer)));
    return this;
  }

  /** The chapters read of each save of {@code mangaId} MyAnimeList accepted, oldest first. */
  public List<Integer> savedProgress(long mangaId) {
    List<Integer> progress = new ArrayList<>();
    String path = API + "/manga/" + mangaId + "/my_list_status";
    for (ServeEvent event : events()) {
      if (event.getResponse().getStatus() == 200 && path.equals(event.getRequest().getUrl())) {
        progress.add(Integer.valueOf(form(event).get("num_chapters_read")));
      }
    }
    return progress;
  }

  /** The form of every save MyAnimeList accepted, oldest first. */
  public List<Map<String, String>> savedForms() {
    List<Map<String, String>> forms = new ArrayList<>();
    for (ServeEvent event : events()) {
      if (event.getResponse().getStatus() == 200 && event.getRequest().getUrl().endsWith("/my_list_status")) {
        forms.add(form(event));
      }
    }
    return forms;
  }

  /** The form of the last request to the token endpoint. */
  public Map<String, String> lastTokenRequest() {
    Map<String, String> last = null;
    for (ServeEvent event : events()) {
      if (event.getRequest().getUrl().equals(OAUTH + "/token")) {
        last = form(event);
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
    Collections.reverse(events);
    return events;
  }

  @Override
  public void close() {
    server.stop();
  }

  private static Map<String, String> form(ServeEvent event) {
    Map<String, String> form = new LinkedHashMap<>();
    String body = event.getRequest().getBodyAsString();
    for (String pair : body.isEmpty() ? new String[0] : body.split("&")) {
      int equals = pair.indexOf('=');
      form.put(URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8),
          equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
    }
    return form;
  }

  /** A token request with the client's credentials (a "web" app has a secret), form-urlencoded. */
  private MappingBuilder tokenRequest(String grantType) {
    return post(urlEqualTo(OAUTH + "/token")).atPriority(DOCUMENTED)
        .withHeader("Content-Type", containing("application/x-www-form-urlencoded"))
        .withFormParam("grant_type", equalTo(grantType)).withFormParam("client_id", equalTo(CLIENT_ID))
        .withFormParam("client_secret", equalTo(CLIENT_SECRET));
  }

  /** A documented API request: a Bearer token (one other than the accepted one is refused before this). */
  private MappingBuilder api(MappingBuilder request) {
    return request.atPriority(DOCUMENTED).withHeader("Authorization", matching("Bearer .+"));
  }

  private void refusals() {
    server.stubFor(any(urlPathMatching(API + "/.*")).atPriority(TOKEN_CHECK)
        .withHeader("Authorization", com.github.tomakehurst.wiremock.client.WireMock.absent())
        .willReturn(json(401, error("invalid_token", "token is invalid"))));
    // Authorization reference, "Access Token Response" errors follow OAuth 2.0 (RFC 6749 5.2): invalid_grant.
    server.stubFor(post(urlEqualTo(OAUTH + "/token")).atPriority(UNKNOWN).willReturn(json(400, error(
        "invalid_grant", "The provided authorization grant or refresh token is invalid"))));
    // v2 reference, "Common status codes": 400 invalid parameters, 404 not found.
    server.stubFor(any(urlPathMatching(API + "/.*")).atPriority(UNKNOWN).willReturn(json(400, error("bad_request",
        "invalid parameters"))));
    server.stubFor(any(anyUrl()).atPriority(UNKNOWN + 1).willReturn(json(404, error("not_found", ""))));
  }

  /** Makes {@code token} the one accepted: no or another token is v2's 401 {@code invalid_token}. */
  private void accept(String token) {
    this.token = token;
    if (wrongToken != null) {
      server.removeStub(wrongToken);
    }
    wrongToken = server.stubFor(any(urlPathMatching(API + "/.*")).atPriority(TOKEN_CHECK)
        .withHeader("Authorization", not(equalTo("Bearer " + token)))
        .willReturn(json(401, error("invalid_token", "token is invalid"))));
  }

  private static JsonObject listStatus(String status, int progress) {
    return new JsonObject().put("status", status).put("is_rereading", false).put("num_volumes_read", 0)
        .put("num_chapters_read", progress).put("score", 0).put("updated_at", "2026-03-01T10:00:00+00:00");
  }

  private static JsonObject error(String error, String message) {
    return new JsonObject().put("error", error).put("message", message);
  }

  private ResponseDefinitionBuilder tokens(String access, String refresh) {
    return json(200, new JsonObject().put("token_type", "Bearer").put("expires_in", expiresIn)
        .put("access_token", access).put("refresh_token", refresh));
  }

  private static ResponseDefinitionBuilder json(int status, JsonObject body) {
    return aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body.encode());
  }
}
