package io.mangacircus.scraper.queue;

import io.mangacircus.testing.MutableClock;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobQueueTest {

  private static final Duration LEASE = Duration.ofMinutes(2);

  @TempDir
  Path dir;

  private final MutableClock clock = new MutableClock();

  private Job inspectedAndConfirmed(JobQueue queue, String title) {
    Job job = queue.add("demo", title, true).job();
    JobQueue.Claim claim = queue.claim("demo", "lane-a", LEASE).orElseThrow();
    assertThat(claim.work()).isEqualTo(JobQueue.Work.INSPECT);
    queue.inspected(job.id(), "lane-a", "Title " + title, QueueFixtures.chapters(2));
    return queue.job(job.id()).orElseThrow();
  }

  @Test
  void addingAnOutstandingTitleAgainCreatesNoSecondJob() {
    JobQueue queue = QueueFixtures.queue(dir, clock);

    Job first = queue.add("demo", "circus-nights", false).job();
    Job second = queue.add("demo", "circus-nights", true).job();

    assertThat(second.id()).isEqualTo(first.id());
    assertThat(queue.jobs()).hasSize(1);
    assertThat(queue.add("other", "circus-nights", false).job().id()).isNotEqualTo(first.id());
  }

  @Test
  void addingAFinishedTitleAgainCreatesANewJobThatNamesTheOneItSupersedes() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job finished = inspectedAndConfirmed(queue, "circus-nights");
    queue.claim("demo", "lane-a", LEASE).orElseThrow();
    finished.chapters().forEach(c -> queue.stage(finished.id(), c.id(), ChapterStage.FAILED, 0, null, "gone"));
    assertThat(queue.finish(finished.id(), "lane-a").accepted()).isTrue();

    JobQueue.Addition again = queue.addTitle("demo", "circus-nights", false);

    assertThat(again.created()).isTrue();
    assertThat(again.outcome().job().id()).isNotEqualTo(finished.id());
    assertThat(again.outcome().job().state()).isEqualTo(JobState.PENDING);
    assertThat(again.supersededJobId()).isEqualTo(finished.id());
    assertThat(queue.jobs()).extracting(Job::id).containsExactly(again.outcome().job().id());

    JobQueue.Addition outstanding = queue.addTitle("demo", "circus-nights", true);
    assertThat(outstanding.created()).isFalse();
    assertThat(outstanding.supersededJobId()).isNull();
    assertThat(outstanding.outcome().job().id()).isEqualTo(again.outcome().job().id());

    JobQueue.Addition fresh = queue.addTitle("demo", "lion-tamer", true);
    assertThat(fresh.created()).isTrue();
    assertThat(fresh.supersededJobId()).isNull();
  }

  @Test
  void anUnknownSourceIsRefused() {
    QueueOutcome outcome = QueueFixtures.queue(dir, clock).add("nowhere", "x", false);

    assertThat(outcome.accepted()).isFalse();
    assertThat(outcome.kind()).isEqualTo(QueueOutcome.Refusal.UNKNOWN_SOURCE);
  }

  @Test
  void inspectionLeadsToReadyAndOnlyTheOperatorsConfirmationStartsTheDownload() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = queue.add("demo", "circus-nights", false).job();

    queue.claim("demo", "lane-a", LEASE).orElseThrow();
    queue.inspected(job.id(), "lane-a", "Circus Nights", QueueFixtures.chapters(3));

    assertThat(queue.job(job.id()).orElseThrow().state()).isEqualTo(JobState.READY);
    assertThat(queue.claim("demo", "lane-a", LEASE)).as("a ready job is not claimed").isEmpty();

    assertThat(queue.confirm(job.id()).accepted()).isTrue();
    JobQueue.Claim claim = queue.claim("demo", "lane-a", LEASE).orElseThrow();
    assertThat(claim.work()).isEqualTo(JobQueue.Work.DOWNLOAD);
    assertThat(claim.job().state()).isEqualTo(JobState.ACTIVE);
    assertThat(claim.job().leasedUntil()).isEqualTo(clock.instant().plus(LEASE));
  }

  @Test
  void illegalTransitionsAreRefusedAndChangeNothing() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = queue.add("demo", "circus-nights", false).job();

    assertThat(queue.resume(job.id()).kind()).isEqualTo(QueueOutcome.Refusal.ILLEGAL_TRANSITION);
    assertThat(queue.retry(job.id()).kind()).isEqualTo(QueueOutcome.Refusal.ILLEGAL_TRANSITION);
    assertThat(queue.confirm("j-missing").kind()).isEqualTo(QueueOutcome.Refusal.NOT_FOUND);
    assertThat(queue.job(job.id()).orElseThrow().state()).isEqualTo(JobState.PENDING);
    assertThat(JobTransitions.allows(JobState.DONE, JobState.PENDING)).isFalse();
    assertThat(JobTransitions.allows(JobState.READY, JobState.ACTIVE)).isFalse();
    assertThat(JobTransitions.allows(JobState.PAUSED, JobState.ACTIVE)).isFalse();
  }

  @Test
  void anOrdinaryClaimPollReturnsAnExpiredLeaseToPendingWithoutConsumingAnAttempt() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = inspectedAndConfirmed(queue, "circus-nights");
    queue.claim("demo", "lane-a", LEASE).orElseThrow();

    clock.advance(LEASE.plusSeconds(1));
    // Another source's lane polls: the expired lease is reclaimed there too, not only at startup.
    assertThat(queue.claim("other", "lane-b", LEASE)).isEmpty();

    Job reclaimed = queue.job(job.id()).orElseThrow();
    assertThat(reclaimed.state()).isEqualTo(JobState.PENDING);
    assertThat(reclaimed.attempts()).isZero();
    assertThat(reclaimed.interruptions()).isEqualTo(1);
    assertThat(reclaimed.leaseOwner()).isNull();
  }

  @Test
  void aRenewedLeaseIsNotReclaimed() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = inspectedAndConfirmed(queue, "circus-nights");
    queue.claim("demo", "lane-a", LEASE).orElseThrow();

    clock.advance(Duration.ofMinutes(1));
    assertThat(queue.renew(job.id(), "lane-a", LEASE)).isTrue();
    clock.advance(Duration.ofSeconds(90));
    queue.claim("other", "lane-b", LEASE);

    assertThat(queue.job(job.id()).orElseThrow().state()).isEqualTo(JobState.ACTIVE);
    assertThat(queue.renew(job.id(), "lane-b", LEASE)).as("only the holder renews").isFalse();
  }

  @Test
  void systemInterruptionsDoNotConsumeAttemptsButCountedFailuresDoAndEndInQuarantine() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = inspectedAndConfirmed(queue, "circus-nights");

    for (int i = 0; i < 7; i++) {
      queue.claim("demo", "lane-a", LEASE).orElseThrow();
      queue.release(job.id(), "lane-a", "shutdown");
    }
    Job afterInterruptions = queue.job(job.id()).orElseThrow();
    assertThat(afterInterruptions.attempts()).isZero();
    assertThat(afterInterruptions.interruptions()).isEqualTo(7);

    for (int i = 1; i <= JobQueue.MAX_ATTEMPTS; i++) {
      queue.claim("demo", "lane-a", LEASE).orElseThrow();
      queue.setback(job.id(), JobState.RETRY_WAIT, "server error 500", true, clock.instant());
      if (i < JobQueue.MAX_ATTEMPTS) {
        assertThat(queue.job(job.id()).orElseThrow().state()).isEqualTo(JobState.RETRY_WAIT);
      }
    }
    Job exhausted = queue.job(job.id()).orElseThrow();
    assertThat(exhausted.attempts()).isEqualTo(JobQueue.MAX_ATTEMPTS);
    assertThat(exhausted.state()).isEqualTo(JobState.QUARANTINED);
    assertThat(exhausted.reason()).contains("quarantined");
  }

  @Test
  void aRetryWaitJobBecomesPendingWhenItsTimeComes() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = inspectedAndConfirmed(queue, "circus-nights");
    queue.claim("demo", "lane-a", LEASE).orElseThrow();
    queue.setback(job.id(), JobState.RETRY_WAIT, "network", true, clock.instant().plus(Duration.ofMinutes(5)));

    clock.advance(Duration.ofMinutes(4));
    assertThat(queue.claim("demo", "lane-a", LEASE)).isEmpty();
    clock.advance(Duration.ofMinutes(1));
    assertThat(queue.claim("demo", "lane-a", LEASE)).isPresent();
  }

  @Test
  void aPausedLaneClaimsNothingAndAPausedJobLosesItsLease() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = inspectedAndConfirmed(queue, "circus-nights");
    queue.pauseLane("demo", "operator");
    assertThat(queue.claim("demo", "lane-a", LEASE)).isEmpty();
    queue.resumeLane("demo");
    queue.claim("demo", "lane-a", LEASE).orElseThrow();

    queue.pause(job.id());

    assertThat(queue.renew(job.id(), "lane-a", LEASE)).isFalse();
    assertThat(queue.resume(job.id()).job().state()).isEqualTo(JobState.PENDING);
  }

  @Test
  void chapterStagesOnlyMoveForwardAndABackwardWriteIsRefusedAndLogged() throws Exception {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = inspectedAndConfirmed(queue, "circus-nights");

    assertThat(queue.stage(job.id(), "c1", ChapterStage.FETCHING, 10, "f".repeat(64), null)).isTrue();
    assertThat(queue.stage(job.id(), "c1", ChapterStage.FETCHING, 10, "f".repeat(64), null)).as("staying put").isTrue();
    assertThat(queue.stage(job.id(), "c1", ChapterStage.PUBLISHED, 10, "f".repeat(64), null)).isTrue();
    assertThat(queue.stage(job.id(), "c1", ChapterStage.FETCHING, 10, "f".repeat(64), null)).isFalse();
    assertThat(queue.stage(job.id(), "c1", ChapterStage.FAILED, 10, "f".repeat(64), null)).isFalse();

    assertThat(queue.chapter(job.id(), "c1").orElseThrow().stage()).isEqualTo(ChapterStage.PUBLISHED);
    assertThat(Files.readString(dir.resolve("events.log"))).contains("\"type\":\"chapter.stage.refused\"");
    assertThat(StageLattice.allows(ChapterStage.STAGED, ChapterStage.FETCHING)).isFalse();
    assertThat(StageLattice.allows(ChapterStage.FETCHING, ChapterStage.FAILED)).isTrue();
  }

  @Test
  void everyChangeIsPersistedAndLoggedBeforeTheCallReturns() throws Exception {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = inspectedAndConfirmed(queue, "circus-nights");
    queue.claim("demo", "lane-a", LEASE).orElseThrow();
    queue.stage(job.id(), "c1", ChapterStage.FETCHING, 12, "a".repeat(64), null);

    JobQueue reloaded = QueueFixtures.queue(dir, clock);

    Job again = reloaded.job(job.id()).orElseThrow();
    assertThat(again.state()).isEqualTo(JobState.ACTIVE);
    assertThat(again.title()).isEqualTo("Title circus-nights");
    assertThat(again.chapters()).extracting(ChapterEntry::stage).containsExactly(ChapterStage.FETCHING,
        ChapterStage.PLANNED);
    List<String> lines = Files.readAllLines(dir.resolve("events.log"));
    assertThat(lines).anySatisfy(l -> assertThat(l).contains("\"type\":\"job.added\""))
        .anySatisfy(l -> assertThat(l).contains("\"to\":\"active\""))
        .anySatisfy(l -> assertThat(l).contains("\"type\":\"chapter.stage\"", "\"to\":\"fetching\""));
  }

  @Test
  void onlyTheLast200IncidentsAreKeptAndARetryClearsTheJobsOnes() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = inspectedAndConfirmed(queue, "circus-nights");
    for (int i = 1; i <= 205; i++) {
      queue.recordIncident(new io.mangacircus.scraper.failure.Failure(io.mangacircus.scraper.failure.FailureKind.NETWORK,
          500, "failure " + i), "demo", i == 205 ? job.id() : null,
          io.mangacircus.scraper.failure.FailureAction.RETRY_LATER);
    }

    JobQueue reloaded = QueueFixtures.queue(dir, clock);
    assertThat(reloaded.incidents()).hasSize(JobQueue.MAX_INCIDENTS);
    assertThat(reloaded.incidents().get(0).message()).isEqualTo("failure 6");
    assertThat(reloaded.openIncidents()).isEqualTo(200);

    reloaded.claim("demo", "lane-a", LEASE).orElseThrow();
    reloaded.setback(job.id(), JobState.QUARANTINED, "parser", true, null);
    reloaded.retry(job.id());
    assertThat(reloaded.openIncidents()).isEqualTo(199);
  }

  @Test
  void startupGivesBackActiveJobsAsSystemInterruptions() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = inspectedAndConfirmed(queue, "circus-nights");
    queue.claim("demo", "lane-a", LEASE).orElseThrow();

    JobQueue afterCrash = QueueFixtures.queue(dir, clock);
    List<Job> released = afterCrash.releaseAllAtStartup();

    assertThat(released).extracting(Job::id).containsExactly(job.id());
    Job back = afterCrash.job(job.id()).orElseThrow();
    assertThat(back.state()).isEqualTo(JobState.PENDING);
    assertThat(back.attempts()).isZero();
    assertThat(back.interruptions()).isEqualTo(1);
    assertThat(afterCrash.releaseAllAtStartup()).as("idempotent").isEmpty();
  }
}
