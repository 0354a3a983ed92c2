package io.mangacircus.scraper.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.JobProgress;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.failure.Incident;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.ChapterStage;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import io.mangacircus.scraper.queue.LaneSettings;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The operator's views are, byte for byte, the JSON the scraper answered before they were typed records (the expected
 * strings were recorded from the former {@code JobViews} and {@code ScraperVerticle.incidentJson}).
 */
class ViewsTest {

  private static final Instant CREATED = Instant.parse("2024-05-01T10:00:00Z");
  private static final Instant UPDATED = Instant.parse("2024-05-01T10:05:00.123Z");
  private static final Instant RETRY = Instant.parse("2024-05-01T11:00:00Z");
  private static final ScraperConfig.SourceConfig HTML = new ScraperConfig.SourceConfig("html", "http://x", 100, 500,
      List.of(), Map.of());

  private static Job job(Instant retryAt) {
    return new Job("j1", "demo", "t-1", "Title One", JobState.RETRY_WAIT, true, true, 2, 1, CREATED, UPDATED, null,
        null, retryAt, "waiting", List.of(
            new ChapterEntry("c1", "1", "First", ChapterStage.PUBLISHED, 10, "f1", null),
            new ChapterEntry("c2", "2", "Second", ChapterStage.FAILED, 12, "f2", "bad page"),
            ChapterEntry.planned("c3", "3", null)), 0, 0);
  }

  private static final String CHAPTERS = "\"chapterList\":[{\"id\":\"c1\",\"number\":\"1\",\"title\":\"First\","
      + "\"stage\":\"published\",\"pages\":10,\"reason\":null},{\"id\":\"c2\",\"number\":\"2\",\"title\":\"Second\","
      + "\"stage\":\"failed\",\"pages\":12,\"reason\":\"bad page\"},{\"id\":\"c3\",\"number\":\"3\",\"title\":\"\","
      + "\"stage\":\"planned\",\"pages\":0,\"reason\":null}]";

  @Test
  void aJobWithProgressReadsAsBefore() {
    String json = Views.job(job(RETRY), Optional.of(new JobProgress("j1", "demo", "Title One", "active", "c2", "2", 3,
        12, 1, 3))).toJson().encode();

    assertThat(json).isEqualTo("{\"id\":\"j1\",\"source\":\"demo\",\"titleId\":\"t-1\",\"title\":\"Title One\","
        + "\"state\":\"retry_wait\",\"inspected\":true,\"confirmed\":true,\"attempts\":2,\"interruptions\":1,"
        + "\"reason\":\"waiting\",\"retryAt\":\"2024-05-01T11:00:00Z\",\"createdAt\":\"2024-05-01T10:00:00Z\","
        + "\"updatedAt\":\"2024-05-01T10:05:00.123Z\",\"chapters\":3,\"chaptersPublished\":1,\"chaptersFailed\":1,"
        + CHAPTERS + ",\"progress\":{\"chapterId\":\"c2\",\"chapterNumber\":\"2\",\"page\":3,\"pages\":12}}");
  }

  @Test
  void aJobWithoutProgressHasNoProgressField() {
    String json = Views.job(job(null), Optional.empty()).toJson().encode();

    assertThat(json).isEqualTo("{\"id\":\"j1\",\"source\":\"demo\",\"titleId\":\"t-1\",\"title\":\"Title One\","
        + "\"state\":\"retry_wait\",\"inspected\":true,\"confirmed\":true,\"attempts\":2,\"interruptions\":1,"
        + "\"reason\":\"waiting\",\"retryAt\":null,\"createdAt\":\"2024-05-01T10:00:00Z\","
        + "\"updatedAt\":\"2024-05-01T10:05:00.123Z\",\"chapters\":3,\"chaptersPublished\":1,\"chaptersFailed\":1,"
        + CHAPTERS + "}");
  }

  @Test
  void aLaneOfACommandReplyHasANullCoverageAndTheOperatorsPacing() {
    String json = Views.lane("demo", HTML, new LaneSettings(true, "paused by the operator", 250L, null), "open", null)
        .toJson().encode();

    assertThat(json).isEqualTo("{\"coverage\":null,\"source\":\"demo\",\"type\":\"html\",\"paused\":true,"
        + "\"circuit\":\"open\",\"pauseReason\":\"paused by the operator\",\"pageDelayMs\":250,\"chapterDelayMs\":500}");
  }

  @Test
  void aListedLaneCarriesItsSourcesCoverage() {
    String seen = Views.lane("demo", HTML, LaneSettings.defaults(), "closed",
        new io.mangacircus.scraper.queue.SourceCoverage(2, 30, 12, UPDATED)).toJson().encode();
    String never = Views.lane("demo", HTML, LaneSettings.defaults(), "closed",
        new io.mangacircus.scraper.queue.SourceCoverage(0, 0, 0, null)).toJson().encode();

    assertThat(seen).isEqualTo("{\"coverage\":{\"titles\":2,\"chaptersFound\":30,\"chaptersPublished\":12,"
        + "\"lastContactAt\":\"2024-05-01T10:05:00.123Z\"},\"source\":\"demo\",\"type\":\"html\",\"paused\":false,"
        + "\"circuit\":\"closed\",\"pauseReason\":null,\"pageDelayMs\":100,\"chapterDelayMs\":500}");
    assertThat(never).isEqualTo("{\"coverage\":{\"titles\":0,\"chaptersFound\":0,\"chaptersPublished\":0,"
        + "\"lastContactAt\":null},\"source\":\"demo\",\"type\":\"html\",\"paused\":false,"
        + "\"circuit\":\"closed\",\"pauseReason\":null,\"pageDelayMs\":100,\"chapterDelayMs\":500}");
  }

  @Test
  void anIncidentReadsAsBeforeInTheListAndAsAnEvent() {
    Incident open = new Incident("i1", CREATED, FailureKind.NETWORK, "demo", "j1", 503, "HTTP 503", "retry in 30 s",
        null);
    Incident systemWide = new Incident("i2", CREATED, FailureKind.STORAGE, null, null, null, "disk full",
        "paused every lane", UPDATED);

    assertThat(Views.incident(open).toJson().encode()).isEqualTo("{\"id\":\"i1\",\"at\":\"2024-05-01T10:00:00Z\","
        + "\"kind\":\"network\",\"source\":\"demo\",\"jobId\":\"j1\",\"httpStatus\":503,\"message\":\"HTTP 503\","
        + "\"action\":\"retry in 30 s\",\"resolvedAt\":null}");
    assertThat(Views.incident(systemWide).toEvent().encode()).isEqualTo("{\"id\":\"i2\","
        + "\"at\":\"2024-05-01T10:00:00Z\",\"kind\":\"storage\",\"source\":null,\"jobId\":null,\"httpStatus\":null,"
        + "\"message\":\"disk full\",\"action\":\"paused every lane\",\"resolvedAt\":\"2024-05-01T10:05:00.123Z\","
        + "\"v\":1}");
  }
}
