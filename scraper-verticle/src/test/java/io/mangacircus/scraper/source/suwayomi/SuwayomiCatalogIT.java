package io.mangacircus.scraper.source.suwayomi;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.Sources;
import io.mangacircus.scraper.source.suwayomi.SuwayomiCatalog.InstalledSource;
import io.mangacircus.scraper.source.suwayomi.SuwayomiOptions.Auth;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The list of a Suwayomi server's installed sources ({@link SuwayomiCatalog}) against the fake Suwayomi server on
 * loopback: the sources in the schema's shape, basic auth, and the server down.
 */
class SuwayomiCatalogIT {

  private static final String PASSWORD = "cat4log-Secret";

  private static SuwayomiFake fake;
  private static Vertx vertx;
  private static WebClient client;

  @BeforeAll
  static void start() {
    fake = new SuwayomiFake();
    vertx = Vertx.vertx();
    client = Sources.client(vertx);
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    fake.stop();
  }

  @BeforeEach
  void resetFake() {
    fake.reset();
  }

  private static FetchOutcome<List<InstalledSource>> list(String baseUrl, SuwayomiOptions credentials)
      throws Exception {
    return SuwayomiCatalog.installedSources(client, baseUrl, credentials, Duration.ofSeconds(10))
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static SuwayomiOptions none() {
    return new SuwayomiOptions(null, Auth.NONE, null, null);
  }

  @Test
  void theServersInstalledSourcesAreListedWithTheirIdsAsTheSchemaSendsThem() throws Exception {
    FetchOutcome<List<InstalledSource>> listed = list(fake.baseUrl() + "/", none());

    assertThat(listed.ok()).as(listed.describe()).isTrue();
    assertThat(listed.value()).containsExactlyInAnyOrderElementsOf(SuwayomiFake.INSTALLED_SOURCES);
    assertThat(listed.value()).filteredOn(s -> s.id().equals(SuwayomiFake.SOURCE_ID)).singleElement()
        .satisfies(s -> {
          assertThat(s.lang()).isEqualTo(SuwayomiFake.LANG);
          assertThat(s.nsfw()).isFalse();
          assertThat(s.extensionPkgName()).isEqualTo("eu.kanade.tachiyomi.extension.fr.lesite");
        });
    assertThat(fake.journal()).extracting(SuwayomiFake.Exchange::operation).containsExactly("InstalledSources");
  }

  @Test
  void anUninstalledExtensionsSourceIsNotListed() throws Exception {
    fake.uninstall();

    FetchOutcome<List<InstalledSource>> listed = list(fake.baseUrl(), none());

    assertThat(listed.value()).extracting(InstalledSource::id).doesNotContain(SuwayomiFake.SOURCE_ID).isNotEmpty();
  }

  @Test
  void basicAuthIsSentAndAWrongPasswordIsAnAccessRefusalWithoutThePassword() throws Exception {
    fake.requireBasicAuth("reader", PASSWORD);

    FetchOutcome<List<InstalledSource>> right = list(fake.baseUrl(),
        new SuwayomiOptions(null, Auth.BASIC, "reader", PASSWORD));
    FetchOutcome<List<InstalledSource>> wrong = list(fake.baseUrl(),
        new SuwayomiOptions(null, Auth.BASIC, "reader", "not-" + PASSWORD));
    FetchOutcome<List<InstalledSource>> without = list(fake.baseUrl(), none());

    assertThat(right.ok()).as(right.describe()).isTrue();
    assertThat(wrong).isInstanceOfSatisfying(FetchOutcome.AccessDenied.class, a -> assertThat(a.status())
        .isEqualTo(401));
    assertThat(wrong.describe()).doesNotContain(PASSWORD);
    assertThat(without).isInstanceOf(FetchOutcome.AccessDenied.class);
  }

  @Test
  void aServerThatIsNotSuwayomiIsNotFoundOrUnreadableNeverAList() throws Exception {
    // The fake answers 404 off its routes, as any web server without Suwayomi's GraphQL endpoint does.
    FetchOutcome<List<InstalledSource>> listed = list(fake.baseUrl() + "/not-suwayomi", none());

    assertThat(listed).isInstanceOf(FetchOutcome.NotFound.class);
  }

  @Test
  void theServerDownIsANetworkError() throws Exception {
    SuwayomiFake down = new SuwayomiFake();
    String baseUrl = down.baseUrl();
    down.stop();

    FetchOutcome<List<InstalledSource>> listed = list(baseUrl, none());

    assertThat(listed).isInstanceOf(FetchOutcome.NetworkError.class);
  }
}
