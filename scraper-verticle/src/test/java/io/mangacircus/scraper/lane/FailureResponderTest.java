package io.mangacircus.scraper.lane;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.failure.Failure;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.failure.Incident;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a lane's failure does to the real queue (in a temporary folder): the job's state, the lane, the incident. */
class FailureResponderTest {

  private static final Duration LEASE = Duration.ofMinutes(5);
  private static final Duration RETRY_WAIT = Duration.ofMinutes(10);
  private static final String LANE = "lane-demo";

  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock();
  private JobQueue queue;

  @BeforeEach
  void setUp() {
    queue = new JobQueue(new QueueStore(dir.resolve("queue.json")), new EventLog(dir.resolve("events.log")), clock,
        Set.of("demo", "other"), QueueListener.NONE);
  }

  /** A confirmed, inspected job of source demo that the lane has claimed for download. */
  private Job activeJob(String title) {
    Job job = queue.add("demo", title, true).job();
    queue.claim("demo", LANE, LEASE).orElseThrow();
    queue.inspected(job.id(), LANE, "Title " + title, List.of(ChapterEntry.planned("c1", "1", "Chapter 1")));
    JobQueue.Claim claim = queue.claim("demo", LANE, LEASE).orElseThrow();
    assertThat(claim.work()).isEqualTo(JobQueue.Work.DOWNLOAD);
    return claim.job();
  }

  private FailureResponder responder(SystemicParserWatch watch, boolean parserFailuresAreSystemic) {
    return new FailureResponder(queue, "demo", watch, clock, RETRY_WAIT, parserFailuresAreSystemic);
  }

  private FailureResponder responder() {
    return responder(new SystemicParserWatch(3, Duration.ofHours(1), clock), true);
  }

  private Job current(Job job) {
    return queue.job(job.id()).orElseThrow();
  }

  @Test
  void aFirstNetworkFailureWaitsToRetryAndTheNextOneQuarantines() {
    Job job = activeJob("circus-nights");
    FailureResponder responder = responder();

    responder.respond(job, LANE, new Failure(FailureKind.NETWORK, 503, "server error"));

    assertThat(current(job).state()).isEqualTo(JobState.RETRY_WAIT);
    assertThat(current(job).retryAt()).isEqualTo(clock.instant().plus(RETRY_WAIT));
    assertThat(queue.incidents().list()).singleElement().satisfies(incident -> {
      assertThat(incident.kind()).isEqualTo(FailureKind.NETWORK);
      assertThat(incident.jobId()).isEqualTo(job.id());
      assertThat(incident.httpStatus()).isEqualTo(503);
    });

    clock.advance(RETRY_WAIT);
    Job again = queue.claim("demo", LANE, LEASE).orElseThrow().job();
    responder.respond(again, LANE, new Failure(FailureKind.NETWORK, null, "connection reset"));

    assertThat(current(job).state()).isEqualTo(JobState.QUARANTINED);
    assertThat(queue.lanes().lane("demo").paused()).isFalse();
  }

  @Test
  void anAccessFailurePausesTheLaneAndHandsTheJobBackUntouched() {
    Job job = activeJob("circus-nights");

    responder().respond(job, LANE, new Failure(FailureKind.ACCESS, 403, "forbidden"));

    assertThat(queue.lanes().lane("demo").paused()).isTrue();
    assertThat(queue.lanes().lane("demo").pauseReason()).contains("forbidden");
    assertThat(queue.lanes().lane("other").paused()).isFalse();
    assertThat(current(job).state()).isEqualTo(JobState.PENDING);
    assertThat(current(job).attempts()).isZero();
    assertThat(queue.holds(job.id(), LANE)).isFalse();
  }

  @Test
  void aStorageFailurePausesEveryLaneAndTheJob() {
    Job job = activeJob("circus-nights");

    responder().respond(job, LANE, new Failure(FailureKind.STORAGE, null, "storage: no space left on device"));

    assertThat(queue.lanes().lane("demo").paused()).isTrue();
    assertThat(queue.lanes().lane("other").paused()).isTrue();
    assertThat(current(job).state()).isEqualTo(JobState.PAUSED);
  }

  @Test
  void aMissingTitleIsMarkedUnavailableWithoutCountingAnAttempt() {
    Job job = activeJob("circus-nights");

    responder().respond(job, LANE, new Failure(FailureKind.UNAVAILABLE, 404, "not found: title"));

    assertThat(current(job).state()).isEqualTo(JobState.UNAVAILABLE);
    assertThat(current(job).attempts()).isZero();
    assertThat(current(job).reason()).contains("not found: title");
  }

  @Test
  void aFailureReportedByALaneThatNoLongerHoldsTheJobChangesNothing() {
    Job job = activeJob("circus-nights");

    responder().respond(job, "lane-that-lost-the-lease", new Failure(FailureKind.STORAGE, null, "late"));

    assertThat(current(job).state()).isEqualTo(JobState.ACTIVE);
    assertThat(queue.holds(job.id(), LANE)).isTrue();
    assertThat(queue.lanes().lane("demo").paused()).isFalse();
    assertThat(queue.incidents().list()).isEmpty();
  }

  @Test
  void parserFailuresOfSeveralJobsPauseTheLaneAsASystemicMarkupChange() {
    FailureResponder responder = responder(new SystemicParserWatch(2, Duration.ofHours(1), clock), true);

    Job first = activeJob("circus-nights");
    responder.respond(first, LANE, new Failure(FailureKind.PARSER, null, "no page list"));
    assertThat(current(first).state()).isEqualTo(JobState.QUARANTINED);
    assertThat(queue.lanes().lane("demo").paused()).isFalse();

    Job second = activeJob("lion-tamer");
    responder.respond(second, LANE, new Failure(FailureKind.PARSER, null, "no page list"));

    assertThat(queue.lanes().lane("demo").paused()).isTrue();
    assertThat(queue.lanes().lane("demo").pauseReason()).startsWith("systemic parser failure");
    assertThat(queue.incidents().list()).extracting(Incident::jobId).containsOnlyOnce((String) null);
  }

  @Test
  void parserFailuresOfASourceWithoutMarkupNeverPauseTheLane() {
    FailureResponder responder = responder(new SystemicParserWatch(2, Duration.ofHours(1), clock), false);

    for (String title : List.of("a", "b", "c")) {
      Job job = activeJob(title);
      responder.respond(job, LANE, new Failure(FailureKind.PARSER, null, "not an archive"));
      assertThat(current(job).state()).isEqualTo(JobState.QUARANTINED);
    }

    assertThat(queue.lanes().lane("demo").paused()).isFalse();
  }
}
