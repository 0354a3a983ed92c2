package io.mangacircus.launcher.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.config.NotificationsConfig;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each destination type turns a notification into exactly the request docs/notifications.md documents. */
class DestinationRequestTest {

  private final Notification notification = new Notification("incident", "incident:http:demo:j1",
      "MangaCircus incident: http on demo", "Page 3 answered 503.", 4, List.of("warning"),
      "https://manga.example.org/admin/scraper.html", Instant.parse("2026-12-01T10:00:00Z"), 0);

  private static Destination of(String type, String url, String topic, String token) {
    return Destination.of(new NotificationsConfig.Destination("d", type, url, topic, token, null, 30));
  }

  @Test
  void ntfyPostsTheMessageToTheTopicWithTitlePriorityTagsAndClickHeaders() {
    OutgoingRequest request = of("ntfy", "https://ntfy.example.org/", "mc-alerts", "tk_secret").request(notification);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.url()).isEqualTo("https://ntfy.example.org/mc-alerts");
    assertThat(request.headers()).containsEntry("Title", "MangaCircus incident: http on demo")
        .containsEntry("Priority", "4").containsEntry("Tags", "warning")
        .containsEntry("Click", "https://manga.example.org/admin/scraper.html")
        .containsEntry("Authorization", "Bearer tk_secret");
    assertThat(request.body()).isEqualTo("Page 3 answered 503.");
    assertThat(request.toString()).doesNotContain("mc-alerts", "tk_secret", "ntfy.example.org");
  }

  @Test
  void ntfyWithoutATokenSendsNoAuthorizationAndEncodesNonAsciiTitles() {
    Notification n = new Notification("new-chapters", "k", "3 nouveaux chapitres de Ça", "x", 3, List.of(), "",
        Instant.EPOCH, 0);
    OutgoingRequest request = of("ntfy", "http://ntfy.local", "t", "").request(n);
    assertThat(request.headers()).doesNotContainKey("Authorization").doesNotContainKey("Click")
        .doesNotContainKey("Tags");
    assertThat(request.headers().get("Title")).startsWith("=?UTF-8?B?").endsWith("?=");
  }

  @Test
  void gotifyPostsJsonTitleMessageAndPriorityToMessageWithTheAppToken() {
    OutgoingRequest request = of("gotify", "https://gotify.example.org", "", "AbC.123").request(notification);
    assertThat(request.url()).isEqualTo("https://gotify.example.org/message?token=AbC.123");
    JsonObject body = new JsonObject(request.body());
    assertThat(body.getString("title")).isEqualTo("MangaCircus incident: http on demo");
    assertThat(body.getString("message")).isEqualTo("Page 3 answered 503.");
    assertThat(body.getInteger("priority")).isEqualTo(7);
    assertThat(body.getJsonObject("extras").getJsonObject("client::notification").getJsonObject("click")
        .getString("url")).isEqualTo("https://manga.example.org/admin/scraper.html");
    assertThat(request.headers()).containsEntry("Content-Type", "application/json");
  }

  @Test
  void aWebhookGetsTheDocumentedJsonBody() {
    OutgoingRequest request = of("webhook", "https://hooks.example.org/x/y", "", "").request(notification);
    assertThat(request.url()).isEqualTo("https://hooks.example.org/x/y");
    JsonObject body = new JsonObject(request.body());
    assertThat(body.fieldNames()).containsExactlyInAnyOrder("v", "kind", "key", "title", "message", "priority", "tags",
        "click", "at", "repeats");
    assertThat(body.getInteger("v")).isEqualTo(1);
    assertThat(body.getString("kind")).isEqualTo("incident");
    assertThat(body.getString("at")).isEqualTo("2026-12-01T10:00:00Z");
    assertThat(request.headers()).doesNotContainKey("Authorization");
  }
}
