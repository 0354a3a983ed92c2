package io.mangacircus.launcher.reader;

import io.mangacircus.testing.TestImages;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.mangacircus.testing.LibraryFixture;
import io.mangacircus.launcher.testing.ReaderSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the catalog refuses on the real reader, and how: unknown series, damaged covers, bodies that are not JSON. */
class CatalogInputIT {

  private static final String ADMIN_PASSWORD = "admin-pass-123";
  private static final String SERIES = "circus-nights";
  private static final String COVER = "/api/admin/catalog/collections/favourites/cover";

  @TempDir
  Path data;

  private LauncherHarness harness;
  private ReaderSession admin;

  @BeforeEach
  void start() {
    new LibraryFixture(data).chapter(SERIES, "Circus Nights", 1, 2, Instant.parse("2026-11-20T10:00:00Z"));
    harness = LauncherHarness.withAdminPassword(data, ADMIN_PASSWORD).startStandard(Mode.ALL);
    admin = ReaderSession.login(harness.port(), "admin", ADMIN_PASSWORD);
    assertThat(admin.put("/api/admin/catalog/collections/favourites", new JsonObject().put("name", "Favourites")
        .put("series", new JsonArray().add(SERIES))).statusCode()).isEqualTo(200);
  }

  @AfterEach
  void stop() {
    harness.close();
  }


  /** A photo-like JPEG (noise compresses badly, so it is large: about half a megabyte). */
  private static byte[] jpeg() {
    return TestImages.noise("jpg", 800, 1100, 7);
  }

  private static void assertError(HttpResponse<String> answer, int status, String error) {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
    assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(
        type -> assertThat(type).startsWith("application/json"));
    JsonObject body = new JsonObject(answer.body());
    assertThat(body.getString("error")).isEqualTo(error);
    assertThat(body.getString("message")).isNotBlank();
  }

  private JsonObject favourites() {
    return new JsonObject(admin.get("/api/catalog").body()).getJsonArray("collections").getJsonObject(0);
  }

  @Test
  void metadataForASeriesThatIsNotInTheLibraryIsA404AndNothingIsKept() {
    assertError(admin.put("/api/admin/catalog/series/nope", new JsonObject().put("description", "x")), 404,
        "not_found");

    assertThat(new JsonObject(admin.get("/api/catalog").body()).getJsonObject("series").containsKey("nope")).isFalse();
    assertThat(admin.put("/api/admin/catalog/series/" + SERIES, new JsonObject().put("description", "Under canvas."))
        .statusCode()).as("a series in the library still takes metadata").isEqualTo(200);
  }

  @Test
  void aTruncatedJpegCoverIsNotAnImageAndTheCollectionKeepsNoCover() throws Exception {
    byte[] whole = jpeg();
    assertThat(whole.length).isGreaterThan(60_000);

    assertError(admin.putBytes(COVER, "image/jpeg", Arrays.copyOf(whole, 60_000)), 400, "not_an_image");

    assertThat(favourites().getValue("cover")).isNull();
    assertThat(admin.bytes("/api/catalog/collections/favourites/cover").statusCode()).isEqualTo(404);
    assertThat(admin.putBytes(COVER, "image/jpeg", whole).statusCode()).as("the whole file is a cover").isEqualTo(200);
    assertThat(admin.bytes(favourites().getString("cover")).body()).isEqualTo(whole);
  }

  @Test
  void anImageThatDoesNotDecodeIsNotAnImage() {
    byte[] header = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0};
    byte[] garbage = Arrays.copyOf(header, 4096);
    Arrays.fill(garbage, header.length, garbage.length, (byte) 0x5A);

    assertError(admin.putBytes(COVER, "image/jpeg", garbage), 400, "not_an_image");
    assertError(admin.putBytes(COVER, "image/png", "<html>not an image</html>".getBytes()), 400, "not_an_image");
    assertThat(favourites().getValue("cover")).isNull();
  }

  @Test
  void aFormPostAsCurlSendsItByDefaultGetsTheJsonErrorShape() throws Exception {
    // curl -d / --data-binary without -H sends Content-Type: application/x-www-form-urlencoded.
    String form = "application/x-www-form-urlencoded";

    assertError(admin.request("PUT", COVER, jpeg(), "Content-Type", form), 415, "unsupported_media_type");
    assertError(admin.request("PUT", "/api/admin/catalog/series/" + SERIES,
        "{\"description\": \"x\"}".getBytes(), "Content-Type", form), 415, "unsupported_media_type");

    assertThat(favourites().getValue("cover")).isNull();
    assertThat(new JsonObject(admin.get("/api/catalog").body()).getJsonObject("series").containsKey(SERIES))
        .as("nothing was changed").isFalse();
  }
}
