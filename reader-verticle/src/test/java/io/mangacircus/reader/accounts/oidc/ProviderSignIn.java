package io.mangacircus.reader.accounts.oidc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mangacircus.reader.ReaderUnderTest;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.OAuth2TokenCallback;

/**
 * A browser's sign-in with a real OpenID provider (mock-oauth2-server) in front of a real reader, its redirects followed
 * by hand so that a test can change what travels between the two.
 */
final class ProviderSignIn {

  static final String CLIENT_ID = "mangacircus";

  private final MockOAuth2Server provider;
  private final ReaderUnderTest reader;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  ProviderSignIn(MockOAuth2Server provider, ReaderUnderTest reader) {
    this.provider = provider;
    this.reader = reader;
  }

  /** The issuer URL of the provider's {@code default} issuer. */
  static String issuer(MockOAuth2Server provider) {
    return provider.issuerUrl("default").toString().replaceAll("/+$", "");
  }

  /** A sign-in sent to the provider: where the browser goes, with the pending sign-in's cookie. */
  record Started(String authorizeUrl, String pendingCookie) {
  }

  /** The callback's answer: where it sends the browser, and the session cookie it set, if any. */
  record Ended(int status, String location, Optional<String> sessionCookie) {

    /** The login page's error code, if the answer sends there. */
    Optional<String> error() {
      return location != null && location.startsWith("/login.html?error=")
          ? Optional.of(location.substring("/login.html?error=".length())) : Optional.empty();
    }
  }

  /** Waits until the reader has discovered the provider. */
  void awaitDiscovered() {
    await().atMost(Duration.ofSeconds(30)).until(() -> options().getJsonObject("provider").getBoolean("available"));
  }

  /** {@code GET /api/login/options}. */
  JsonObject options() throws Exception {
    return new JsonObject(reader.text(reader.get("/api/login/options")).body());
  }

  /** {@code GET /auth/oidc/login?return=...}: the reader's redirect to the provider. */
  Started start(String returnPath) throws Exception {
    HttpResponse<String> answer = reader.text(reader.get("/auth/oidc/login?return="
        + java.net.URLEncoder.encode(returnPath, java.nio.charset.StandardCharsets.UTF_8)));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(302);
    String pending = cookie(answer, PendingSignIn.COOKIE).orElseThrow();
    return new Started(answer.headers().firstValue("Location").orElseThrow(), pending);
  }

  /** The provider's answer to the authorize URL: its redirect to the reader's callback, with code and state. */
  String authorize(String authorizeUrl) throws Exception {
    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(authorizeUrl)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(302);
    return answer.headers().firstValue("Location").orElseThrow();
  }

  /** The browser arriving at the reader's callback with {@code pendingCookie} (null: none). */
  Ended callback(String callbackUrl, String pendingCookie) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(callbackUrl)).GET();
    if (pendingCookie != null) {
      request.header("Cookie", pendingCookie);
    }
    HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    return new Ended(answer.statusCode(), answer.headers().firstValue("Location").orElse(null),
        cookie(answer, "mc_session").filter(c -> !c.equals("mc_session=")));
  }

  /** A whole sign-in whose ID token the provider makes with {@code callback}. */
  Ended signIn(String returnPath, OAuth2TokenCallback callback) throws Exception {
    Started started = start(returnPath);
    String back = authorize(started.authorizeUrl());
    provider.enqueueCallback(callback);
    return callback(back, started.pendingCookie());
  }

  /** The person {@code subject} with these claims, in a token for this reader, valid for an hour. */
  static DefaultOAuth2TokenCallback person(String subject, Map<String, Object> claims) {
    return new DefaultOAuth2TokenCallback("default", subject, "JWT", List.of(CLIENT_ID), claims, 3600);
  }

  /** {@code GET /api/me} with a session cookie. */
  JsonObject me(String sessionCookie) throws Exception {
    HttpResponse<String> answer = reader.text(reader.get("/api/me").header("Cookie", sessionCookie));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return new JsonObject(answer.body());
  }

  private static Optional<String> cookie(HttpResponse<?> answer, String name) {
    return answer.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith(name + "="))
        .map(c -> c.split(";", 2)[0]).findFirst();
  }
}
