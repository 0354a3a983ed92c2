package io.mangacircus.reader.trackers;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.reader.TrackerConfig;
import io.mangacircus.reader.TrackersConfig;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signing in to trackers through the real reader against the trackers' fakes: AniList's OAuth callback signs in only
 * the user whose signed sign-in cookie and {@code state} it brings back, once; MangaUpdates' password sign-in; no answer holds a token; each user
 * sees and changes only their own accounts and links; with no tracker enabled there is nothing to see or contact.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TrackerSignInRoutesTest {

  private static final String PUBLIC_URL = "https://manga.example.org";

  @TempDir
  static Path data;

  private final AniListFake anilist = new AniListFake();
  private final MangaUpdatesFake mangaupdates = new MangaUpdatesFake();
  private final MyAnimeListFake mal = new MyAnimeListFake();
  private ReaderUnderTest reader;
  private ReaderUnderTest.Session ayako;
  private ReaderUnderTest.Session bruno;
  private ReaderUnderTest.Session chiara;

  @BeforeAll
  void start() throws Exception {
    new LibraryFixture(data).chapter("starfall", "Starfall", 1, 2, Instant.parse("2026-01-02T03:04:05Z"));
    anilist.signInAccepts("good-code", "anilist-token-of-ayako").viewer(101, "ayako-on-anilist")
        .notListed(30013, 12).acceptsSaves();
    mangaupdates.logInAccepts("bruno-mu", "bruno's password", "mu-session-of-bruno", 77).profile(77, "bruno-on-mu");
    // MyAnimeList's access tokens last an hour; these one minute, inside the five minutes before expiry when the
    // reader renews them.
    mal.tokensLast(60).signInAccepts("chiara-code", "mal-short-lived").viewer(303, "chiara-on-mal")
        .searchFinds(2, "Moonlit", "Moonlit", "manga", 40, "2015-04-01");
    reader = ReaderUnderTest.withTrackers(data, new TrackersConfig(PUBLIC_URL, fast(anilist.config()),
        fast(mal.config()), fast(mangaupdates.config()), null));
    ReaderUnderTest.Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    reader.createReader(admin, "ayako", "ayako-password-1");
    reader.createReader(admin, "bruno", "bruno-password-1");
    reader.createReader(admin, "chiara", "chiara-password-1");
    ayako = reader.login("ayako", "ayako-password-1");
    bruno = reader.login("bruno", "bruno-password-1");
    chiara = reader.login("chiara", "chiara-password-1");
  }

  /** A tracker paced at 600 requests a minute, so that the tests wait for the reader, not for the pace. */
  static io.mangacircus.reader.TrackerConfig fast(io.mangacircus.reader.TrackerConfig tracker) {
    return new io.mangacircus.reader.TrackerConfig(tracker.enabled(), tracker.clientId(), tracker.clientSecret(),
        tracker.apiUrl(), tracker.authUrl(), 600);
  }

  @AfterAll
  void stop() throws Exception {
    reader.close();
    anilist.close();
    mangaupdates.close();
    mal.close();
  }

  private HttpResponse<String> call(ReaderUnderTest.Session session, String method, String path, String body)
      throws Exception {
    return reader.text(as(session, reader.request(method, path, body)));
  }

  private JsonObject tracker(ReaderUnderTest.Session session, String id) throws Exception {
    HttpResponse<String> list = call(session, "GET", "/api/me/trackers", null);
    assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
    return new JsonObject(list.body()).getJsonArray("trackers").stream().map(JsonObject.class::cast)
        .filter(t -> t.getString("id").equals(id)).findFirst().orElseThrow();
  }

  private static Map<String, String> query(String url) {
    return Arrays.stream(URI.create(url).getRawQuery().split("&")).map(p -> p.split("=", 2))
        .collect(Collectors.toMap(p -> p[0], p -> URLDecoder.decode(p[1], StandardCharsets.UTF_8)));
  }

  /** A started OAuth sign-in: where the browser is sent, its state, and the sign-in cookie the browser keeps. */
  record SignIn(String url, String state, String cookie) {
  }

  /** Starts a sign-in on {@code tracker} as the user. */
  static SignIn authorize(ReaderUnderTest reader, ReaderUnderTest.Session session, String tracker) throws Exception {
    HttpResponse<String> started = reader.text(as(session, reader.request("POST", "/api/me/trackers/" + tracker
        + "/authorize", "{}")));
    assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
    String url = new JsonObject(started.body()).getString("url");
    String cookie = started.headers().allValues("Set-Cookie").stream()
        .filter(c -> c.startsWith(OAuthSignIns.COOKIE + "=")).findFirst().orElseThrow().split(";", 2)[0];
    return new SignIn(url, query(url).get("state"), cookie);
  }

  /** Starts an AniList sign-in as the user. */
  private SignIn authorize(ReaderUnderTest.Session session) throws Exception {
    return authorize(reader, session, "anilist");
  }

  /**
   * The tracker's redirect back to the reader, as the browser follows it: the sign-in cookie ({@code null}: none), and
   * no session cookie (SameSite=Strict).
   */
  static HttpResponse<String> callback(ReaderUnderTest reader, String tracker, String code, String state,
      String cookie) throws Exception {
    java.net.http.HttpRequest.Builder request = reader.get("/api/trackers/" + tracker + "/callback?code=" + code
        + "&state=" + state);
    return reader.text(cookie == null ? request : request.header("Cookie", cookie));
  }

  private HttpResponse<String> callback(String code, SignIn signIn) throws Exception {
    return callback(reader, "anilist", code, signIn.state(), signIn.cookie());
  }

  /** The sign-in cookie an answer sets, with its attributes; empty when it sets none. */
  static java.util.Optional<String> signInCookie(HttpResponse<String> answer) {
    return answer.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith(OAuthSignIns.COOKIE + "="))
        .findFirst();
  }

  @Test
  void theOAuthCallbackWithItsStateSignsInTheUserWhoStartedItOnceAndNoAnswerHoldsTheToken() throws Exception {
    SignIn signIn = authorize(ayako);
    assertThat(signIn.url()).startsWith(anilist.authUrl() + "/authorize?");
    Map<String, String> asked = query(signIn.url());
    assertThat(asked).containsEntry("client_id", AniListFake.CLIENT_ID).containsEntry("response_type", "code")
        .containsEntry("redirect_uri", PUBLIC_URL + "/api/trackers/anilist/callback");
    assertThat(asked.get("state")).hasSizeGreaterThanOrEqualTo(40);
    assertThat(signIn.cookie()).doesNotContain(asked.get("state"));

    HttpResponse<String> back = callback("good-code", signIn);

    assertThat(back.statusCode()).as(back.body()).isEqualTo(303);
    assertThat(signInCookie(back)).as("the sign-in cookie is cleared").hasValueSatisfying(cleared -> assertThat(
        cleared).startsWith(OAuthSignIns.COOKIE + "=;").contains("Max-Age=0", "Path=/api/trackers/anilist/callback"));
    assertThat(back.headers().firstValue("Location")).hasValue("/profile.html?tracker=anilist&signedIn=1");
    assertThat(anilist.lastTokenRequest().getString("redirect_uri"))
        .isEqualTo(PUBLIC_URL + "/api/trackers/anilist/callback");
    JsonObject signedIn = tracker(ayako, "anilist");
    assertThat(signedIn.getBoolean("signedIn")).isTrue();
    assertThat(signedIn.getString("account")).isEqualTo("ayako-on-anilist");
    assertThat(tracker(bruno, "anilist").getBoolean("signedIn")).as("bruno started nothing").isFalse();
    for (String path : new String[] {"/api/me/trackers", "/api/me/trackers/links", "/api/series/starfall/trackers"}) {
      assertThat(call(ayako, "GET", path, null).body()).doesNotContain("anilist-token-of-ayako");
    }
    assertThat(Files.readString(data.resolve("tracker-key"), StandardCharsets.ISO_8859_1))
        .doesNotContain("anilist-token-of-ayako");

    int before = anilist.requestCount();
    HttpResponse<String> again = callback(reader, "anilist", "good-code", signIn.state(), null);
    assertThat(again.statusCode()).as("the browser dropped the cookie: a sign-in is used once").isEqualTo(400);
    assertThat(again.body()).contains("was not started here, was already used or took too long");
    assertThat(anilist.requestCount()).isEqualTo(before);
  }

  @Test
  void theSignInCookieIsHttpOnlyLaxForTheCallbackPathOnlyTenMinutesAndSecureOverHttps() throws Exception {
    HttpResponse<String> plain = call(ayako, "POST", "/api/me/trackers/anilist/authorize", "{}");
    HttpResponse<String> tls = reader.text(as(ayako, reader.request("POST", "/api/me/trackers/anilist/authorize", "{}"))
        .header("X-Forwarded-Proto", "https"));

    assertThat(attributes(signInCookie(plain).orElseThrow())).contains("path=/api/trackers/anilist/callback",
        "max-age=600", "httponly", "samesite=lax").doesNotContain("secure");
    assertThat(attributes(signInCookie(tls).orElseThrow())).contains("secure", "httponly", "samesite=lax");
  }

  /** A Set-Cookie header's attributes after its value, in lower case. */
  private static java.util.List<String> attributes(String setCookie) {
    return Arrays.stream(setCookie.split(";")).skip(1).map(a -> a.trim().toLowerCase(java.util.Locale.ROOT)).toList();
  }

  @Test
  void aSignInCookieThatCameBackWithAnotherUsersSessionIsRefused() throws Exception {
    SignIn ayakos = authorize(ayako);
    int before = anilist.requestCount();

    HttpResponse<String> back = reader.text(reader.get("/api/trackers/anilist/callback?code=good-code&state="
        + ayakos.state()).header("Cookie", ayakos.cookie() + "; " + bruno.cookie()));

    assertThat(back.statusCode()).isEqualTo(400);
    assertThat(back.body()).contains("started by another account");
    assertThat(signInCookie(back)).hasValueSatisfying(cleared -> assertThat(cleared).contains("Max-Age=0"));
    assertThat(anilist.requestCount()).as("no code was exchanged").isEqualTo(before);
    assertThat(tracker(bruno, "anilist").getBoolean("signedIn")).isFalse();

    // The same cookie with the session of the user who started it (a browser that kept it) is let through.
    HttpResponse<String> own = reader.text(reader.get("/api/trackers/anilist/callback?code=good-code&state="
        + ayakos.state()).header("Cookie", ayakos.cookie() + "; " + ayako.cookie()));
    assertThat(own.statusCode()).as(own.body()).isEqualTo(303);
    assertThat(own.headers().firstValue("Location")).hasValue("/profile.html?tracker=anilist&signedIn=1");
  }

  @Test
  void aTamperedOrGarbageSignInCookieGetsTheSameRefusalPageNotAnError() throws Exception {
    SignIn brunos = authorize(bruno);
    String value = brunos.cookie().substring(OAuthSignIns.COOKIE.length() + 1);
    String payload = value.substring(0, value.lastIndexOf('.'));
    String asAyako = new String(java.util.Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8)
        .replaceFirst("\"userId\":[0-9]+", "\"userId\":1");
    String tampered = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(asAyako
        .getBytes(StandardCharsets.UTF_8)) + value.substring(value.lastIndexOf('.'));
    int before = anilist.requestCount();

    for (String cookie : new String[] {tampered, "garbage", "%%%.!!!", "", payload}) {
      HttpResponse<String> back = callback(reader, "anilist", "good-code", brunos.state(),
          OAuthSignIns.COOKIE + "=" + cookie);
      assertThat(back.statusCode()).as(cookie).isEqualTo(400);
      assertThat(back.body()).contains("was not started here, was already used or took too long");
    }
    assertThat(anilist.requestCount()).as("no code was exchanged").isEqualTo(before);
    assertThat(tracker(bruno, "anilist").getBoolean("signedIn")).isFalse();
  }

  @Test
  void aSearchWithATokenAboutToExpireRenewsItFirstAndKeepsTheRenewal() throws Exception {
    SignIn started = authorize(reader, chiara, "myanimelist");
    HttpResponse<String> back = callback(reader, "myanimelist", "chiara-code", started.state(), started.cookie());
    assertThat(back.headers().firstValue("Location")).as(back.body()).hasValue(
        "/profile.html?tracker=myanimelist&signedIn=1");
    mal.tokensLast(3600).refreshAccepts("mal-short-lived-refresh", "mal-renewed");

    HttpResponse<String> found = call(chiara, "GET", "/api/me/trackers/myanimelist/search?q=Moonlit", null);
    HttpResponse<String> again = call(chiara, "GET", "/api/me/trackers/myanimelist/search?q=Moonlit", null);

    assertThat(found.statusCode()).as(found.body()).isEqualTo(200);
    assertThat(new JsonObject(found.body()).getJsonArray("results").getJsonObject(0).getString("remoteId"))
        .isEqualTo("2");
    assertThat(again.statusCode()).as("the renewal was kept: " + again.body()).isEqualTo(200);
    assertThat(mal.events().stream().filter(e -> e.getRequest().getUrl().endsWith("/token")
        && e.getRequest().getBodyAsString().contains("grant_type=refresh_token")).count())
        .as("renewed once, then the renewed token used").isEqualTo(1);
    assertThat(found.body() + again.body()).doesNotContain("mal-renewed").doesNotContain("mal-short-lived");
  }

  @Test
  void aForgedCallbackIsRefusedAndSignsNoOneIn() throws Exception {
    SignIn real = authorize(bruno);
    int before = anilist.requestCount();

    HttpResponse<String> forged = callback(reader, "anilist", "good-code", "f0rged-" + real.state().substring(7),
        real.cookie());
    HttpResponse<String> none = reader.text(reader.get("/api/trackers/anilist/callback?code=good-code")
        .header("Cookie", real.cookie()));
    HttpResponse<String> noCookie = callback(reader, "anilist", "good-code", real.state(), null);

    assertThat(forged.statusCode()).isEqualTo(400);
    assertThat(forged.body()).contains("was not started here");
    assertThat(none.statusCode()).isEqualTo(400);
    assertThat(noCookie.statusCode()).isEqualTo(400);
    assertThat(anilist.requestCount()).as("no code was exchanged").isEqualTo(before);
    assertThat(tracker(bruno, "anilist").getBoolean("signedIn")).isFalse();
  }

  @Test
  void aPasswordSignInIsPassedToTheTrackerOnceAndAWrongOneIsRefusedWithoutEchoingIt() throws Exception {
    call(bruno, "DELETE", "/api/me/trackers/mangaupdates", null);
    HttpResponse<String> wrong = call(bruno, "POST", "/api/me/trackers/mangaupdates/login",
        new JsonObject().put("username", "bruno-mu").put("password", "not-it-1234").encode());
    assertThat(wrong.statusCode()).as(wrong.body()).isEqualTo(422);
    assertThat(wrong.body()).doesNotContain("not-it-1234");
    assertThat(tracker(bruno, "mangaupdates").getBoolean("signedIn")).isFalse();

    HttpResponse<String> right = call(bruno, "POST", "/api/me/trackers/mangaupdates/login",
        new JsonObject().put("username", "bruno-mu").put("password", "bruno's password").encode());

    assertThat(right.statusCode()).as(right.body()).isEqualTo(200);
    assertThat(new JsonObject(right.body()).getString("account")).isEqualTo("bruno-on-mu");
    assertThat(right.body()).doesNotContain("mu-session-of-bruno").doesNotContain("bruno's password");
    assertThat(tracker(bruno, "mangaupdates").getBoolean("signedIn")).isTrue();
    assertThat(tracker(ayako, "mangaupdates").getBoolean("signedIn")).isFalse();
  }

  @Test
  void oneUserNeitherSeesNorChangesAnothersLinks() throws Exception {
    mangaupdates.notListed(4242).acceptsSaves();
    HttpResponse<String> login = call(bruno, "POST", "/api/me/trackers/mangaupdates/login",
        new JsonObject().put("username", "bruno-mu").put("password", "bruno's password").encode());
    assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
    HttpResponse<String> linked = call(bruno, "PUT", "/api/series/starfall/trackers/mangaupdates",
        new JsonObject().put("remoteId", "4242").put("title", "Starfall").encode());
    assertThat(linked.statusCode()).as(linked.body()).isEqualTo(200);

    JsonArray ayakoLinks = new JsonObject(call(ayako, "GET", "/api/me/trackers/links", null).body())
        .getJsonArray("links");
    JsonObject ayakoSeries = new JsonObject(call(ayako, "GET", "/api/series/starfall/trackers", null).body());
    HttpResponse<String> unlink = call(ayako, "DELETE", "/api/series/starfall/trackers/mangaupdates", null);
    HttpResponse<String> link = call(ayako, "PUT", "/api/series/starfall/trackers/mangaupdates",
        new JsonObject().put("remoteId", "4242").encode());

    assertThat(ayakoLinks.encode()).doesNotContain("4242");
    assertThat(ayakoSeries.getJsonArray("trackers").stream().map(JsonObject.class::cast)
        .filter(t -> t.getString("id").equals("mangaupdates")).findFirst().orElseThrow().getValue("link")).isNull();
    assertThat(unlink.statusCode()).isEqualTo(404);
    assertThat(link.statusCode()).as("ayako is not signed in to MangaUpdates").isEqualTo(409);
    JsonArray brunoLinks = new JsonObject(call(bruno, "GET", "/api/me/trackers/links", null).body())
        .getJsonArray("links");
    assertThat(brunoLinks).hasSize(1);
    assertThat(brunoLinks.getJsonObject(0).getString("remoteId")).isEqualTo("4242");
    assertThat(brunoLinks.getJsonObject(0).getString("seriesTitle")).isEqualTo("Starfall");
  }

  @Test
  void withNoTrackerEnabledNothingIsShownAndNoKeyIsMade(@TempDir Path other) throws Exception {
    try (ReaderUnderTest plain = ReaderUnderTest.withTrackers(other, new TrackersConfig(null, TrackerConfig.OFF,
        null, null, null))) {
      ReaderUnderTest.Session admin = plain.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      HttpResponse<String> list = plain.text(as(admin, plain.get("/api/me/trackers")));
      HttpResponse<String> authorize = plain.text(as(admin, plain.request("POST",
          "/api/me/trackers/anilist/authorize", "{}")));

      assertThat(new JsonObject(list.body()).getJsonArray("trackers")).isEmpty();
      assertThat(authorize.statusCode()).isEqualTo(404);
      assertThat(other.resolve("tracker-key")).doesNotExist();
    }
  }

  @Test
  void aKeyFileOthersMayReadTurnsTrackersOffLeavesItAsItIsAndTheReaderServes(@TempDir Path other) throws Exception {
    Path key = other.resolve("tracker-key");
    byte[] kept = new byte[32];
    java.util.Arrays.fill(kept, (byte) 7);
    Files.write(key, kept);
    Files.setPosixFilePermissions(key, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));

    try (ReaderUnderTest refused = ReaderUnderTest.withTrackers(other, new TrackersConfig(null, null, null,
        fast(mangaupdates.config()), null))) {
      ReaderUnderTest.Session admin = refused.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      HttpResponse<String> list = refused.text(as(admin, refused.get("/api/me/trackers")));

      assertThat(list.statusCode()).isEqualTo(200);
      assertThat(new JsonObject(list.body()).getJsonArray("trackers")).isEmpty();
      assertThat(Files.readAllBytes(key)).isEqualTo(kept);
    }
  }

  @Test
  void aSharedKeyFileNamedInTheConfigIsUsedAndNoKeyIsMadeInTheDataFolder(@TempDir Path other, @TempDir Path keys)
      throws Exception {
    Path key = TrackerTokenVault.keyFile(keys);
    new TrackerTokenVault(keys);
    byte[] kept = Files.readAllBytes(key);
    assertThat(new JsonObject().put("keyFile", " " + key + " ").mapTo(TrackersConfig.class).sharedKeyFile())
        .as("read from reader.trackers.keyFile").contains(key);
    TrackersConfig config = new TrackersConfig(null, null, null, fast(mangaupdates.config()), null, key.toString());

    try (ReaderUnderTest shared = ReaderUnderTest.withTrackers(other, config)) {
      ReaderUnderTest.Session admin = shared.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      HttpResponse<String> list = shared.text(as(admin, shared.get("/api/me/trackers")));

      assertThat(new JsonObject(list.body()).getJsonArray("trackers")).hasSize(1);
      assertThat(other.resolve("tracker-key")).doesNotExist();
      assertThat(Files.readAllBytes(key)).isEqualTo(kept);
    }
  }

  @Test
  void aMissingSharedKeyFileTurnsTrackersOffIsNotMadeAndTheReaderServes(@TempDir Path other, @TempDir Path keys)
      throws Exception {
    Path key = keys.resolve("tracker-key");
    try (ReaderUnderTest missing = ReaderUnderTest.withTrackers(other, new TrackersConfig(null, null, null,
        fast(mangaupdates.config()), null, key.toString()))) {
      ReaderUnderTest.Session admin = missing.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
      HttpResponse<String> list = missing.text(as(admin, missing.get("/api/me/trackers")));

      assertThat(list.statusCode()).isEqualTo(200);
      assertThat(new JsonObject(list.body()).getJsonArray("trackers")).isEmpty();
      assertThat(key).doesNotExist();
      assertThat(other.resolve("tracker-key")).doesNotExist();
    }
  }
}
