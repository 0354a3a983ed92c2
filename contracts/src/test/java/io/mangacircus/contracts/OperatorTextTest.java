package io.mangacircus.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OperatorTextTest {

  @Test
  void controlCharactersOfEveryKindAreFoundAndNamedByCodePoint() {
    assertThat(OperatorText.problem("title", "a\u0000b\u001b[31mred\nINJECTED LOG LINE", false))
        .contains("field 'title' contains a control character (U+0000)");
    assertThat(OperatorText.problem("title", "esc\u001b[31m", false)).contains(
        "field 'title' contains a control character (U+001B)");
    assertThat(OperatorText.firstForbidden("del\u007f", false)).hasValue(0x7F);
    assertThat(OperatorText.firstForbidden("next line\u0085", false)).hasValue(0x85);
    assertThat(OperatorText.firstForbidden("c1 end\u009f", false)).hasValue(0x9F);
    assertThat(OperatorText.firstForbidden("line\u2028sep", false)).hasValue(0x2028);
    assertThat(OperatorText.firstForbidden("evil\u202egnp.exe", false)).hasValue(0x202E);
    assertThat(OperatorText.firstForbidden("isolate\u2066x\u2069", false)).hasValue(0x2066);
    assertThat(OperatorText.firstForbidden("embed\u202ax", false)).hasValue(0x202A);
  }

  @Test
  void ordinaryTextIsCleanIncludingAccentsScriptsAndDirectionMarks() {
    assertThat(OperatorText.firstForbidden("Ōkami: Tale / 2 — «quoted» 日本語 عربي\u200f", false)).isEmpty();
    assertThat(OperatorText.firstForbidden("https://example.org/manga/1234/circus-of-ink?x=1&y=2", false)).isEmpty();
    assertThat(OperatorText.firstForbidden(null, false)).isEmpty();
    assertThat(OperatorText.firstForbidden("", false)).isEmpty();
    assertThat(OperatorText.firstForbidden("\u00a0no-break space and \u00ff", false)).isEmpty();
  }

  @Test
  void tabAndLineBreaksAreRefusedInSingleLineFieldsAndAllowedInMultiLineOnes() {
    for (String text : new String[] {"a\tb", "a\nb", "a\rb"}) {
      assertThat(OperatorText.firstForbidden(text, false)).as(text).isPresent();
      assertThat(OperatorText.firstForbidden(text, true)).as(text).isEmpty();
    }
    assertThat(OperatorText.firstForbidden("para\n\u001b[2J", true)).hasValue(0x1B);
    assertThat(OperatorText.firstForbidden("para\n\u202e", true)).hasValue(0x202E);
  }

  @Test
  void aBodyIsSearchedThroughNestedArraysAndObjectsNamingThePathAndSkippingExemptFields() {
    JsonObject body = new JsonObject().put("name", "Favourites").put("description", "two\nlines")
        .put("tags", new JsonArray().add("ok").add("fine").add("bad\u0007"))
        .put("password", "pass\u0001word");
    Set<String> multiLine = Set.of("description");
    Set<String> exempt = Set.of("password");

    assertThat(OperatorText.problemIn(body, multiLine, exempt))
        .contains("field 'tags[2]' contains a control character (U+0007)");
    body.put("tags", new JsonArray().add("ok"));
    assertThat(OperatorText.problemIn(body, multiLine, exempt)).isEmpty();
    body.put("nested", new JsonObject().put("inner", "x\u009bq"));
    assertThat(OperatorText.problemIn(body, multiLine, exempt))
        .contains("field 'nested.inner' contains a control character (U+009B)");
    assertThat(OperatorText.problemIn(new JsonObject().put("description", "x\u0000"), multiLine, exempt))
        .contains("field 'description' contains a control character (U+0000)");
  }

  @Test
  void operatorMessagesOnTheBusAreRefusedAsMalformedNamingTheField() {
    JsonObject add = new AddTitleRequest("demo", "t", true).toJson().put("title", "a\u0000b\u001b[31mred\nINJECTED LOG LINE");
    assertThatThrownBy(() -> AddTitleRequest.fromJson(add))
        .isInstanceOfSatisfying(InvalidMessageException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_MESSAGE))
        .hasMessage("AddTitleRequest: field 'title' contains a control character (U+0000)");
    assertThatThrownBy(() -> AddTitleRequest.fromJson(new AddTitleRequest("demo", "t", null).toJson().put("source", "de\u202emo")))
        .hasMessageContaining("field 'source' contains a control character (U+202E)");
    assertThatThrownBy(() -> JobRequest.fromJson(new JobRequest("j-1").toJson().put("jobId", "j-1\u2066")))
        .hasMessageContaining("field 'jobId' contains a control character (U+2066)");
    assertThatThrownBy(() -> LaneRequest.fromJson(new LaneRequest("demo").toJson().put("source", "demo\n")))
        .hasMessageContaining("field 'source' contains a control character (U+000A)");
    assertThatThrownBy(() -> LanePacingRequest.fromJson(new LanePacingRequest("demo", 1L, 1L).toJson().put("source", "demo\t")))
        .hasMessageContaining("field 'source' contains a control character (U+0009)");
    // Nor can a sender build one: the record checks its fields when it is made.
    assertThatThrownBy(() -> new JobRequest("j-1\u2066")).isInstanceOf(InvalidMessageException.class)
        .hasMessageContaining("field 'jobId' contains a control character (U+2066)");
    assertThat(AddTitleRequest.fromJson(new AddTitleRequest("demo", "Ōkami — 日本", null).toJson()).title())
        .isEqualTo("Ōkami — 日本");
  }
}
