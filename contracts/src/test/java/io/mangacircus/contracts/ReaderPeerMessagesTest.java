package io.mangacircus.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The messages readers publish to each other: round trips, the wire names of their kinds, and refused bodies. */
class ReaderPeerMessagesTest {

  private static final Instant AT = Instant.parse("2026-12-04T23:00:00.123Z");

  private static void malformed(Runnable read, String field) {
    assertThatThrownBy(read::run).isInstanceOfSatisfying(InvalidMessageException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_MESSAGE)).hasMessageContaining(field);
  }

  @Test
  void sessionEndedSurvivesARoundTripAndNeedsTheTokenHash() {
    SessionEnded ended = new SessionEnded("reader-a", "ab".repeat(32));

    assertThat(SessionEnded.fromJson(ended.toJson())).isEqualTo(ended);
    malformed(() -> SessionEnded.fromJson(new JsonObject().put("v", 1).put("from", "reader-a")), "'tokenHash'");
    malformed(() -> SessionEnded.fromJson(new JsonObject().put("v", 1).put("from", "a").put("tokenHash", "x".repeat(129))),
        "'tokenHash'");
  }

  @Test
  void accountsChangedCarriesItsChangeByWireName() {
    AccountsChanged changed = new AccountsChanged("reader-a", AccountsChanged.Change.CREDENTIALS);

    assertThat(changed.toJson().getString("change")).isEqualTo("credentials");
    assertThat(AccountsChanged.fromJson(changed.toJson())).isEqualTo(changed);
    assertThat(AccountsChanged.fromJson(new JsonObject().put("v", 1).put("from", "b").put("change", "access")).change())
        .isEqualTo(AccountsChanged.Change.ACCESS);
    malformed(() -> AccountsChanged.fromJson(new JsonObject().put("v", 1).put("from", "b").put("change", "roles")),
        "'change'");
    malformed(() -> AccountsChanged.fromJson(new JsonObject().put("v", 1).put("change", "access")), "'from'");
  }

  @Test
  void loginAttemptedKeepsItsInstantToTheMillisecondAndItsStep() {
    LoginAttempted attempt = new LoginAttempted("reader-a", "10.0.0.7", "alice", AT, LoginAttempted.Step.BEGUN);

    JsonObject json = attempt.toJson();
    assertThat(json.getString("step")).isEqualTo("begun");
    assertThat(json.getString("at")).isEqualTo("2026-12-04T23:00:00.123Z");
    assertThat(LoginAttempted.fromJson(json)).isEqualTo(attempt);
    assertThat(LoginAttempted.fromJson(new LoginAttempted("r", "c", "\u0000admin-token", AT,
        LoginAttempted.Step.ABANDONED).toJson()).user()).isEqualTo("\u0000admin-token");
  }

  @Test
  void loginAttemptedWithoutItsFieldsOrWithAnUnknownStepIsMalformed() {
    JsonObject json = new LoginAttempted("reader-a", "10.0.0.7", "alice", AT, LoginAttempted.Step.SUCCEEDED).toJson();

    malformed(() -> LoginAttempted.fromJson(json.copy().put("step", "guessed")), "'step'");
    malformed(() -> LoginAttempted.fromJson(json.copy().put("at", "yesterday")), "'at'");
    malformed(() -> LoginAttempted.fromJson(json.copy().putNull("client")), "'client'");
    JsonObject noUser = json.copy();
    noUser.remove("user");
    malformed(() -> LoginAttempted.fromJson(noUser), "'user'");
  }

  @Test
  void seriesMergesChangedSurvivesARoundTripAndNeedsItsSender() {
    SeriesMergesChanged changed = new SeriesMergesChanged("reader-a");

    assertThat(SeriesMergesChanged.fromJson(changed.toJson())).isEqualTo(changed);
    malformed(() -> SeriesMergesChanged.fromJson(new JsonObject().put("v", 1)), "'from'");
    malformed(() -> SeriesMergesChanged.fromJson(new JsonObject().put("v", 1).put("from", "r".repeat(101))), "'from'");
  }

  @Test
  void catalogChangedSurvivesARoundTripAndNeedsItsSender() {
    CatalogChanged changed = new CatalogChanged("reader-a");

    assertThat(CatalogChanged.fromJson(changed.toJson())).isEqualTo(changed);
    malformed(() -> CatalogChanged.fromJson(new JsonObject().put("v", 1)), "'from'");
    malformed(() -> CatalogChanged.fromJson(new JsonObject().put("v", 1).put("from", "r".repeat(101))), "'from'");
  }

  @Test
  void readingChangedSurvivesARoundTripAndNeedsItsSenderAndAUser() {
    ReadingChanged changed = new ReadingChanged("reader-a", 42);

    assertThat(ReadingChanged.fromJson(changed.toJson())).isEqualTo(changed);
    malformed(() -> ReadingChanged.fromJson(new JsonObject().put("v", 1).put("userId", 42)), "'from'");
    malformed(() -> ReadingChanged.fromJson(new JsonObject().put("v", 1).put("from", "reader-a").put("userId", 0)),
        "'userId'");
  }
}
