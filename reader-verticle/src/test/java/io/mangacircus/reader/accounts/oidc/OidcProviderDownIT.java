package io.mangacircus.reader.accounts.oidc;

import static io.mangacircus.reader.accounts.oidc.ProviderSignIn.CLIENT_ID;
import static io.mangacircus.reader.accounts.oidc.ProviderSignIn.person;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A provider that is down when the reader starts: the reader serves anyway, and sign-in works once it is back. */
class OidcProviderDownIT {

  @TempDir
  Path data;

  @Test
  void theReaderStartsWithoutItsProviderAndSignInWorksOnceTheProviderAnswers() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    MockOAuth2Server provider = new MockOAuth2Server();
    try (ReaderUnderTest reader = ReaderUnderTest.withOidc(data, new OidcConfig("http://localhost:" + port
        + "/default", CLIENT_ID, null, null, null, null, null, null, null, null, null, null, null))) {
      ProviderSignIn browser = new ProviderSignIn(provider, reader);

      assertThat(browser.options().getJsonObject("provider").getBoolean("available")).isFalse();
      HttpResponse<String> start = reader.text(reader.get("/auth/oidc/login?return=/"));
      assertThat(start.statusCode()).isEqualTo(302);
      assertThat(start.headers().firstValue("Location")).contains("/login.html?error=provider_unavailable");
      assertThat(reader.loginAnswer("admin", ReaderUnderTest.ADMIN_PASSWORD).statusCode())
          .as("password login does not wait for the provider").isEqualTo(200);

      provider.start(InetAddress.getByName("localhost"), port);
      browser.awaitDiscovered();

      ProviderSignIn.Ended signedIn = browser.signIn("/", person("sub-quinn", Map.of("preferred_username", "quinn")));
      assertThat(browser.me(signedIn.sessionCookie().orElseThrow()).getString("username")).isEqualTo("quinn");
    } finally {
      provider.shutdown();
    }
  }
}
