package io.mangacircus.reader.trackers;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.reader.TrackersConfig;
import io.mangacircus.testing.TestPostgres;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two readers on one PostgreSQL database with one tracker key file, nothing else in common: an AniList sign-in started
 * on one finishes on the other, which is where the tracker's redirect may land behind a proxy.
 */
class TrackerSignInAcrossReadersTest {

  @Test
  void aSignInStartedOnOneReaderFinishesOnTheOther(@TempDir Path work) throws Exception {
    TestPostgres.Database database = TestPostgres.freshDatabase();
    Path password = Files.writeString(work.resolve("db-password"), database.password());
    Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    Path keys = Files.createDirectories(work.resolve("keys"));
    new TrackerTokenVault(keys);
    try (AniListFake anilist = new AniListFake()) {
      anilist.signInAccepts("good-code", "anilist-token-of-ayako").viewer(101, "ayako-on-anilist");
      TrackersConfig trackers = new TrackersConfig("https://manga.example.org",
          TrackerSignInRoutesTest.fast(anilist.config()), null, null, null, TrackerTokenVault.keyFile(keys).toString());
      try (ReaderUnderTest a = ReaderUnderTest.withTrackersOnPostgres(work.resolve("reader-a"), trackers,
          database.url(), password);
          ReaderUnderTest b = ReaderUnderTest.withTrackersOnPostgres(work.resolve("reader-b"), trackers,
              database.url(), password)) {
        ReaderUnderTest.Session admin = a.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
        a.createReader(admin, "ayako", "ayako-password-1");
        ReaderUnderTest.Session ayako = a.login("ayako", "ayako-password-1");
        TrackerSignInRoutesTest.SignIn started = TrackerSignInRoutesTest.authorize(a, ayako, "anilist");

        HttpResponse<String> back = TrackerSignInRoutesTest.callback(b, "anilist", "good-code", started.state(),
            started.cookie());

        assertThat(back.statusCode()).as(back.body()).isEqualTo(303);
        assertThat(back.headers().firstValue("Location")).hasValue("/profile.html?tracker=anilist&signedIn=1");
        HttpResponse<String> list = a.text(as(ayako, a.get("/api/me/trackers")));
        JsonObject account = new JsonObject(list.body()).getJsonArray("trackers").getJsonObject(0);
        assertThat(account.getBoolean("signedIn")).as(list.body()).isTrue();
        assertThat(account.getString("account")).isEqualTo("ayako-on-anilist");
      }
    }
  }
}
