package io.mangacircus.launcher.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.launcher.config.ConfigLoader.CommandLineOverrides;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

  @TempDir
  Path dir;

  private final ConfigLoader loader = new ConfigLoader();

  private MangaCircusConfig loadFile(String json) throws Exception {
    Path file = dir.resolve("mangacircus.json");
    Files.writeString(file, json);
    return loader.load(Optional.of(file), Map.of(), CommandLineOverrides.none());
  }

  private static void assertKey(Throwable thrown, String key) {
    assertThat(thrown).isInstanceOf(InvalidConfigException.class).hasMessageContaining(key);
    assertThat(((InvalidConfigException) thrown).key()).isEqualTo(key);
  }

  @Test
  void shippedDefaultsAreValidAndMatchTheDocumentedValues() throws Exception {
    MangaCircusConfig config = loadFile("{}");

    assertThat(config.dataDir()).isEqualTo("./data");
    assertThat(config.http().port()).isEqualTo(8080);
    assertThat(config.http().healthPort()).isEqualTo(8081);
    assertThat(config.http().bind()).isEqualTo("127.0.0.1");
    assertThat(config.metrics().enabled()).isFalse();
    assertThat(config.supervision().pingIntervalMs()).isEqualTo(10_000);
    assertThat(config.supervision().pingTimeoutMs()).isEqualTo(2_000);
    assertThat(config.supervision().crashBudgetFailures()).isEqualTo(3);
    assertThat(config.supervision().crashBudgetWindowMinutes()).isEqualTo(60);
    assertThat(config.supervision().shutdownGraceSeconds()).isEqualTo(30);
    assertThat(config.health().checkTimeoutMs()).isEqualTo(2_000);
    assertThat(config.cluster().members()).containsExactly("127.0.0.1");
    assertThat(config.http().headerTimeoutSeconds()).isEqualTo(30);
    assertThat(config.http().idleTimeoutSeconds()).isEqualTo(75);
    assertThat(config.http().maxConnections()).isEqualTo(512);
    assertThat(config.http().publicHosts()).as("no Host check unless names are given").isEmpty();
  }

  @Test
  void httpTimeoutsTheConnectionCapAndPublicNamesOutOfRangeAreNamed() {
    assertKey(catchThrowable("{\"http\": {\"headerTimeoutSeconds\": 0}}"), "http.headerTimeoutSeconds");
    assertKey(catchThrowable("{\"http\": {\"idleTimeoutSeconds\": 0}}"), "http.idleTimeoutSeconds");
    assertKey(catchThrowable("{\"http\": {\"maxConnections\": 0}}"), "http.maxConnections");
    assertKey(catchThrowable("{\"http\": {\"publicHosts\": [\"https://manga.example.org/\"]}}"),
        "http.publicHosts");
  }

  @Test
  void aPartialFileOverridesOnlyItsKeys() throws Exception {
    MangaCircusConfig config = loadFile("{\"http\": {\"port\": 9090}, \"supervision\": {\"backoffInitialMs\": 50}}");

    assertThat(config.http().port()).isEqualTo(9090);
    assertThat(config.http().healthPort()).isEqualTo(8081);
    assertThat(config.supervision().backoffInitialMs()).isEqualTo(50);
    assertThat(config.supervision().backoffMaxMs()).isEqualTo(60_000);
  }

  @Test
  void environmentOverridesTheFileAndTheCommandLineOverridesTheEnvironment() throws Exception {
    Path file = dir.resolve("c.json");
    Files.writeString(file, "{\"http\": {\"port\": 9090}, \"dataDir\": \"/from/file\"}");
    Map<String, String> env = Map.of("MANGACIRCUS_PORT", "9191", "MANGACIRCUS_DATA", "/from/env",
        "MANGACIRCUS_METRICS_TOKEN", "metrics-secret-012345678", "MANGACIRCUS_ADMIN_TOKEN", "admin-secret-0123456789a",
        "MANGACIRCUS_CLUSTER_MEMBERS", "10.0.0.2:5701, 10.0.0.3");

    MangaCircusConfig fromEnv = loader.load(Optional.of(file), env, CommandLineOverrides.none());
    assertThat(fromEnv.http().port()).isEqualTo(9191);
    assertThat(fromEnv.dataDir()).isEqualTo("/from/env");
    assertThat(fromEnv.metrics().token()).isEqualTo("metrics-secret-012345678");
    assertThat(fromEnv.reader().adminToken()).isEqualTo("admin-secret-0123456789a");
    assertThat(fromEnv.cluster().members()).containsExactly("10.0.0.2:5701", "10.0.0.3");

    MangaCircusConfig fromCli = loader.load(Optional.of(file), env,
        new CommandLineOverrides("/from/cli", 9292, 9293, "0.0.0.0", List.of("h1")));
    assertThat(fromCli.http().port()).isEqualTo(9292);
    assertThat(fromCli.http().healthPort()).isEqualTo(9293);
    assertThat(fromCli.http().bind()).isEqualTo("0.0.0.0");
    assertThat(fromCli.dataDir()).isEqualTo("/from/cli");
    assertThat(fromCli.cluster().members()).containsExactly("h1");
  }

  @Test
  void anUnknownKeyIsNamed() {
    assertKey(catchThrowable("{\"supervision\": {\"pingIntervalMillis\": 5}}"), "supervision.pingIntervalMillis");
  }

  @Test
  void aSectionSetToNullIsNamed() {
    assertKey(catchThrowable("{\"supervision\": null}"), "supervision");
    assertKey(catchThrowable("{\"scraper\": {\"stall\": null}}"), "scraper.stall");
  }

  @Test
  void aKeyMissingFromARecordIsNamedAsRequired() throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode tree;
    try (java.io.InputStream in = ConfigLoader.class.getResourceAsStream(ConfigLoader.DEFAULTS_RESOURCE)) {
      tree = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(in);
    }
    ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("http")).remove("healthPort");
    ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("reader")).remove("sessionHours");

    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> loader.bind(tree));

    assertThat(thrown).hasMessageContaining("is required but missing");
    assertThat(((InvalidConfigException) thrown).key()).isIn("http.healthPort", "reader.sessionHours");
    ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("http")).put("healthPort", 8081);
    assertKey(org.assertj.core.api.Assertions.catchThrowable(() -> loader.bind(tree)), "reader.sessionHours");
  }

  @Test
  void theReaderIsOnSqliteByDefaultAndABadDatabaseKeyIsNamedWithoutThePassword() throws Exception {
    assertThat(loadFile("{}").reader().databaseConfig().sqlite()).isTrue();
    assertThat(loadFile("{\"reader\": {\"database\": \"postgresql://reader@db.lan/manga\","
        + " \"databasePasswordEnv\": \"READER_DB_PASSWORD\", \"databasePoolSize\": 20}}").reader().databaseConfig())
        .satisfies(database -> {
          assertThat(database.sqlite()).isFalse();
          assertThat(database.poolSize()).isEqualTo(20);
        });

    Throwable password = catchThrowable("{\"reader\": {\"database\": \"postgresql://reader:hunter2@db.lan/manga\"}}");
    assertKey(password, "reader.database");
    assertThat(password).hasMessageNotContaining("hunter2");
    assertKey(catchThrowable("{\"reader\": {\"database\": \"mysql://reader@db.lan/manga\"}}"), "reader.database");
    assertKey(catchThrowable("{\"reader\": {\"database\": \"postgresql://reader@db.lan/manga\","
        + " \"databasePoolSize\": 0}}"), "reader.databasePoolSize");
    assertKey(catchThrowable("{\"reader\": {\"databasePasswordFile\": \"/run/secrets/db\"}}"),
        "reader.databasePasswordFile");
  }

  @Test
  void aValueOfTheWrongTypeIsNamed() {
    assertKey(catchThrowable("{\"http\": {\"port\": \"eighty\"}}"), "http.port");
    assertKey(catchThrowable("{\"supervision\": {\"crashBudgetFailures\": 2.5}}"), "supervision.crashBudgetFailures");
    assertKey(catchThrowable("{\"cluster\": {\"members\": \"a,b\"}}"), "cluster.members");
  }

  @Test
  void aValueOutOfRangeIsNamed() {
    assertKey(catchThrowable("{\"http\": {\"port\": 70000}}"), "http.port");
    assertKey(catchThrowable("{\"supervision\": {\"pingTimeoutMs\": 20000}}"), "supervision.pingTimeoutMs");
    assertKey(catchThrowable("{\"log\": {\"format\": \"xml\"}}"), "log.format");
    assertKey(catchThrowable("{\"supervision\": {\"crashBudgetFailures\": 0}}"), "supervision.crashBudgetFailures");
    assertKey(catchThrowable("{\"cluster\": {\"members\": [\"bad host!\"]}}"), "cluster.members");
  }

  @Test
  void aCollectionNeedsOnlyANameAndAPathAndBadOnesAreNamed() throws Exception {
    Path shelf = Files.createDirectories(dir.resolve("manga"));
    MangaCircusConfig config = loadFile("{\"dataDir\": \"" + dir.resolve("data") + "\", \"reader\": {\"libraries\": "
        + "[{\"name\": \"comics\", \"path\": \"" + shelf + "\"}]}}");
    io.mangacircus.reader.LibraryConfig comics = config.reader().libraries().get(0);
    assertThat(comics.kind()).isEqualTo("collection");
    assertThat(comics.rescanMinutes()).isEqualTo(60);
    assertThat(comics.watch()).isTrue();

    String data = "\"dataDir\": \"" + dir.resolve("data") + "\", ";
    assertKey(catchThrowable("{" + data + "\"reader\": {\"libraries\": [{\"name\": \"Comics!\", \"path\": \"/m\"}]}}"),
        "reader.libraries[0]");
    assertKey(catchThrowable("{" + data + "\"reader\": {\"libraries\": [{\"name\": \"downloads\", \"path\": \"/m\"}]}}"),
        "reader.libraries[0]");
    assertKey(catchThrowable("{" + data + "\"reader\": {\"libraries\": [{\"name\": \"a\", \"path\": \"m\"}]}}"),
        "reader.libraries[0]");
    assertKey(catchThrowable("{" + data + "\"reader\": {\"libraries\": [{\"name\": \"a\", \"path\": \"/m\"}, "
        + "{\"name\": \"a\", \"path\": \"/n\"}]}}"), "reader.libraries[1]");
    // MangaCircus writes in its data folder and never in a collection.
    assertKey(catchThrowable("{" + data + "\"reader\": {\"libraries\": [{\"name\": \"a\", \"path\": \""
        + dir.resolve("data/library") + "\"}]}}"), "reader.libraries[0].path");
    assertKey(catchThrowable("{" + data + "\"reader\": {\"libraries\": [{\"name\": \"a\", \"path\": \"" + dir
        + "\"}]}}"), "reader.libraries[0].path");
  }

  @Test
  void metadataProvidersAreOffByDefaultAndBadValuesAreNamed() throws Exception {
    io.mangacircus.reader.MetadataProvidersConfig providers = loadFile("{}").reader().metadataProviders();
    assertThat(providers.enabled()).isFalse();
    assertThat(providers.anilistUrl()).isEqualTo("https://graphql.anilist.co");
    assertThat(providers.mangaUpdatesUrl()).isEqualTo("https://api.mangaupdates.com");
    assertThat(providers.minConfidence()).isEqualTo(0.9);
    assertThat(loadFile("{\"reader\": {\"metadataProviders\": {\"enabled\": true}}}").reader().metadataProviders()
        .minConfidence()).as("the other keys keep their defaults").isEqualTo(0.9);

    assertKey(catchThrowable("{\"reader\": {\"metadataProviders\": {\"minConfidence\": 1.5}}}"),
        "reader.metadataProviders.minConfidence");
    assertKey(catchThrowable("{\"reader\": {\"metadataProviders\": {\"anilistUrl\": \"graphql.anilist.co\"}}}"),
        "reader.metadataProviders.anilistUrl");
    assertKey(catchThrowable("{\"reader\": {\"metadataProviders\": {\"mangaUpdatesUrl\": \"ftp://x\"}}}"),
        "reader.metadataProviders.mangaUpdatesUrl");
  }

  @Test
  void trackersAreOffByDefaultTheirSecretsComeFromTheEnvironmentAndBadValuesAreNamed() throws Exception {
    assertThat(loadFile("{}").reader().trackers().anyEnabled()).isFalse();
    Path file = dir.resolve("trackers.json");
    Files.writeString(file, "{\"reader\": {\"trackers\": {\"publicUrl\": \"https://manga.example.org/\", "
        + "\"anilist\": {\"clientId\": \"4242\"}}}}");
    io.mangacircus.reader.TrackersConfig trackers = loader.load(Optional.of(file),
        Map.of("MANGACIRCUS_ANILIST_CLIENT_SECRET", "from-the-environment"), CommandLineOverrides.none()).reader()
        .trackers();
    assertThat(trackers.anilist().enabled()).as("a client id enables a tracker").isTrue();
    assertThat(trackers.anilist().clientSecret()).isEqualTo("from-the-environment");
    assertThat(trackers.publicUrl()).isEqualTo("https://manga.example.org");
    assertThat(trackers.mangaupdates().enabled()).isFalse();
    assertThat(trackers.toString()).doesNotContain("from-the-environment");

    assertKey(catchThrowable("{\"reader\": {\"trackers\": {\"anilist\": {\"clientId\": \"4242\"}}}}"),
        "reader.trackers.publicUrl");
    assertKey(catchThrowable("{\"reader\": {\"trackers\": {\"kitsu\": {\"enabled\": true}}}}"),
        "reader.trackers.kitsu.clientId");
    assertKey(catchThrowable("{\"reader\": {\"trackers\": {\"mangaupdates\": {\"enabled\": true, "
        + "\"requestsPerMinute\": 0}}}}"), "reader.trackers.mangaupdates.requestsPerMinute");
    assertKey(catchThrowable("{\"reader\": {\"trackers\": {\"mangaupdates\": {\"enabled\": true, "
        + "\"apiUrl\": \"api.mangaupdates.com\"}}}}"), "reader.trackers.mangaupdates.apiUrl");
  }

  @Test
  void singleSignOnIsOffByDefaultAndItsBadKeysAreNamed() throws Exception {
    assertThat(loadFile("{}").reader().oidc()).isNull();
    io.mangacircus.reader.accounts.oidc.OidcConfig oidc = loadFile("{\"reader\": {\"oidc\": {\"issuer\": "
        + "\"https://auth.example.org/\", \"clientId\": \"mangacircus\", \"clientSecretEnv\": \"MC_OIDC_SECRET\", "
        + "\"adminClaim\": \"groups\", \"adminValues\": [\"mc-admins\"], \"passwordLogin\": false}}}").reader().oidc();
    assertThat(oidc.issuer()).isEqualTo("https://auth.example.org");
    assertThat(oidc.passwordLogin()).isFalse();
    assertThat(oidc.scopes()).containsExactly("openid", "profile", "email");

    assertKey(catchThrowable("{\"reader\": {\"oidc\": {\"clientId\": \"mc\"}}}"), "reader.oidc.issuer");
    assertKey(catchThrowable("{\"reader\": {\"oidc\": {\"issuer\": \"https://a.example\"}}}"),
        "reader.oidc.clientId");
    assertKey(catchThrowable("{\"reader\": {\"oidc\": {\"issuer\": \"https://a.example\", \"clientId\": \"mc\", "
        + "\"clientSecret\": \"inline\"}}}"), "reader.oidc.clientSecret");
    assertKey(catchThrowable("{\"reader\": {\"oidc\": {\"issuer\": \"https://a.example\", \"clientId\": \"mc\", "
        + "\"scopes\": [\"profile\"]}}}"), "reader.oidc.scopes");
  }

  @Test
  void anHtmlSourceIsCheckedWithItsDefinitionAtLoadTime() throws Exception {
    MangaCircusConfig config = loadFile("{\"scraper\": {\"sources\": {\"mangapill\": {\"type\": \"html\", "
        + "\"options\": {\"definition\": \"classpath:/sources/mangapill.json\"}}}}}");
    assertThat(config.scraper().sources().get("mangapill").defaulted()).containsExactlyInAnyOrder("pageDelayMs",
        "chapterDelayMs");

    Files.writeString(dir.resolve("broken.json"), "{\"name\": \"Broken\", \"baseUrl\": \"https://x.test\", "
        + "\"titleUrl\": \"/m/{titleId}\", \"chapterUrl\": \"/c/{chapterId}\", \"title\": {\"selector\": \"h1\"}, "
        + "\"chapters\": {\"item\": \"li\", \"id\": {}, \"number\": {}}, \"pages\": {\"imgae\": \"img\"}}");
    Throwable broken = catchThrowable("{\"scraper\": {\"sources\": {\"site\": {\"type\": \"html\", "
        + "\"options\": {\"definition\": \"" + dir.resolve("broken.json") + "\"}}}}}");
    assertKey(broken, "scraper.sources.site.options.definition");
    assertThat(broken).hasMessageContaining("broken.json: pages.imgae: is not a known key");

    assertKey(catchThrowable("{\"scraper\": {\"sources\": {\"site\": {\"type\": \"html\"}}}}"),
        "scraper.sources.site.options.definition");
    assertKey(catchThrowable("{\"scraper\": {\"sources\": {\"site\": {\"type\": \"html\", "
        + "\"defaulted\": [], \"options\": {\"definition\": \"classpath:/sources/mangapill.json\"}}}}}"),
        "scraper.sources.site.defaulted");
  }

  @Test
  void aMangaDexSourceNeedsNoBaseUrlAndTakesItsOptions() throws Exception {
    MangaCircusConfig config = loadFile("{\"scraper\": {\"sources\": {\"mangadex\": {\"type\": \"mangadex\", "
        + "\"options\": {\"dataSaver\": true}}}}}");

    assertThat(config.scraper().sources().get("mangadex").baseUrl()).isEmpty();
    assertThat(config.scraper().sources().get("mangadex").options()).containsEntry("dataSaver", true);
  }

  @Test
  void aSourcesPageValidationIsStructureOrDecodeAndAnythingElseIsNamed() throws Exception {
    MangaCircusConfig config = loadFile("{\"scraper\": {\"sources\": {\"md\": {\"type\": \"mangadex\"}, "
        + "\"careful\": {\"type\": \"mangadex\", \"validation\": \"decode\"}, "
        + "\"quick\": {\"type\": \"mangadex\", \"validation\": \"structure\"}}}}");

    assertThat(config.scraper().sources().get("md").validation()).isEqualTo("structure");
    assertThat(config.scraper().sources().get("careful").validation()).isEqualTo("decode");
    assertThat(config.scraper().sources().get("quick").validation()).isEqualTo("structure");
    Throwable typo = catchThrowable("{\"scraper\": {\"sources\": {\"md\": {\"type\": \"mangadex\", "
        + "\"validation\": \"full\"}}}}");
    assertKey(typo, "scraper.sources.md.validation");
    assertThat(typo).hasMessageContaining("must be \"structure\"").hasMessageContaining("or \"decode\"")
        .hasMessageEndingWith("got \"full\"");
  }

  @Test
  void aMangaDexOptionThatIsUnknownOrOfTheWrongTypeIsNamed() {
    assertKey(catchThrowable("{\"scraper\": {\"sources\": {\"md\": {\"type\": \"mangadex\", "
        + "\"options\": {\"dataSaving\": true}}}}}"), "scraper.sources.md.options.dataSaving");
    assertKey(catchThrowable("{\"scraper\": {\"sources\": {\"md\": {\"type\": \"mangadex\", "
        + "\"options\": {\"feedPageSize\": 1000}}}}}"), "scraper.sources.md.options.feedPageSize");
    assertKey(catchThrowable("{\"scraper\": {\"sources\": {\"md\": {\"type\": \"mangadex\", "
        + "\"baseUrl\": \"api.mangadex.org\"}}}}"), "scraper.sources.md.baseUrl");
  }

  @Test
  void aBadEnvironmentValueNamesTheVariableAndTheKey() {
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> loader.load(Optional.empty(),
        Map.of("MANGACIRCUS_PORT", "eighty"), CommandLineOverrides.none()));

    assertThat(thrown).hasMessageContaining("http.port").hasMessageContaining("MANGACIRCUS_PORT");
  }

  @Test
  void aFileThatIsNotJsonIsNamedWithItsLine() throws Exception {
    Path file = dir.resolve("broken.json");
    Files.writeString(file, "{\n  \"http\": {\n    \"port\": 80,,\n  }\n}");

    assertThatThrownBy(() -> loader.load(Optional.of(file), Map.of(), CommandLineOverrides.none()))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("line 3");
  }

  @Test
  void aBinaryFileIsNamedAndSaidToBeNeitherUtf8NorJson() throws Exception {
    Path file = dir.resolve("garbage.json");
    Files.write(file, new byte[] {'{', '"', 'a', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, 0, 1, 2});

    assertThatThrownBy(() -> loader.load(Optional.of(file), Map.of(), CommandLineOverrides.none()))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("invalid configuration: " + file + ": the config file is not valid UTF-8 text (byte 0xC3 at offset "
            + "3), so it cannot be JSON: is it the right file, or saved in another encoding?")
        .hasMessageNotContaining("Input length");
  }

  @Test
  void aMissingConfigFileIsAnError() {
    assertThatThrownBy(() -> loader.load(Optional.of(dir.resolve("absent.json")), Map.of(),
        CommandLineOverrides.none())).hasMessageContaining("does not exist");
  }

  @Test
  void proxiesAreReadPerSourceAndForAllAndEveryBadValueIsNamedByItsFullKeyWithoutItsSecret() throws Exception {
    MangaCircusConfig config = loadFile("{\"scraper\": {\"proxy\": {\"url\": \"http://127.0.0.1:3128\", "
        + "\"noProxy\": [\"*.lan\"]}, \"sources\": {\"md\": {\"type\": \"mangadex\", \"proxy\": {\"url\": \"none\"}}, "
        + "\"md2\": {\"type\": \"mangadex\"}}}}");

    assertThat(config.scraper().proxy().url()).isEqualTo("http://127.0.0.1:3128");
    assertThat(config.scraper().proxy().noProxy()).containsExactly("*.lan");
    assertThat(config.scraper().sources().get("md").proxy().saysNone()).isTrue();
    assertThat(config.scraper().sources().get("md2").proxy()).isNull();

    Throwable inline = catchThrowable("{\"scraper\": {\"sources\": {\"md\": {\"type\": \"mangadex\", \"proxy\": "
        + "{\"url\": \"socks5://127.0.0.1:1080\", \"username\": \"u\", \"password\": \"inline-secret-42\"}}}}}");
    assertKey(inline, "scraper.sources.md.proxy.password");
    assertThat(inline).hasMessageNotContaining("inline-secret-42");
    Throwable inUrl = catchThrowable("{\"scraper\": {\"proxy\": {\"url\": \"http://u:url-secret-42@127.0.0.1:3128\"}}}");
    assertKey(inUrl, "scraper.proxy.url");
    assertThat(inUrl).hasMessageNotContaining("url-secret-42");
    assertKey(catchThrowable("{\"scraper\": {\"proxy\": {\"url\": \"https://127.0.0.1:3128\"}}}"), "scraper.proxy.url");
    assertKey(catchThrowable("{\"scraper\": {\"proxy\": {\"url\": \"http://127.0.0.1:3128\", \"username\": \"u\", "
        + "\"passwordEnv\": \"MANGACIRCUS_TEST_PROXY_PASSWORD_NEVER_SET\"}}}"), "scraper.proxy.passwordEnv");
    assertKey(catchThrowable("{\"scraper\": {\"proxy\": {\"url\": \"http://127.0.0.1:3128\", \"passwrd\": \"x\"}}}"),
        "scraper.proxy.passwrd");
  }

  @Test
  void tokensNeverAppearInTheConfigsText() throws Exception {
    MangaCircusConfig config = loadFile("{\"metrics\": {\"token\": \"m-secret-1-0123456789abc\"}, \"reader\": {\"adminToken\": \"a-secret-2-0123456789abc\"}}");

    assertThat(config.toString()).doesNotContain("m-secret-1-0123456789abc").doesNotContain("a-secret-2-0123456789abc");
  }

  @Test
  void aBearerTokenShorterThan24CharactersIsRefusedAtStart() {
    Throwable admin = org.assertj.core.api.Assertions.catchThrowable(() -> loader.load(Optional.empty(),
        Map.of("MANGACIRCUS_ADMIN_TOKEN", "change-me"), CommandLineOverrides.none()));
    Throwable metrics = catchThrowable("{\"metrics\": {\"token\": \"twenty-three-characters\"}}");

    assertKey(admin, "reader.adminToken");
    assertThat(admin).hasMessageContaining("at least 24").hasMessageNotContaining("change-me");
    assertKey(metrics, "metrics.token");
    assertThat(metrics).hasMessageContaining("is 23 characters long");
  }

  @Test
  void trustProxyListsProxyAddressesAndFalseStillMeansNone() throws Exception {
    assertThat(loadFile("{\"reader\": {\"trustProxy\": false}}").reader().trustProxy()).isEmpty();
    assertThat(loadFile("{\"reader\": {\"trustProxy\": [\"127.0.0.1\", \"172.16.0.0/12\"]}}").reader()
        .trustedProxies().trusts("172.18.0.2")).isTrue();
    Throwable yes = catchThrowable("{\"reader\": {\"trustProxy\": true}}");
    assertKey(yes, "reader.trustProxy");
    assertThat(yes).hasMessageContaining("[\"127.0.0.1\"]");
    assertKey(catchThrowable("{\"reader\": {\"trustProxy\": [\"proxy.local\"]}}"), "reader.trustProxy");
  }

  @Test
  void anInitialAdminPasswordOfOnlySpacesIsRefused() {
    assertKey(catchThrowable("{\"reader\": {\"initialAdminPassword\": \"          \"}}"),
        "reader.initialAdminPassword");
  }

  private Throwable catchThrowable(String json) {
    return org.assertj.core.api.Assertions.catchThrowable(() -> loadFile(json));
  }
}
