package io.mangacircus.launcher;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code suwayomi-sources} in-process against a stand-in Suwayomi server on loopback (WireMock answering the
 * {@code sources} query in the shape of Suwayomi's schema, behind basic auth): the list, the config entry, and the
 * one-line errors with exit code 1.
 */
class SuwayomiSourcesCommandTest {

  private static final String PASSWORD = "s0urces-Secret";

  private static WireMockServer suwayomi;

  @TempDir
  Path dir;

  /** What one run printed. */
  private record Run(int exit, String out, String err) {
  }

  @BeforeAll
  static void start() {
    suwayomi = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    suwayomi.start();
    JsonArray nodes = new JsonArray()
        .add(source("2499283573021220255", "Le Site", "fr", false, "eu.kanade.tachiyomi.extension.fr.lesite"))
        .add(source("0", "Local source", "localsourcelang", false, null))
        .add(source("6247824327199706550", "Autre Site", "en", true, "eu.kanade.tachiyomi.extension.en.autresite"));
    // Basic auth as Suwayomi's basic_auth mode: 401 with a Basic challenge before routing, else the GraphQL answer.
    suwayomi.stubFor(post(urlEqualTo("/api/graphql")).atPriority(1).withBasicAuth("reader", PASSWORD)
        .withRequestBody(matchingJsonPath("$.query", containing("sources")))
        .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json")
            .withBody(new JsonObject().put("data", new JsonObject().put("sources", new JsonObject()
                .put("nodes", nodes))).encode())));
    suwayomi.stubFor(post(urlEqualTo("/api/graphql")).atPriority(5).willReturn(aResponse().withStatus(401)
        .withHeader("WWW-Authenticate", "Basic realm=\"Tachidesk\"").withBody("Unauthorized")));
  }

  @AfterAll
  static void stop() {
    suwayomi.stop();
  }

  private static JsonObject source(String id, String name, String lang, boolean nsfw, String pkgName) {
    return new JsonObject().put("id", id).put("name", name).put("lang", lang)
        .put("displayName", name + " (" + lang + ")").put("isNsfw", nsfw)
        .put("extension", pkgName == null ? null : new JsonObject().put("pkgName", pkgName));
  }

  private Run run(Map<String, String> environment, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new SuwayomiSourcesCommand(environment::get));
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(err));
    int exit = command.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  private Path passwordFile(String password) throws Exception {
    Path file = dir.resolve("suwayomi.password");
    Files.writeString(file, password + "\n");
    return file;
  }

  @Test
  void listsTheInstalledSourcesByNameThenAConfigEntryForTheFirst() throws Exception {
    Path file = passwordFile(PASSWORD);

    Run run = run(Map.of(), "--url", suwayomi.baseUrl() + "/", "--username", "reader", "--password-file",
        file.toString());

    assertThat(run.exit()).as(run.err()).isZero();
    String[] lines = run.out().split("\n");
    assertThat(lines[0]).matches("6247824327199706550\\s+en\\s+Autre Site\\s+18\\+");
    assertThat(lines[1]).matches("2499283573021220255\\s+fr\\s+Le Site");
    assertThat(lines[2]).matches("0\\s+localsourcelang\\s+Local source");
    JsonObject snippet = new JsonObject(run.out().substring(run.out().indexOf("\n{") + 1));
    JsonObject sources = snippet.getJsonObject("scraper").getJsonObject("sources");
    assertThat(sources.fieldNames()).containsExactly("autre-site-en");
    JsonObject entry = sources.getJsonObject("autre-site-en");
    assertThat(entry.getString("type")).isEqualTo("suwayomi");
    assertThat(entry.getString("baseUrl")).isEqualTo(suwayomi.baseUrl());
    assertThat(entry.getJsonObject("options").getMap()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "sourceId", "6247824327199706550", "auth", "basic", "username", "reader", "passwordFile", file.toString()));
    assertThat(run.out() + run.err()).doesNotContain(PASSWORD);
  }

  @Test
  void thePasswordMayComeFromTheEnvironmentAndTheEntryNamesTheVariable() {
    Run run = run(Map.of("MC_SUWAYOMI_PASSWORD", PASSWORD), "--url", suwayomi.baseUrl(), "--username", "reader",
        "--password-env", "MC_SUWAYOMI_PASSWORD");

    assertThat(run.exit()).as(run.err()).isZero();
    JsonObject snippet = new JsonObject(run.out().substring(run.out().indexOf("\n{") + 1));
    assertThat(snippet.getJsonObject("scraper").getJsonObject("sources").getJsonObject("autre-site-en")
        .getJsonObject("options").getString("passwordEnv")).isEqualTo("MC_SUWAYOMI_PASSWORD");
    assertThat(run.out() + run.err()).doesNotContain(PASSWORD);
  }

  @Test
  void wrongCredentialsAreOneLineAndExitOneWithoutThePassword() throws Exception {
    Run run = run(Map.of(), "--url", suwayomi.baseUrl(), "--username", "reader", "--password-file",
        passwordFile("not-" + PASSWORD).toString());

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().strip()).doesNotContain("\n").contains("401").contains("credentials");
    assertThat(run.err()).doesNotContain(PASSWORD);
  }

  @Test
  void aServerThatIsNotSuwayomiIsSaidSo() {
    Run run = run(Map.of(), "--url", suwayomi.baseUrl() + "/elsewhere");

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err().strip()).doesNotContain("\n").contains("not a Suwayomi server");
  }

  @Test
  void anUnreachableServerIsSaidSo() throws Exception {
    int port;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }

    Run run = run(Map.of(), "--url", "http://127.0.0.1:" + port);

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err().strip()).doesNotContain("\n").contains("cannot reach");
  }
}
