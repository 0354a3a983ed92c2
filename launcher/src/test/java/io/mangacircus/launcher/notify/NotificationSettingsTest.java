package io.mangacircus.launcher.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.launcher.config.NotificationsConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Settings page's edits: merged over the config file (which wins and stays read-only), secrets kept when left
 * blank and never in the view, every value checked with a message naming the field; the saved file owner-only and a
 * corrupt one refused and left as it is.
 */
class NotificationSettingsTest {

  @TempDir
  Path data;

  private static final NotificationsConfig.Destination FILE_PHONE = new NotificationsConfig.Destination("phone",
      "ntfy", "https://ntfy.example.org", "file-topic", "", null, 30);

  private static NotificationsConfig fromFile(NotificationsConfig.Heartbeat heartbeat,
      NotificationsConfig.Destination... destinations) {
    return new NotificationsConfig("https://manga.example.org", 500, 15, 10,
        new NotificationsConfig.Retry(10, 2.0, 900, 20), heartbeat, List.of(destinations), List.of());
  }

  private final NotificationSettings settings = new NotificationSettings(fromFile(
      new NotificationsConfig.Heartbeat("", 300), FILE_PHONE));

  private static JsonObject ntfy(String topic, String token) {
    return new JsonObject().put("type", "ntfy").put("url", "https://ntfy.sh").put("topic", topic).put("token", token)
        .put("events", new JsonArray().add("incident").add("new-chapters"));
  }

  @Test
  void savedDestinationsComeAfterTheConfigFilesAndTheConfigFileHeartbeatWins() {
    SettingsFile.Saved saved = settings.putDestination(SettingsFile.Saved.NONE, "laptop", ntfy("saved-topic", ""));
    saved = settings.putHeartbeat(saved, new JsonObject().put("url", "https://hc-ping.com/uuid").put("intervalSeconds",
        60));
    NotificationsConfig merged = settings.merged(saved);
    assertThat(merged.destinations()).extracting(NotificationsConfig.Destination::name).containsExactly("phone",
        "laptop");
    assertThat(merged.heartbeat().url()).isEqualTo("https://hc-ping.com/uuid");

    NotificationSettings withFileHeartbeat = new NotificationSettings(fromFile(
        new NotificationsConfig.Heartbeat("https://file.example/ping", 300), FILE_PHONE));
    assertThat(withFileHeartbeat.merged(saved).heartbeat().url()).isEqualTo("https://file.example/ping");
    assertThatThrownBy(() -> withFileHeartbeat.putHeartbeat(SettingsFile.Saved.NONE, new JsonObject().put("url",
        "https://x.example/p"))).isInstanceOfSatisfying(NotificationSettings.Refused.class,
            r -> assertThat(r.reason()).isEqualTo(NotificationSettings.Refusal.READ_ONLY))
        .hasMessageContaining("config file");
  }

  @Test
  void aConfigFileDestinationIsReadOnly() {
    assertThatThrownBy(() -> settings.putDestination(SettingsFile.Saved.NONE, "phone", ntfy("t", "")))
        .isInstanceOfSatisfying(NotificationSettings.Refused.class,
            r -> assertThat(r.reason()).isEqualTo(NotificationSettings.Refusal.READ_ONLY))
        .hasMessage("destination \"phone\" is set in the config file (notifications.destinations); change it there");
    assertThatThrownBy(() -> settings.removeDestination(SettingsFile.Saved.NONE, "phone"))
        .isInstanceOf(NotificationSettings.Refused.class).hasMessageContaining("remove it there");
  }

  @Test
  void anEditThatLeavesASecretBlankKeepsItAndTheViewNeverShowsOne() {
    SettingsFile.Saved saved = settings.putDestination(SettingsFile.Saved.NONE, "laptop",
        ntfy("secret-topic", "tk_secret"));
    saved = settings.putDestination(saved, "laptop", new JsonObject().put("type", "ntfy").put("url", "")
        .put("topic", "").put("token", "  ").put("events", new JsonArray().add("circuit")).put("maxPerHour", 5));
    NotificationsConfig.Destination laptop = saved.destinations().get(0);
    assertThat(laptop.topic()).isEqualTo("secret-topic");
    assertThat(laptop.token()).isEqualTo("tk_secret");
    assertThat(laptop.url()).isEqualTo("https://ntfy.sh");
    assertThat(laptop.events()).isEqualTo(Set.of("circuit"));
    assertThat(laptop.maxPerHour()).isEqualTo(5);

    JsonObject view = settings.view(saved, null);
    assertThat(view.encode()).doesNotContain("secret-topic", "tk_secret", "ntfy.sh", "ntfy.example.org",
        "file-topic");
    JsonObject shown = view.getJsonArray("destinations").getJsonObject(1);
    assertThat(shown.getString("origin")).isEqualTo("settings");
    assertThat(shown.getString("token")).isEqualTo("set");
    assertThat(view.getJsonArray("destinations").getJsonObject(0).getString("origin")).isEqualTo("config");

    SettingsFile.Saved without = settings.putDestination(saved, "laptop", new JsonObject().put("removeToken", true));
    assertThat(without.destinations().get(0).token()).isEmpty();
  }

