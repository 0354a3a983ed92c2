package io.mangacircus.reader.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.reader.store.AlertTarget;
import io.vertx.core.json.JsonObject;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Where readers' new-chapter alerts go: a target edit that leaves a secret blank keeps it; bad values name the field. */
class ChapterAlertsTest {

  @Test
  void aTargetEditThatLeavesASecretBlankKeepsItAndBadValuesNameTheField() {
    AlertTarget saved = AlertTargetRules.edit(Optional.empty(), new JsonObject().put("type", "ntfy")
        .put("url", "https://ntfy.example.org").put("topic", "my-topic").put("token", "tk_1"));
    AlertTarget edited = AlertTargetRules.edit(Optional.of(saved), new JsonObject().put("type", "ntfy")
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

  @Test
  void aSavedTokenOrTopicIsNeverKeptForAnotherServer() {
    AlertTarget saved = AlertTargetRules.edit(Optional.empty(), new JsonObject().put("type", "ntfy")
        .put("url", "https://ntfy.example.org").put("topic", "my-topic").put("token", "tk_1"));

    assertThatThrownBy(() -> AlertTargetRules.edit(Optional.of(saved), new JsonObject()
        .put("url", "http://169.254.169.254/latest"))).hasMessageStartingWith("token: the url now points to another "
            + "server").message().doesNotContain("tk_1", "169.254");
    assertThatThrownBy(() -> AlertTargetRules.edit(Optional.of(saved), new JsonObject()
        .put("url", "https://other.example").put("token", "tk_2")))
        .hasMessageStartingWith("topic: the url now points to another server");

    AlertTarget moved = AlertTargetRules.edit(Optional.of(saved), new JsonObject().put("url", "https://other.example")
        .put("topic", "new-topic").put("removeToken", true));
    assertThat(moved.token()).isEmpty();
    assertThat(AlertTargetRules.edit(Optional.of(saved), new JsonObject().put("url", "https://ntfy.example.org:443/x"))
        .token()).as("the same server").isEqualTo("tk_1");
  }
}
