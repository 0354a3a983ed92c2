package io.mangacircus.launcher.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.launcher.config.ConfigLoader.CommandLineOverrides;
import io.mangacircus.launcher.logging.SecretRedactor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code notifications} section: nothing by default, destinations checked by key, secrets never in text. */
class NotificationsConfigTest {

  @TempDir
  Path dir;

  private MangaCircusConfig load(String json) throws Exception {
    Path file = dir.resolve("mangacircus.json");
    Files.writeString(file, json);
    return new ConfigLoader().load(Optional.of(file), Map.of(), CommandLineOverrides.none());
  }

  private void assertKey(String json, String key, String problem) {
    Throwable thrown = catchThrowable(() -> load(json));
    assertThat(thrown).isInstanceOf(InvalidConfigException.class).hasMessageContaining(problem);
    assertThat(((InvalidConfigException) thrown).key()).isEqualTo(key);
  }

  @Test
  void byDefaultNoDestinationAndNoHeartbeatAreConfigured() throws Exception {
    NotificationsConfig n = load("{}").notifications();
    assertThat(n.destinations()).isEmpty();
    assertThat(n.heartbeat().enabled()).isFalse();
    assertThat(n.active()).isFalse();
    assertThat(n.outboxMax()).isEqualTo(500);
    assertThat(n.dedupMinutes()).isEqualTo(15);
    assertThat(n.heartbeat().intervalSeconds()).isEqualTo(300);
  }

  @Test
  void destinationsOfEachTypeLoadWithOptionalKeysDefaulted() throws Exception {
    NotificationsConfig n = load("""
        {"notifications": {"publicUrl": "https://manga.example.org/", "destinations": [
          {"name": "phone", "type": "ntfy", "url": "https://ntfy.sh", "topic": "mc-alerts"},
          {"name": "desk", "type": "gotify", "url": "https://gotify.local", "token": "AbC", "events": ["incident"]},
          {"name": "hook", "type": "webhook", "url": "https://hooks.local/x", "maxPerHour": 5}]}}""").notifications();
    assertThat(n.publicUrl()).isEqualTo("https://manga.example.org");
    assertThat(n.destinations()).hasSize(3);
    assertThat(n.destinations().get(0).events()).containsExactlyInAnyOrderElementsOf(NotificationsConfig.EVENT_KINDS);
    assertThat(n.destinations().get(0).maxPerHour()).isEqualTo(30);
    assertThat(n.destinations().get(1).events()).containsExactly("incident");
    assertThat(n.destinations().get(2).maxPerHour()).isEqualTo(5);
    assertThat(n.active()).isTrue();
  }

  @Test
  void aBadDestinationIsNamedByItsKey() {
    assertKey("{\"notifications\": {\"destinations\": [{\"name\": \"p\", \"type\": \"slack\", \"url\": \"https://x\"}]}}",
        "notifications.destinations[0].type", "\"ntfy\", \"gotify\" or \"webhook\"");
    assertKey("{\"notifications\": {\"destinations\": [{\"name\": \"p\", \"type\": \"ntfy\", \"url\": \"https://x\"}]}}",
        "notifications.destinations[0].topic", "needs a topic");
    assertKey("{\"notifications\": {\"destinations\": [{\"name\": \"g\", \"type\": \"gotify\", \"url\": \"https://x\"}]}}",
        "notifications.destinations[0].token", "application token");
    assertKey("{\"notifications\": {\"destinations\": [{\"name\": \"w\", \"type\": \"webhook\", \"url\": \"ftp://x\"}]}}",
        "notifications.destinations[0].url", "http(s)");
    assertKey("{\"notifications\": {\"destinations\": [{\"name\": \"w\", \"type\": \"webhook\", \"url\": \"https://x\","
        + " \"events\": [\"everything\"]}]}}", "notifications.destinations[0].events", "\"everything\" is not one of");
    assertKey("{\"notifications\": {\"destinations\": [{\"name\": \"w\", \"type\": \"webhook\", \"url\": \"https://x\"},"
        + " {\"name\": \"w\", \"type\": \"webhook\", \"url\": \"https://y\"}]}}", "notifications.destinations[1].name",
        "used twice");
    assertKey("{\"notifications\": {\"heartbeat\": {\"url\": \"not a url\"}}}", "notifications.heartbeat.url",
        "http(s)");
  }

  @Test
  void secretsNeverAppearInTheConfigsTextAndTheRedactorMasksThemInJson() throws Exception {
    MangaCircusConfig config = load("""
        {"notifications": {"heartbeat": {"url": "https://hc-ping.com/uuid-secret-1"}, "destinations": [
          {"name": "phone", "type": "ntfy", "url": "https://ntfy.sh", "topic": "topic-secret-2", "token": "tk-secret-3"},
          {"name": "hook", "type": "webhook", "url": "https://hooks.local/key-secret-4"}]}}""");
    assertThat(config.toString()).doesNotContain("uuid-secret-1", "topic-secret-2", "tk-secret-3", "key-secret-4")
        .contains("phone", "hook");
    assertThat(SecretRedactor.redact("{\"name\":\"desk\",\"token\":\"gotify-secret\"}")).doesNotContain("gotify-secret");
    assertThat(SecretRedactor.redact("POST /message?token=gotify-secret")).doesNotContain("gotify-secret");
    assertThat(SecretRedactor.redact("Authorization: Bearer tk_ntfysecret")).doesNotContain("tk_ntfysecret");
  }

  @Test
  void readersMayAimAtNoInternalHostUnlessTheAdminListsItByNameOrAddressAlone() throws Exception {
    assertThat(load("{}").notifications().readerAlertAllowedHosts()).isEmpty();
    assertThat(load("""
        {"notifications": {"readerAlertAllowedHosts": ["ntfy.home.lan", "127.0.0.1", "[::1]", "fd00::5",
          "hooks.home.lan."]}}""").notifications().readerAlertAllowedHosts()).hasSize(5);
    for (String bad : new String[] {"http://ntfy.home.lan", "ntfy.home.lan:8080", "beef.cafe:80", "ntfy.home.lan/x",
        "", "a b", "*.home.lan"}) {
      assertKey("{\"notifications\": {\"readerAlertAllowedHosts\": [\"ntfy.lan\", \"" + bad + "\"]}}",
          "notifications.readerAlertAllowedHosts[1]", "must be a host name or an IP address, without scheme, port or "
              + "path");
    }
  }
}
