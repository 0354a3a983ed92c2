package io.mangacircus.contracts.scraper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.InvalidMessageException;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scraper's operator replies survive a round trip through JSON and carry the fields the admin console
 * (webroot/js/scraper.js, health.js), the reader's admin routes and the ITs read.
 */
class OperatorRepliesTest {

  private static final Instant AT = Instant.parse("2026-11-29T10:00:00Z");

  static JobView job(JobView.Progress progress) {
    return new JobView("j1", "demo", "t-1", "Title One", "retry_wait", true, false, 2, 1, "waiting",
        AT.plusSeconds(60), AT, AT.plusMillis(1500), 2, 1, 1, List.of(
            new JobView.ChapterView("c1", "1", "First", "published", 10, null),
            new JobView.ChapterView("c2", "2", "", "failed", 12, "bad page")), progress);
  }

  static LaneView lane(LaneView.Coverage coverage) {
    return new LaneView(coverage, "demo", "html", true, "half_open", "paused by the operator", 250, 500,
        coverage == null ? null : new LaneView.Limits(AT, "waiting for MangaDex's at-home limit", 2, 1, 2.0, 4.0));
  }

  static IncidentView incident(Instant resolvedAt) {
    return new IncidentView("i1", AT, "network", "demo", "j1", 503, "HTTP 503", "retry in 30 s", resolvedAt);
  }

  @Test
  void jobsReplyRoundTripsWithTheConsolesFields() {
    JobsReply reply = new JobsReply(List.of(job(new JobView.Progress("c2", "2", 3, 12)), job(null)));
    JsonObject json = reply.toJson();

    assertThat(JobsReply.fromJson(json)).isEqualTo(reply);
    assertThat(json.fieldNames()).containsExactly("v", "jobs", "total", "counts");
    assertThat(json.getInteger("total")).isEqualTo(2);
    JsonObject first = json.getJsonArray("jobs").getJsonObject(0);
    assertThat(first.fieldNames()).containsExactly("id", "source", "titleId", "title", "state", "inspected",
        "confirmed", "attempts", "interruptions", "reason", "retryAt", "createdAt", "updatedAt", "chapters",
        "chaptersPublished", "chaptersFailed", "chapterList", "progress");
    assertThat(first.getString("retryAt")).isEqualTo("2026-11-29T10:01:00Z");
    assertThat(first.getString("updatedAt")).isEqualTo("2026-11-29T10:00:01.500Z");
    assertThat(first.getJsonObject("progress").fieldNames()).containsExactly("chapterId", "chapterNumber", "page",
        "pages");
    assertThat(first.getJsonArray("chapterList").getJsonObject(1).fieldNames())
        .containsExactly("id", "number", "title", "stage", "pages", "reason");
    // No progress known: the field is absent, not null (the console tests `job.progress &&`).
    assertThat(json.getJsonArray("jobs").getJsonObject(1).containsKey("progress")).isFalse();
  }

  @Test
  void aPagedJobsReplyRoundTripsWithItsPageTotalsAndCountsPerState() {
    JobsReply reply = new JobsReply(List.of(job(null)), 120, 3, 50, java.util.Map.of("pending", 100, "done", 20));
    JsonObject json = reply.toJson();

    assertThat(JobsReply.fromJson(json)).isEqualTo(reply);
    assertThat(json.fieldNames()).containsExactly("v", "jobs", "total", "page", "size", "counts");
    assertThat(json.getJsonObject("counts").getInteger("pending")).isEqualTo(100);
    // A reply of a scraper from before paging has no totals: the total is the jobs it holds.
    JsonObject old = new JsonObject().put("v", 1).put("jobs", json.getJsonArray("jobs"));
    assertThat(JobsReply.fromJson(old).total()).isEqualTo(1);
    assertThat(JobsReply.fromJson(old).page()).isNull();
  }

