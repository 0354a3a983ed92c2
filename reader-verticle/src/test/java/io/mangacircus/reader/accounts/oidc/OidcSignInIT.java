package io.mangacircus.reader.accounts.oidc;

import static io.mangacircus.reader.accounts.oidc.ProviderSignIn.CLIENT_ID;
import static io.mangacircus.reader.accounts.oidc.ProviderSignIn.person;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sign-in with a real OpenID provider: accounts, sessions, logout, and every token or answer the reader refuses. */
class OidcSignInIT {

  @TempDir
  static Path data;

  private static MockOAuth2Server provider;
  private static ReaderUnderTest reader;
  private static ProviderSignIn browser;

  @BeforeAll
  static void start() throws Exception {
    provider = new MockOAuth2Server();
    provider.start();
    reader = ReaderUnderTest.withOidc(data, new OidcConfig(ProviderSignIn.issuer(provider), CLIENT_ID, null, null,
        null, null, "groups", List.of("mc-admins"), "mc_libraries", "mc_age_limit", null, "Sign in with Circus ID",
        null));
    browser = new ProviderSignIn(provider, reader);
    browser.awaitDiscovered();
  }

  @AfterAll
  static void stop() throws Exception {
    reader.close();
    provider.shutdown();
  }

  @Test
  void theLoginPageIsToldOfTheProvidersButton() throws Exception {
    JsonObject options = browser.options();

    assertThat(options.getBoolean("passwordLogin")).isTrue();
    assertThat(options.getJsonObject("provider").getString("label")).isEqualTo("Sign in with Circus ID");
    assertThat(options.getJsonObject("provider").getString("start")).isEqualTo("/auth/oidc/login");
  }

  @Test
  void theProviderIsAskedForACodeWithPkceStateAndNonce() throws Exception {
    ProviderSignIn.Started started = browser.start("/series.html?id=moon");

    assertThat(started.authorizeUrl()).startsWith(ProviderSignIn.issuer(provider) + "/authorize?")
        .contains("response_type=code", "client_id=" + CLIENT_ID, "code_challenge_method=S256", "code_challenge=",
            "state=", "nonce=", "redirect_uri=" + java.net.URLEncoder.encode(reader.base() + "/auth/oidc/callback",
                java.nio.charset.StandardCharsets.UTF_8), "scope=openid");
  }

  @Test
  void aFirstSignInCreatesTheAccountWithAWorkingSessionAndTheNextFindsIt() throws Exception {
    ProviderSignIn.Ended first = browser.signIn("/series.html?id=moon", person("sub-alice",
        Map.of("preferred_username", "alice")));

    assertThat(first.status()).isEqualTo(302);
    assertThat(first.location()).isEqualTo("/series.html?id=moon");
    JsonObject me = browser.me(first.sessionCookie().orElseThrow());
    assertThat(me.getString("username")).isEqualTo("alice");
    assertThat(me.getString("role")).isEqualTo("reader");
    assertThat(me.getString("csrfToken")).isNotBlank();

    // The provider renamed the person: the identity, not the name, finds the account.
    ProviderSignIn.Ended second = browser.signIn("/", person("sub-alice", Map.of("preferred_username", "alice.b")));
    assertThat(browser.me(second.sessionCookie().orElseThrow()).getString("username")).isEqualTo("alice");
    assertThat(accounts()).filteredOn(name -> name.startsWith("alice")).containsExactly("alice");
  }

  @Test
  void anAccountMadeBySignInHasNoPasswordToLogInWith() throws Exception {
    browser.signIn("/", person("sub-erin", Map.of("preferred_username", "erin")));

    HttpResponse<String> login = reader.loginAnswer("erin", "!signs-in-with-provider");

    assertThat(login.statusCode()).isEqualTo(401);
  }

  @Test
  void theOwnPasswordFormSaysTheAccountSignsInWithTheProvider() throws Exception {
    String cookie = browser.signIn("/", person("sub-rae", Map.of("preferred_username", "rae"))).sessionCookie()
        .orElseThrow();

    HttpResponse<String> change = reader.text(ReaderUnderTest.as(new ReaderUnderTest.Session(cookie,
        browser.me(cookie).getString("csrfToken")), reader.request("PUT", "/api/me/password",
        "{\"current\": \"!signs-in-with-provider\", \"password\": \"a-new-long-password\"}")));

    assertThat(change.statusCode()).isEqualTo(409);
    assertThat(new JsonObject(change.body()).getString("error")).isEqualTo("signs_in_with_provider");
  }

