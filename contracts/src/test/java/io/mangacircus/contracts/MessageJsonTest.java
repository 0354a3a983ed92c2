package io.mangacircus.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.scraper.JobReply;
import io.mangacircus.contracts.scraper.JobView;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one binder of every message record: {@code v} first and checked, strict types, unknown fields ignored. */
class MessageJsonTest {

  private static final Instant AT = Instant.parse("2026-11-29T10:00:00Z");

  private static void malformed(Runnable read, String message) {
    assertThatThrownBy(read::run).isInstanceOfSatisfying(InvalidMessageException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_MESSAGE)).hasMessage(message);
  }

  @Test
  void aMessageIsWrittenWithItsVersionFirstAndItsNullFieldsAsNull() {
    JsonObject json = new ServiceStartRequest("scraper", "admin alice").toJson();

    assertThat(json.encode()).isEqualTo("{\"v\":1,\"service\":\"scraper\",\"from\":\"admin alice\"}");
    assertThat(new DiscoverySettingsRequest(null, "03:00").toJson().encode())
        .isEqualTo("{\"v\":1,\"enabled\":null,\"time\":\"03:00\"}");
    assertThat(new PingReply("reader", "i-1", 42).toJson().encode())
        .isEqualTo("{\"v\":1,\"service\":\"reader\",\"instance\":\"i-1\",\"startedAt\":42}");
  }

  /** A message type that forgot its version: a bug, named, never a body without {@code v}. */
  record Unversioned(String name) implements Message {
  }

  @Test
  void aMessageWithoutAVersionConstantIsABugNamedWhenWritten() {
    assertThatThrownBy(() -> new Unversioned("x").toJson()).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Unversioned is a Message but has no public static int VERSION");
  }

  @Test
  void aPartOfAMessageIsWrittenWithoutVersion() {
    assertThat(new Part("a").toJson().encode()).isEqualTo("{\"name\":\"a\"}");
  }

  record Part(String name) implements MessagePart {
  }

  @Test
  void fieldsANewerSenderAddsAreIgnored() {
    JsonObject json = new PingRequest("launcher").toJson().put("priority", 3).put("trace", new JsonObject());

    assertThat(PingRequest.fromJson(json)).isEqualTo(new PingRequest("launcher"));
  }

  @Test
  void typesAreStrictAndAFailureNamesTheTypeAndTheField() {
    malformed(() -> PingRequest.fromJson(new JsonObject().put("v", 1).put("from", 42)),
        "PingRequest: field 'from' must be a string");
    malformed(() -> ShutdownReply.fromJson(new JsonObject().put("v", 1).put("node", "n")),
        "ShutdownReply: field 'stopping' (boolean) is required");
    malformed(() -> ShutdownReply.fromJson(new JsonObject().put("v", 1).put("node", "n").put("stopping", "yes")),
        "ShutdownReply: field 'stopping' (boolean) is required");
    malformed(() -> PingReply.fromJson(new JsonObject().put("v", 1).put("service", "s").put("instance", "i")
        .put("startedAt", "5")), "PingReply: field 'startedAt' (whole number) is required");
    malformed(() -> LanePacingRequest.fromJson(new JsonObject().put("v", 1).put("source", "demo")
        .put("pageDelayMs", 1.5)), "LanePacingRequest: field 'pageDelayMs' must be a whole number");
    malformed(() -> PingRequest.fromJson(new JsonObject().put("v", 1)),
        "PingRequest: field 'from' (non-empty string) is required");
  }

  @Test
  void aNestedRecordsFailureNamesTheNestedTypeAndAnInstantItsText() {
    JobView job = new JobView("j1", "demo", "t-1", "Title", "pending", false, false, 0, 0, null, null, AT, AT, 1, 0,
        0, List.of(new JobView.ChapterView("c1", "1", "", "planned", 0, null)), null);
    JsonObject reply = new JobReply(job).toJson();
    reply.getJsonObject("job").put("updatedAt", "soon");
    malformed(() -> JobReply.fromJson(reply),
        "JobView: field 'updatedAt' must be an ISO-8601 instant, got 'soon'");

    JsonObject chapterless = new JobReply(job).toJson();
    chapterless.getJsonObject("job").getJsonArray("chapterList").getJsonObject(0).remove("stage");
    malformed(() -> JobReply.fromJson(chapterless), "JobView.ChapterView: field 'stage' (non-empty string) is required");

    JsonObject numbers = new JobReply(job).toJson();
    numbers.getJsonObject("job").put("chapterList", new JsonArray().add(3));
    malformed(() -> JobReply.fromJson(numbers), "JobView: field 'chapterList' must be an array of objects");
  }

  @Test
  void theVersionIsCheckedForEveryMessageBeforeItsFields() {
    assertThatThrownBy(() -> JobRequest.fromJson(new JsonObject().put("v", 3)))
        .isInstanceOfSatisfying(InvalidMessageException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION))
        .hasMessage("JobRequest: version 3 is not supported (this receiver speaks v1)");
    malformed(() -> JobRequest.fromJson(new JsonObject().put("v", "1").put("jobId", "j")),
        "JobRequest: field 'v' (number) is required");
    malformed(() -> JobRequest.fromJson(new JsonArray()), "JobRequest: body must be a JSON object, got JsonArray");
  }

  @Test
  void anEventsInstantsAreTheTextInstantToStringWritesAndSurviveARoundTrip() {
    DiscoveryFinished finished = new DiscoveryFinished(AT.plusMillis(1500), 3,
        List.of(new DiscoveryFinished.Queued("j1", "demo", "t1")), 1);
    JsonObject json = finished.toJson();

    assertThat(json.encode()).isEqualTo("{\"v\":1,\"at\":\"2026-11-29T10:00:01.500Z\",\"titles\":3,"
        + "\"queued\":[{\"jobId\":\"j1\",\"source\":\"demo\",\"titleId\":\"t1\"}],\"skipped\":1}");
    assertThat(DiscoveryFinished.fromJson(json)).isEqualTo(finished);
    assertThat(DiscoveryFinished.fromJson(new JsonObject(json.encode()))).isEqualTo(finished);
  }
}
