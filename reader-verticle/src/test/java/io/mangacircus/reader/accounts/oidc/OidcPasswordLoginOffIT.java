package io.mangacircus.reader.accounts.oidc;

import static io.mangacircus.reader.accounts.oidc.ProviderSignIn.CLIENT_ID;
import static io.mangacircus.reader.accounts.oidc.ProviderSignIn.person;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.mangacircus.reader.ReaderUnderTest;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A reader whose users sign in only with the provider ({@code passwordLogin: false}), with a confidential client whose
 * secret is read from a file: passwords are refused, app passwords keep working, the secret is never logged.
 */
class OidcPasswordLoginOffIT {

  private static final String SECRET = "client-secret-7f3c9a1e-never-in-a-log";

  @TempDir
  Path data;

  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private Level rootLevel;
  private MockOAuth2Server provider;
  private ReaderUnderTest reader;
  private ProviderSignIn browser;

  @BeforeEach
  void start() throws Exception {
    rootLevel = root.getLevel();
    root.setLevel(Level.ALL);
    logged.start();
    root.addAppender(logged);
    Path secretFile = Files.writeString(data.resolve("oidc-secret"), SECRET + "\n");
    provider = new MockOAuth2Server();
    provider.start();
    reader = ReaderUnderTest.withOidc(data.resolve("reader"), new OidcConfig(ProviderSignIn.issuer(provider),
        CLIENT_ID, null, secretFile.toString(), null, null, null, null, null, null, null, null, false));
    browser = new ProviderSignIn(provider, reader);
    browser.awaitDiscovered();
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
    provider.shutdown();
    root.detachAppender(logged);
    root.setLevel(rootLevel);
  }

  @Test
  void passwordsAreRefusedWhileAppPasswordsStillWork() throws Exception {
    assertThat(browser.options().getBoolean("passwordLogin")).isFalse();
    HttpResponse<String> login = reader.loginAnswer("admin", ReaderUnderTest.ADMIN_PASSWORD);
    assertThat(login.statusCode()).isEqualTo(403);
    assertThat(new JsonObject(login.body()).getString("error")).isEqualTo("password_login_off");

    ProviderSignIn.Ended signedIn = browser.signIn("/", person("sub-olga", Map.of("preferred_username", "olga")));
    String cookie = signedIn.sessionCookie().orElseThrow();
    JsonObject created = reader.createAppPassword(new ReaderUnderTest.Session(cookie,
        browser.me(cookie).getString("csrfToken")), "olga's tablet");

    HttpResponse<String> catalog = reader.text(ReaderUnderTest.basic("olga", created.getString("password"),
        reader.get("/opds/v1.2/catalog")));
    assertThat(catalog.statusCode()).as(catalog.body()).isEqualTo(200);
  }

  @Test
  void theClientSecretIsSentToTheProviderButNeverLogged() throws Exception {
    browser.signIn("/", person("sub-pia", Map.of("preferred_username", "pia")));
    reader.text(reader.get("/auth/oidc/callback?code=forged&state=forged"));

    assertThat(tokenRequestAuthorization()).as("the token request authenticates with the secret")
        .isEqualTo("Basic " + java.util.Base64.getEncoder().encodeToString((CLIENT_ID + ":" + SECRET)
            .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    List<String> lines = logged.list.stream().map(e -> e.getFormattedMessage()
        + (e.getThrowableProxy() == null ? "" : ThrowableProxyUtil.asString(e.getThrowableProxy()))).toList();
    assertThat(lines).as("the reader logged its sign-ins").anyMatch(line -> line.contains("[SSO]"));
    assertThat(lines).noneMatch(line -> line.contains(SECRET));
  }

  /** The Authorization header of the first token request the provider received. */
  private String tokenRequestAuthorization() {
    for (int i = 0; i < 10; i++) {
      var request = provider.takeRequest();
      if ("POST".equals(request.getMethod()) && request.getPath().endsWith("/token")) {
        return request.getHeader("Authorization");
      }
    }
    throw new AssertionError("no token request reached the provider");
  }
}