  @Test
  void logoutEndsTheSessionAndSendsTheBrowserToTheProvidersLogout() throws Exception {
    ProviderSignIn.Ended signedIn = browser.signIn("/", person("sub-frank", Map.of("preferred_username", "frank")));
    String cookie = signedIn.sessionCookie().orElseThrow();
    String csrf = browser.me(cookie).getString("csrfToken");

    HttpResponse<String> logout = reader.text(reader.request("POST", "/api/logout", null).header("Cookie", cookie)
        .header("X-CSRF-Token", csrf));

    assertThat(logout.statusCode()).isEqualTo(200);
    assertThat(new JsonObject(logout.body()).getString("next"))
        .startsWith(provider.endSessionEndpointUrl("default").toString())
        .contains("client_id=" + CLIENT_ID, "post_logout_redirect_uri=" + java.net.URLEncoder.encode(
            reader.base() + "/login.html", java.nio.charset.StandardCharsets.UTF_8));
    assertThat(reader.text(reader.get("/api/me").header("Cookie", cookie)).statusCode()).isEqualTo(401);
  }

  @Test
  void aTokenForAnotherClientIsRefused() throws Exception {
    // The provider makes the ID token's audience the client that asked; a claim overrides it.
    ProviderSignIn.Ended ended = browser.signIn("/", person("sub-gina", Map.of("preferred_username", "gina",
        "aud", List.of("another-app"))));

    assertThat(ended.error()).as(ended.toString()).contains("wrong_audience");
    assertThat(ended.sessionCookie()).isEmpty();
    assertThat(accounts()).doesNotContain("gina");
  }

  @Test
  void aTokenFromAnotherIssuerIsRefused() throws Exception {
    ProviderSignIn.Ended ended = browser.signIn("/", person("sub-hugo", Map.of("preferred_username", "hugo",
        "iss", "https://impostor.example.org/default")));

    assertThat(ended.error()).contains("wrong_issuer");
    assertThat(ended.sessionCookie()).isEmpty();
  }

  @Test
  void aTokenWithAnotherSignInsNonceIsRefused() throws Exception {
    ProviderSignIn.Started started = browser.start("/");
    String injected = started.authorizeUrl().replaceAll("nonce=[^&]+", "nonce=someone-elses-nonce");
    String back = browser.authorize(injected);
    provider.enqueueCallback(person("sub-ida", Map.of("preferred_username", "ida")));

    ProviderSignIn.Ended ended = browser.callback(back, started.pendingCookie());

    assertThat(ended.error()).contains("wrong_nonce");
    assertThat(ended.sessionCookie()).isEmpty();
  }

  @Test
  void aCallbackWithAWrongOrMissingStateOrNoPendingSignInIsRefused() throws Exception {
    ProviderSignIn.Started started = browser.start("/");
    String back = browser.authorize(started.authorizeUrl());

    assertThat(browser.callback(back.replaceAll("state=[^&]+", "state=forged"), started.pendingCookie()).error())
        .contains("state_mismatch");
    assertThat(browser.callback(back.replaceAll("[&?]state=[^&]+", ""), started.pendingCookie()).error())
        .contains("state_mismatch");
    assertThat(browser.callback(back, null).error()).contains("no_pending_sign_in");
  }

  @Test
  void anExpiredTokenIsRefused() throws Exception {
    ProviderSignIn.Ended ended = browser.signIn("/", new DefaultOAuth2TokenCallback("default", "sub-jan", "JWT",
        List.of(CLIENT_ID), Map.of("preferred_username", "jan"), -120));

    assertThat(ended.error()).contains("expired");
    assertThat(ended.sessionCookie()).isEmpty();
  }

  @Test
  void theAdminGroupMakesAnAdminAndLosingItMakesAReaderAtTheNextSignIn() throws Exception {
    ProviderSignIn.Ended asAdmin = browser.signIn("/", person("sub-kim", Map.of("preferred_username", "kim",
        "groups", List.of("staff", "mc-admins"))));
    assertThat(browser.me(asAdmin.sessionCookie().orElseThrow()).getString("role")).isEqualTo("admin");

    ProviderSignIn.Ended asReader = browser.signIn("/", person("sub-kim", Map.of("preferred_username", "kim",
        "groups", List.of("staff"))));

    assertThat(browser.me(asReader.sessionCookie().orElseThrow()).getString("role")).isEqualTo("reader");
    assertThat(reader.text(reader.get("/api/admin/users").header("Cookie", asAdmin.sessionCookie().get()))
        .statusCode()).as("the admin session of before is an admin's no more").isEqualTo(403);
  }

