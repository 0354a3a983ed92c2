package io.mangacircus.reader.accounts;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An admin reads and sets what an account may see, against the real reader; bad values are refused with a reason. */
class UserAccessRoutesTest {

  private static final String RITA = "/api/admin/users/rita/access";

  @TempDir
  Path data;

  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;

  @BeforeEach
  void start() throws Exception {
    // A collection named "comics" beside the data folder: only configured libraries can be given to an account.
    java.nio.file.Path comics = java.nio.file.Files.createDirectories(data.resolveSibling(data.getFileName() + "-comics"));
    reader = ReaderUnderTest.withCollections(data.resolve("data"), java.util.List.of(
        new io.mangacircus.reader.LibraryConfig("comics", "collection", comics.toString(), 0, false)));
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
    reader.createReader(admin, "rita", "rita-reads-a-lot-of-manga");
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  @Test
  void aNewAccountSeesEveryLibraryWithoutAnAgeLimit() throws Exception {
    HttpResponse<String> answer = reader.text(as(admin, reader.get(RITA)));

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(new JsonObject(answer.body())).isEqualTo(new JsonObject().put("username", "rita")
        .put("libraries", "all").put("ageLimit", "none").put("unratedShown", true).put("seesEverything", true));
  }

  @Test
  void anAdminRestrictsAnAccountAndTheUsersListShowsIt() throws Exception {
    HttpResponse<String> set = put(RITA, new JsonObject().put("libraries", new JsonArray().add("downloads")
        .add("comics")).put("ageLimit", "12+"));

    assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    JsonObject expected = new JsonObject().put("username", "rita")
        .put("libraries", new JsonArray().add("comics").add("downloads")).put("ageLimit", "12")
        .put("unratedShown", false).put("seesEverything", false);
    assertThat(new JsonObject(set.body())).isEqualTo(expected);
    assertThat(new JsonObject(reader.text(as(admin, reader.get(RITA))).body())).isEqualTo(expected);
    JsonObject list = new JsonObject(reader.text(as(admin, reader.get("/api/admin/users"))).body());
    assertThat(list.getJsonArray("users").stream().map(JsonObject.class::cast)
        .filter(u -> u.getString("username").equals("rita")).findFirst().orElseThrow().getJsonObject("access"))
        .isEqualTo(expected);

    HttpResponse<String> back = put(RITA, new JsonObject().put("libraries", "all").put("ageLimit", "none"));
    assertThat(new JsonObject(back.body()).getBoolean("seesEverything")).as(back.body()).isTrue();
  }

  @Test
  void unratedSeriesAreShownOnlyWhenTheAdminSaysSo() throws Exception {
    HttpResponse<String> set = put(RITA, new JsonObject().put("libraries", "all").put("ageLimit", "15")
        .put("unratedShown", true));

    assertThat(new JsonObject(set.body()).getBoolean("unratedShown")).as(set.body()).isTrue();
  }

  @Test
  void anAdminSeesEverythingWhateverTheirAccessSays() throws Exception {
    HttpResponse<String> set = put("/api/admin/users/admin/access", new JsonObject()
        .put("libraries", new JsonArray()).put("ageLimit", "all"));

    assertThat(new JsonObject(set.body()).getBoolean("seesEverything")).as(set.body()).isTrue();
  }

  @Test
  void unknownValuesAreRefusedWithWhatIsAccepted() throws Exception {
    assertRefused(new JsonObject().put("libraries", "some").put("ageLimit", "none"),
        "or a list of up to 100 library names");
    assertRefused(new JsonObject().put("libraries", new JsonArray().add("Comics")).put("ageLimit", "none"),
        "a-z, 0-9");
    assertRefused(new JsonObject().put("libraries", new JsonArray().add(7)).put("ageLimit", "none"), "a-z, 0-9");
    assertRefused(new JsonObject().put("libraries", new JsonArray().add("manga")).put("ageLimit", "none"),
        "no library named manga");
    assertRefused(new JsonObject().put("libraries", "all").put("ageLimit", "13"), "none, all, 9, 12, 15 or 18");
    assertRefused(new JsonObject().put("libraries", "all"), "ageLimit");
    assertRefused(new JsonObject().put("libraries", "all").put("ageLimit", "9").put("unratedShown", "yes"),
        "true or false");

    assertThat(new JsonObject(reader.text(as(admin, reader.get(RITA))).body()).getString("libraries"))
        .as("nothing changed").isEqualTo("all");
  }

  @Test
  void anUnknownUserIsNotFound() throws Exception {
    assertThat(reader.text(as(admin, reader.get("/api/admin/users/nobody/access"))).statusCode()).isEqualTo(404);
    assertThat(put("/api/admin/users/nobody/access", new JsonObject().put("libraries", "all")
        .put("ageLimit", "none")).statusCode()).isEqualTo(404);
  }

  @Test
  void onlyAnAdminWithTheCsrfTokenMayReadOrChangeAccess() throws Exception {
    ReaderUnderTest.Session rita = reader.login("rita", "rita-reads-a-lot-of-manga");
    String body = new JsonObject().put("libraries", "all").put("ageLimit", "none").encode();

    assertThat(reader.text(as(rita, reader.get(RITA))).statusCode()).isEqualTo(403);
    assertThat(reader.text(as(rita, reader.request("PUT", RITA, body))).statusCode()).isEqualTo(403);
    assertThat(reader.text(reader.request("PUT", RITA, body).header("Cookie", admin.cookie())).statusCode())
        .as("without the CSRF token").isEqualTo(403);
  }

  private void assertRefused(JsonObject body, String reason) throws Exception {
    HttpResponse<String> answer = put(RITA, body);
    assertThat(answer.statusCode()).as(body.encode() + " -> " + answer.body()).isEqualTo(400);
    assertThat(answer.body()).as(body.encode()).contains(reason);
  }

  private HttpResponse<String> put(String path, JsonObject body) throws Exception {
    return reader.text(as(admin, reader.request("PUT", path, body.encode())));
  }
}
