package io.mangacircus.reader.alerts;

import static io.mangacircus.reader.ReaderUnderTest.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.ReaderUnderTest;
import io.mangacircus.testing.LibraryFixture;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader's series subscriptions over HTTP: only a series the library serves, at most
 * {@link ChapterAlerts#MAX_SERIES_PER_USER} a user, and ending one always works.
 */
class SeriesAlertRoutesTest {

  @TempDir
  Path data;

  private ReaderUnderTest reader;
  private ReaderUnderTest.Session admin;

  @BeforeEach
  void start() throws Exception {
    new LibraryFixture(data).chapter("moon", "Moon Circus", 1, 1, Instant.parse("2026-01-02T03:04:05Z"));
    reader = ReaderUnderTest.start(data);
    admin = reader.login("admin", ReaderUnderTest.ADMIN_PASSWORD);
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
  }

  private HttpResponse<String> subscribe(String method, String series) throws Exception {
    return reader.text(as(admin, reader.request(method, "/api/me/alerts/series/" + series, null)));
  }

  @Test
  void aSeriesTheLibraryDoesNotHoldCannotBeSubscribedToButEndingASubscriptionAlwaysWorks() throws Exception {
    HttpResponse<String> unknown = subscribe("PUT", "no-such-series");
    assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(404);

    HttpResponse<String> moon = subscribe("PUT", "moon");
    assertThat(moon.statusCode()).as(moon.body()).isEqualTo(200);
    assertThat(new JsonObject(moon.body()).getJsonArray("series")).containsExactly("moon");

    HttpResponse<String> ended = subscribe("DELETE", "no-such-series");
    assertThat(ended.statusCode()).as(ended.body()).isEqualTo(200);
  }

  @Test
  void aUserAtTheLimitOfSubscriptionsIsRefusedANewOne() throws Exception {
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + data.resolve("reader.db"));
        PreparedStatement insert = db.prepareStatement("INSERT INTO series_alerts (user_id, series, created_at)"
            + " SELECT id, ?, '2026-12-01T10:00:00Z' FROM users WHERE username = 'admin'")) {
      db.setAutoCommit(false);
      for (int i = 0; i < ChapterAlerts.MAX_SERIES_PER_USER; i++) {
        insert.setString(1, "gone-" + i);
        insert.addBatch();
      }
      insert.executeBatch();
      db.commit();
    }

    HttpResponse<String> refused = subscribe("PUT", "moon");
    assertThat(refused.statusCode()).as("a subscription beyond the limit").isEqualTo(409);
    assertThat(refused.body()).contains("at most " + ChapterAlerts.MAX_SERIES_PER_USER + " series alerts");

    assertThat(subscribe("DELETE", "gone-7").statusCode()).isEqualTo(200);
    HttpResponse<String> moon = subscribe("PUT", "moon");
    assertThat(moon.statusCode()).as(moon.body()).isEqualTo(200);
  }
}