  @Test
  void claimsTheIdTokenLacksAreReadFromTheUserinfoAnswerAndTheIdTokensOwnWin() throws Exception {
    ProviderSignIn.Ended ended = browser.signIn("/", new SplitClaims("sub-uma", Map.of("preferred_username", "uma",
        "groups", List.of("mc-admins")), java.util.Set.of("groups"), "sub-uma"));
    JsonObject me = browser.me(ended.sessionCookie().orElseThrow());
    assertThat(me.getString("username")).as("from the ID token").isEqualTo("uma");
    assertThat(me.getString("role")).as("the admin group from userinfo").isEqualTo("admin");

    ProviderSignIn.Ended noName = browser.signIn("/", new SplitClaims("sub-vic", Map.of("preferred_username", "vic",
        "mc_age_limit", "15"), java.util.Set.of("preferred_username", "mc_age_limit"), "sub-vic"));
    assertThat(browser.me(noName.sessionCookie().orElseThrow()).getString("username")).isEqualTo("vic");
    assertThat(access("vic").getString("ageLimit")).as("the age limit from userinfo").isEqualTo("15");
  }

  @Test
  void aUserinfoAnswerAboutAnotherSubjectIsNotUsed() throws Exception {
    ProviderSignIn.Ended ended = browser.signIn("/", new SplitClaims("sub-walt", Map.of("preferred_username", "walt"),
        java.util.Set.of("preferred_username"), "sub-someone-else"));

    assertThat(ended.error()).as(ended.toString())
        .hasValueSatisfying(code -> assertThat(code).startsWith("userinfo_"));
    assertThat(ended.sessionCookie()).isEmpty();
    assertThat(accounts()).doesNotContain("walt");
  }

  @Test
  void librariesAndAgeLimitFollowTheClaimsAtEachSignIn() throws Exception {
    browser.signIn("/", person("sub-sam", Map.of("preferred_username", "sam", "mc_libraries", List.of("downloads"),
        "mc_age_limit", "12")));
    JsonObject limited = access("sam");
    assertThat(limited.getJsonArray("libraries")).containsExactly("downloads");
    assertThat(limited.getString("ageLimit")).isEqualTo("12");

    browser.signIn("/", person("sub-sam", Map.of("preferred_username", "sam", "mc_libraries", "all",
        "mc_age_limit", "none")));

    JsonObject everything = access("sam");
    assertThat(everything.getValue("libraries")).isEqualTo("all");
    assertThat(everything.getString("ageLimit")).isEqualTo("none");
  }

  private static JsonObject access(String username) throws Exception {
    HttpResponse<String> answer = reader.text(reader.get("/api/admin/users/" + username + "/access")
        .header("Authorization", "Bearer " + ReaderUnderTest.ADMIN_TOKEN));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return new JsonObject(answer.body());
  }

  @Test
  void anAccountDisabledHereStaysDisabledWhateverTheProviderSays() throws Exception {
    browser.signIn("/", person("sub-lou", Map.of("preferred_username", "lou")));
    HttpResponse<String> disabled = reader.text(reader.request("PUT", "/api/admin/users/lou/disabled",
        "{\"disabled\": true}").header("Authorization", "Bearer " + ReaderUnderTest.ADMIN_TOKEN));
    assertThat(disabled.statusCode()).as(disabled.body()).isEqualTo(200);

    ProviderSignIn.Ended ended = browser.signIn("/", person("sub-lou", Map.of("preferred_username", "lou",
        "groups", List.of("mc-admins"))));

    assertThat(ended.error()).contains("account_disabled");
    assertThat(ended.sessionCookie()).isEmpty();
  }

  @Test
  void aSignInNamedLikeALocalAccountIsRefusedUnlessLinkingIsAllowed() throws Exception {
    ReaderUnderTest.Session admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    reader.createReader(admin, "mona", "mona-local-password");

    ProviderSignIn.Ended ended = browser.signIn("/", person("sub-mona", Map.of("preferred_username", "mona")));

    assertThat(ended.error()).contains("account_exists");
    assertThat(reader.loginAnswer("mona", "mona-local-password").statusCode()).isEqualTo(200);
  }

  @Test
  void theReturnPathIsOnlyEverAPathOnThisSite() throws Exception {
    ProviderSignIn.Ended ended = browser.signIn("https://evil.example.org/x", person("sub-ned",
        Map.of("preferred_username", "ned")));

    assertThat(ended.location()).isEqualTo("/");
  }

  private static List<String> accounts() throws Exception {
    HttpResponse<String> users = reader.text(reader.get("/api/admin/users")
        .header("Authorization", "Bearer " + ReaderUnderTest.ADMIN_TOKEN));
    assertThat(users.statusCode()).as(users.body()).isEqualTo(200);
    return new JsonObject(users.body()).getJsonArray("users").stream().map(u -> ((JsonObject) u).getString("username"))
        .toList();
  }
}