  @Test
  void jobCommandAndAddRepliesRoundTrip() {
    JobReply command = new JobReply(job(null));
    JobAddedReply added = new JobAddedReply(true, "j0", job(null));
    JobAddedReply outstanding = new JobAddedReply(false, null, job(null));

    assertThat(JobReply.fromJson(command.toJson())).isEqualTo(command);
    assertThat(command.toJson().fieldNames()).containsExactly("v", "job");
    assertThat(JobAddedReply.fromJson(added.toJson())).isEqualTo(added);
    assertThat(JobAddedReply.fromJson(outstanding.toJson())).isEqualTo(outstanding);
    // The reader's POST /api/admin/jobs reads `created` (201 or 200); the console reads `created` and `job`.
    assertThat(outstanding.toJson().fieldNames()).containsExactly("v", "created", "supersededJobId", "job");
    assertThat(outstanding.toJson().getValue("supersededJobId")).isNull();
  }

  @Test
  void lanesReplyRoundTripsWithCoverageAndYieldReason() {
    LanesReply reply = new LanesReply(List.of(lane(new LaneView.Coverage(2, 30, 12, AT)),
        lane(new LaneView.Coverage(0, 0, 0, null))), "memory 91% used");
    JsonObject json = reply.toJson();

    assertThat(LanesReply.fromJson(json)).isEqualTo(reply);
    assertThat(json.fieldNames()).containsExactly("v", "lanes", "yieldReason");
    JsonObject first = json.getJsonArray("lanes").getJsonObject(0);
    assertThat(first.fieldNames()).containsExactly("coverage", "source", "type", "paused", "circuit", "pauseReason",
        "pageDelayMs", "chapterDelayMs", "limits");
    assertThat(first.getJsonObject("limits").fieldNames()).containsExactly("holdUntil", "holdReason", "holdsWaited",
        "refused", "rateLimitRps", "configuredRps");
    assertThat(first.getJsonObject("coverage").fieldNames()).containsExactly("titles", "chaptersFound",
        "chaptersPublished", "lastContactAt");
    assertThat(first.getJsonObject("coverage").getString("lastContactAt")).isEqualTo("2026-11-29T10:00:00Z");
    assertThat(LanesReply.fromJson(new LanesReply(List.of(), null).toJson()).yieldReason()).isNull();
  }

  @Test
  void laneCommandReplyCarriesANullCoverage() {
    LaneReply reply = new LaneReply(lane(null));
    JsonObject json = reply.toJson();

    assertThat(LaneReply.fromJson(json)).isEqualTo(reply);
    assertThat(json.getJsonObject("lane").containsKey("coverage")).isTrue();
    assertThat(json.getJsonObject("lane").getValue("coverage")).isNull();
  }

  @Test
  void incidentsReplyAndEventRoundTrip() {
    IncidentsReply reply = new IncidentsReply(1, List.of(incident(null), incident(AT.plusSeconds(5))));
    JsonObject json = reply.toJson();

    assertThat(IncidentsReply.fromJson(json)).isEqualTo(reply);
    assertThat(json.fieldNames()).containsExactly("v", "open", "incidents");
    assertThat(json.getJsonArray("incidents").getJsonObject(0).fieldNames()).containsExactly("id", "at", "kind",
        "source", "jobId", "httpStatus", "message", "action", "resolvedAt");
    JsonObject event = incident(null).toEvent();
    assertThat(event.getInteger("v")).isEqualTo(1);
    assertThat(IncidentView.fromEvent(event)).isEqualTo(incident(null));
    IncidentView systemWide = new IncidentView("i2", AT, "storage", null, null, null, "disk full", "paused", null);
    assertThat(IncidentView.fromJson(systemWide.toJson())).isEqualTo(systemWide);
  }

  @Test
  void yieldReplyRoundTrips() {
    assertThat(YieldReply.fromJson(new YieldReply(true).toJson())).isEqualTo(new YieldReply(true));
    assertThat(new YieldReply(false).toJson().encode()).isEqualTo("{\"v\":1,\"yielding\":false}");
  }

  @Test
  void aReplyWithAMistypedFieldIsMalformedAndNamesIt() {
    JsonObject json = new JobReply(job(null)).toJson();
    json.getJsonObject("job").put("createdAt", "yesterday");

    assertThatThrownBy(() -> JobReply.fromJson(json))
        .isInstanceOfSatisfying(InvalidMessageException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_MESSAGE))
        .hasMessageContaining("'createdAt'");
    assertThatThrownBy(() -> LanesReply.fromJson(new JsonObject().put("v", 2).put("lanes", List.of())))
        .isInstanceOfSatisfying(InvalidMessageException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION));
  }
}
