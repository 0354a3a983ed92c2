package io.mangacircus.reader.library.providers;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.mangacircus.reader.MetadataProvidersConfig;
import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The admin's metadata-provider routes on the real reader, the providers being WireMock stand-ins. */
class MetadataProviderRoutesTest {

  private static final String CANDIDATES = "/api/admin/metadata/series/one-piece/candidates";
  private static final String APPLY = "/api/admin/metadata/series/one-piece/apply";

  @TempDir
  Path data;

  private final WireMockServer providers = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
  private ReaderUnderTest reader;

  @BeforeEach
  void stubs() {
    providers.start();
    ProviderStubs.aniList(providers);
    ProviderStubs.mangaUpdates(providers);
    new LibraryFixture(data).chapter("one-piece", "One Piece", 1, 1, Instant.parse("2026-01-02T03:04:05Z"));
  }

  @AfterEach
  void stop() throws Exception {
    if (reader != null) {
      reader.close();
    }
    providers.stop();
  }

  private ReaderUnderTest start(boolean enabled) throws Exception {
    reader = ReaderUnderTest.withMetadataProviders(data, new MetadataProvidersConfig(enabled,
        providers.baseUrl() + ProviderStubs.ANILIST_PATH, providers.baseUrl(), 0.9));
    return reader;
  }

  private HttpResponse<String> apply(ReaderUnderTest.Session session, String provider, String id) throws Exception {
    return reader.text(as(session, reader.request("POST", APPLY,
        new JsonObject().put("provider", provider).put("id", id).encode())));
  }

  @Test
  void whileOffTheRoutesSaySoAndNothingIsContacted() throws Exception {
    ReaderUnderTest.Session admin = start(false).login("admin", ReaderUnderTest.ADMIN_PASSWORD);

    HttpResponse<String> candidates = reader.text(as(admin, reader.get(CANDIDATES)));
    HttpResponse<String> applied = apply(admin, "anilist", "30013");

    assertThat(candidates.statusCode()).as(candidates.body()).isEqualTo(409);
    assertThat(new JsonObject(candidates.body()).getString("error")).isEqualTo("metadata_providers_off");
    assertThat(applied.statusCode()).as(applied.body()).isEqualTo(409);
    assertThat(providers.getAllServeEvents()).as("no request reached a provider").isEmpty();
    assertThat(data.resolve(ProviderMetadataStore.FILE)).doesNotExist();
  }

  @Test
  void anAdminGetsScoredCandidatesAndTheAppliedOneIsStored() throws Exception {
    ReaderUnderTest.Session admin = start(true).login("admin", ReaderUnderTest.ADMIN_PASSWORD);

    HttpResponse<String> answer = reader.text(as(admin, reader.get(CANDIDATES)));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    JsonObject candidates = new JsonObject(answer.body());
    assertThat(candidates.getJsonArray("titles").getList()).containsExactly("One Piece");
    assertThat(candidates.getJsonArray("candidates")).hasSize(4);
    JsonObject best = candidates.getJsonArray("candidates").getJsonObject(0);
    assertThat(best.getDouble("score")).isEqualTo(1.0);
    assertThat(best.getBoolean("confident")).isTrue();
    assertThat(candidates.getJsonObject("confident").getDouble("score")).isEqualTo(1.0);
    JsonObject punchMan = candidates.getJsonArray("candidates").stream().map(JsonObject.class::cast)
        .filter(c -> c.getString("id").equals("86635")).findFirst().orElseThrow();
    assertThat(punchMan.getBoolean("confident")).as("only offered: %s", punchMan.getDouble("score")).isFalse();
    assertThat(data.resolve(ProviderMetadataStore.FILE)).as("nothing applied by a search").doesNotExist();

    HttpResponse<String> applied = apply(admin, "mangaupdates", "55099564912");

    assertThat(applied.statusCode()).as(applied.body()).isEqualTo(200);
    ProviderMetadataStore.Applied stored = new ProviderMetadataStore(data).series("one-piece").orElseThrow();
    assertThat(stored.provider()).isEqualTo("mangaupdates");
    assertThat(stored.id()).isEqualTo("55099564912");
    assertThat(stored.metadata().publisher()).isEqualTo("Shueisha");
    assertThat(stored.metadata().authors()).hasSize(2);
    assertThat(new JsonObject(Files.readString(data.resolve(ProviderMetadataStore.FILE))).getInteger("schema"))
        .isEqualTo(ProviderMetadataStore.SCHEMA);
    // The series page shows what was applied where the series has nothing of its own.
    JsonObject metadata = new JsonObject(reader.text(as(admin, reader.get("/api/series/one-piece"))).body())
        .getJsonObject("metadata");
    assertThat(metadata.getString("publisher")).isEqualTo("Shueisha");
    assertThat(metadata.getJsonArray("authors")).hasSize(2);
    assertThat(apply(admin, "anilist", "999").statusCode()).as("an id the provider does not know").isEqualTo(404);
    assertThat(apply(admin, "kitsu", "1").statusCode()).isEqualTo(400);
  }

  @Test
  void aReaderIsRefusedBothRoutes() throws Exception {
    ReaderUnderTest.Session admin = start(true).login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    reader.createReader(admin, "kid", "kid-password-1");
    ReaderUnderTest.Session kid = reader.login("kid", "kid-password-1");

    assertThat(reader.text(as(kid, reader.get(CANDIDATES))).statusCode()).isEqualTo(403);
    assertThat(apply(kid, "anilist", "30013").statusCode()).isEqualTo(403);
    assertThat(providers.getAllServeEvents()).isEmpty();
    assertThat(data.resolve(ProviderMetadataStore.FILE)).doesNotExist();
  }

  @Test
  void aFileThatDoesNotParseIsReportedAndNeverOverwritten() throws Exception {
    byte[] broken = "{\"schema\": 1, \"series\": {".getBytes(StandardCharsets.UTF_8);
    Files.write(data.resolve(ProviderMetadataStore.FILE), broken);
    ReaderUnderTest.Session admin = start(true).login("admin", ReaderUnderTest.ADMIN_PASSWORD);

    HttpResponse<String> applied = apply(admin, "anilist", "30013");

    assertThat(applied.statusCode()).as(applied.body()).isEqualTo(500);
    assertThat(new JsonObject(applied.body()).getString("error")).isEqualTo("metadata_file_unreadable");
    assertThat(Files.readAllBytes(data.resolve(ProviderMetadataStore.FILE))).isEqualTo(broken);
  }
}
