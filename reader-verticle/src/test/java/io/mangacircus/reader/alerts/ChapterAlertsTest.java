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
}
