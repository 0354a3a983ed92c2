package io.mangacircus.reader.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.reader.accounts.ReaderDatabase;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers' new-chapter alerts in a real reader.db: the notifier hears of each user only with the asked series they
 * subscribed to, never of disabled users or users without a target; a target edit that leaves a secret blank keeps it.
 */
class ChapterAlertsTest {

  @TempDir
  Path dir;

  private final Instant now = Instant.parse("2026-12-01T10:00:00Z");

  @Test
  void eachSubscriberIsNamedOnlyWithTheAskedSeriesTheySubscribedTo() throws Exception {
    try (ReaderDatabase db = ReaderDatabase.open(dir.resolve("reader.db"))) {
      long alice = db.createUser("alice", "x", "reader", now);
      long bob = db.createUser("bob", "x", "reader", now);
      long carol = db.createUser("carol", "x", "reader", now);
      long dave = db.createUser("dave", "x", "reader", now);
      db.saveAlertTarget(alice, new ReaderDatabase.AlertTarget("ntfy", "https://ntfy.sh", "alice-topic", ""), now);
      db.saveAlertTarget(bob, new ReaderDatabase.AlertTarget("webhook", "https://hooks.example/bob", "", "b"), now);
      db.saveAlertTarget(carol, new ReaderDatabase.AlertTarget("ntfy", "https://ntfy.sh", "carol", ""), now);
      db.setSeriesAlert(alice, "circus-nights", true, now);
      db.setSeriesAlert(alice, "quiet-town", true, now);
      db.setSeriesAlert(alice, "not-in-this-pass", true, now);
      db.setSeriesAlert(bob, "quiet-town", true, now);
      db.setSeriesAlert(carol, "circus-nights", true, now);
      db.setSeriesAlert(dave, "circus-nights", true, now);
      db.setDisabled("carol", true);

      List<ReaderDatabase.Subscriber> subscribers = db.subscribers(List.of("circus-nights", "quiet-town", "other"));
      assertThat(subscribers).extracting(ReaderDatabase.Subscriber::username).containsExactly("alice", "bob");
      assertThat(subscribers.get(0).series()).containsExactly("circus-nights", "quiet-town");
      assertThat(subscribers.get(0).target().topic()).isEqualTo("alice-topic");
      assertThat(subscribers.get(1).series()).containsExactly("quiet-town");

      db.setSeriesAlert(alice, "circus-nights", false, now);
      assertThat(db.seriesAlerts(alice)).containsExactly("not-in-this-pass", "quiet-town");
      db.deleteAlertTarget(bob);
      assertThat(db.subscribers(List.of("quiet-town"))).extracting(ReaderDatabase.Subscriber::username)
          .containsExactly("alice");
    }
  }

  @Test
  void aTargetEditThatLeavesASecretBlankKeepsItAndBadValuesNameTheField() {
    ReaderDatabase.AlertTarget saved = AlertTargetRules.edit(Optional.empty(), new JsonObject().put("type", "ntfy")
        .put("url", "https://ntfy.example.org").put("topic", "my-topic").put("token", "tk_1"));
    ReaderDatabase.AlertTarget edited = AlertTargetRules.edit(Optional.of(saved), new JsonObject().put("type", "ntfy")
        .put("url", "").put("topic", " ").put("token", ""));
    assertThat(edited).isEqualTo(saved);
    assertThat(edited.toString()).doesNotContain("my-topic", "tk_1", "ntfy.example.org");
    assertThat(AlertTargetRules.edit(Optional.of(saved), new JsonObject().put("removeToken", true)).token()).isEmpty();

    assertThatThrownBy(() -> AlertTargetRules.edit(Optional.empty(), new JsonObject().put("type", "ntfy")
        .put("url", "https://ntfy.sh"))).hasMessage("topic is missing: an ntfy alert needs its topic");
    assertThatThrownBy(() -> AlertTargetRules.edit(Optional.empty(), new JsonObject().put("type", "webhook")
        .put("url", "file:///etc/passwd"))).hasMessage("url must be an http(s) address");
    assertThatThrownBy(() -> AlertTargetRules.edit(Optional.empty(), new JsonObject().put("type", "gotify")
        .put("url", "https://g.example"))).hasMessage("type must be \"ntfy\" or \"webhook\"");
  }
}