  @Test
  void aSavedTokenOrTopicIsNeverKeptForAnotherServer() {
    SettingsFile.Saved saved = settings.putDestination(SettingsFile.Saved.NONE, "laptop",
        ntfy("secret-topic", "tk_secret"));
    JsonObject elsewhere = new JsonObject().put("type", "ntfy").put("url", "https://attacker.example");

    assertThatThrownBy(() -> settings.putDestination(saved, "laptop", elsewhere.copy()))
        .isInstanceOfSatisfying(NotificationSettings.Refused.class, e -> {
          assertThat(e.reason()).isEqualTo(NotificationSettings.Refusal.INVALID);
          assertThat(e.getMessage()).startsWith("token: the url now points to another server")
              .doesNotContain("tk_secret", "attacker.example");
        });
    assertThatThrownBy(() -> settings.putDestination(saved, "laptop", elsewhere.copy().put("token", "tk_new")))
        .hasMessageStartingWith("topic: the url now points to another server");

    NotificationsConfig.Destination moved = settings.putDestination(saved, "laptop", elsewhere.copy()
        .put("topic", "new-topic").put("removeToken", true)).destinations().get(0);
    assertThat(moved.url()).isEqualTo("https://attacker.example");
    assertThat(moved.token()).isEmpty();
    assertThat(moved.topic()).isEqualTo("new-topic");
    NotificationsConfig.Destination samePlace = settings.putDestination(saved, "laptop", new JsonObject()
        .put("url", "https://NTFY.sh:443/")).destinations().get(0);
    assertThat(samePlace.token()).as("the same server, written differently").isEqualTo("tk_secret");
    assertThat(samePlace.topic()).isEqualTo("secret-topic");
  }

  @Test
  void badValuesAreRefusedNamingTheField() {
    assertRefused(new JsonObject().put("type", "ntfy").put("url", "ftp://x").put("topic", "t"),
        "url must be an http(s) address");
    assertRefused(new JsonObject().put("type", "ntfy").put("url", "https://ntfy.sh"),
        "topic is missing: an ntfy destination needs its topic");
    assertRefused(new JsonObject().put("type", "gotify").put("url", "https://gotify.example.org"),
        "token is missing: a Gotify destination needs its application token");
    assertRefused(ntfy("t", "").put("events", new JsonArray().add("incident").add("lunch")),
        "events: \"lunch\" is not an event kind; the kinds are incident, repair-required, circuit, quarantined, "
            + "corrupt-state, memory-yield, new-chapters");
    assertRefused(new JsonObject().put("type", "pager").put("url", "https://x.example"),
        "type must be \"ntfy\", \"gotify\" or \"webhook\"");
    assertRefused(ntfy("t", "").put("maxPerHour", 0), "maxPerHour must be between 1 and 3600");
    assertThatThrownBy(() -> settings.putDestination(SettingsFile.Saved.NONE, "bad name!", ntfy("t", "")))
        .hasMessageStartingWith("name must be");
    assertThatThrownBy(() -> settings.putHeartbeat(SettingsFile.Saved.NONE, new JsonObject().put("url",
        "https://hc-ping.com/x").put("intervalSeconds", 0)))
        .hasMessage("intervalSeconds must be between 1 and 86400");
    assertThatThrownBy(() -> settings.removeDestination(SettingsFile.Saved.NONE, "nobody"))
        .isInstanceOfSatisfying(NotificationSettings.Refused.class,
            r -> assertThat(r.reason()).isEqualTo(NotificationSettings.Refusal.NOT_FOUND));
  }

  private void assertRefused(JsonObject body, String message) {
    assertThatThrownBy(() -> settings.putDestination(SettingsFile.Saved.NONE, "laptop", body))
        .isInstanceOfSatisfying(NotificationSettings.Refused.class,
            r -> assertThat(r.reason()).isEqualTo(NotificationSettings.Refusal.INVALID))
        .hasMessage(message);
  }

  @Test
  void theSavedFileRoundTripsAndIsOwnerOnly() throws Exception {
    SettingsFile file = new SettingsFile(data.resolve("notifications"));
    assertThat(file.load()).isEqualTo(SettingsFile.Saved.NONE);
    SettingsFile.Saved saved = settings.putHeartbeat(settings.putDestination(SettingsFile.Saved.NONE, "laptop",
        ntfy("t", "tk")), new JsonObject().put("url", "https://hc-ping.com/u"));
    file.save(saved);
    assertThat(file.load()).isEqualTo(saved);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.path()))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.path().getParent())))
        .isEqualTo("rwx------");
  }

  @Test
  void aCorruptSavedFileIsRefusedNamingItAndLeftUntouched() throws Exception {
    Path folder = Files.createDirectories(data.resolve("notifications"));
    SettingsFile file = new SettingsFile(folder);
    Files.writeString(file.path(), "{\"schema\":1,\"destinations\":[");
    assertThatThrownBy(file::load).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining(file.path().toString()).hasMessageContaining("not valid JSON");
    String bad = "{\"schema\":1,\"destinations\":[{\"name\":\"x\",\"type\":\"ntfy\",\"url\":\"nope\",\"topic\":\"t\"}]}";
    Files.writeString(file.path(), bad);
    assertThatThrownBy(file::load).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("notifications.destinations[0].url");
    assertThat(Files.readString(file.path())).isEqualTo(bad);
  }
}
