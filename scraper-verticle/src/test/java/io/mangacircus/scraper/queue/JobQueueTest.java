package io.mangacircus.scraper.queue;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.scraper.failure.RetryPolicy;
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

  /** A job for {@code title}, confirmed, claimed and finished with every chapter failed. */
  private Job finished(JobQueue queue, String title) {
    Job job = inspectedAndConfirmed(queue, title);
    queue.claim("demo", "lane-a", LEASE).orElseThrow();
    job.chapters().forEach(c -> queue.chapterFailed(job.id(), c.id(), 0, null, "gone"));
    assertThat(queue.finish(job.id(), "lane-a").accepted()).isTrue();
    return job;
  }

  @Test
  void addingAFinishedTitleAgainCreatesANewJobThatNamesTheOneItSupersedes() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job finished = finished(queue, "circus-nights");

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
  void aTitlesJobIsFoundAgainAfterARestartAndForgottenOnceDeleted() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job finished = finished(queue, "circus-nights");
    Job pending = queue.add("demo", "lion-tamer", false).job();

    JobQueue restarted = QueueFixtures.queue(dir, clock);
    assertThat(restarted.addTitle("demo", "lion-tamer", true).outcome().job().id()).isEqualTo(pending.id());
    assertThat(restarted.delete(finished.id()).accepted()).isTrue();
    JobQueue.Addition again = restarted.addTitle("demo", "circus-nights", false);

    assertThat(again.created()).isTrue();
    assertThat(again.supersededJobId()).as("the deleted job is no longer the title's").isNull();
    assertThat(restarted.jobs()).extracting(Job::id).containsExactly(pending.id(), again.outcome().job().id());
    assertThat(restarted.addTitle("demo", "circus-nights", true).outcome().job().id())
        .isEqualTo(again.outcome().job().id());
  }

  @Test
  void anInspectionKeepsTheSourcesAgeRatingOnTheJobAcrossARestart() throws Exception {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = queue.add("demo", "circus-nights", true).job();
    assertThat(job.rating()).isEqualTo(AgeRating.UNRATED);
    queue.claim("demo", "lane-a", LEASE).orElseThrow();

    queue.inspected(job.id(), "lane-a", "Circus Nights", QueueFixtures.chapters(2), AgeRating.FIFTEEN_PLUS);

    assertThat(queue.job(job.id()).orElseThrow().rating()).isEqualTo(AgeRating.FIFTEEN_PLUS);
    assertThat(QueueFixtures.queue(dir, clock).job(job.id()).orElseThrow().rating())
        .as("read back from the journal").isEqualTo(AgeRating.FIFTEEN_PLUS);
    QueueStore store = new QueueStore(dir.resolve("queue.json"));
    store.compact(store.load());
    assertThat(Files.readString(dir.resolve("queue.json"))).contains("\"ageRating\":\"15\"");
    assertThat(QueueFixtures.queue(dir, clock).job(job.id()).orElseThrow().rating())
        .as("read back from the snapshot").isEqualTo(AgeRating.FIFTEEN_PLUS);
  }

  @Test
  void aJobWithoutARatingIsWrittenWithoutOneAndAnUnknownCodeIsUnrated() throws Exception {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = queue.add("demo", "circus-nights", true).job();
    QueueStore store = new QueueStore(dir.resolve("queue.json"));
    store.compact(store.load());

    assertThat(Files.readString(dir.resolve("queue.json"))).contains(job.id())
        .doesNotContain("ageRating");
    assertThat(new Job(job.id(), "demo", "t", "t", JobState.PENDING, false, false, 0, 0, null, null, null, null, null,
        null, List.of(), 0, 0, "en", List.of(), "PG-13").rating()).isEqualTo(AgeRating.UNRATED);
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

    for (int i = 1; i <= RetryPolicy.MAX_ATTEMPTS; i++) {
      queue.claim("demo", "lane-a", LEASE).orElseThrow();
      queue.setback(job.id(), JobState.RETRY_WAIT, "server error 500", true, clock.instant());
      if (i < RetryPolicy.MAX_ATTEMPTS) {
        assertThat(queue.job(job.id()).orElseThrow().state()).isEqualTo(JobState.RETRY_WAIT);
      }
    }
    Job exhausted = queue.job(job.id()).orElseThrow();
    assertThat(exhausted.attempts()).isEqualTo(RetryPolicy.MAX_ATTEMPTS);
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
    queue.lanes().pause("demo", "operator");
    assertThat(queue.claim("demo", "lane-a", LEASE)).isEmpty();
    queue.lanes().resume("demo");
    queue.claim("demo", "lane-a", LEASE).orElseThrow();

    queue.pause(job.id());

    assertThat(queue.renew(job.id(), "lane-a", LEASE)).isFalse();
    assertThat(queue.resume(job.id()).job().state()).isEqualTo(JobState.PENDING);
  }

  @Test
  void chapterStagesOnlyMoveForwardAndABackwardWriteIsRefusedAndLogged() throws Exception {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = inspectedAndConfirmed(queue, "circus-nights");

    assertThat(queue.stage(job.id(), "c1", ChapterStage.FETCHING, 10, "f".repeat(64), null, null).accepted()).isTrue();
    assertThat(queue.stage(job.id(), "c1", ChapterStage.FETCHING, 10, "f".repeat(64), null, null).accepted()).as("staying put").isTrue();
    assertThat(queue.stage(job.id(), "c1", ChapterStage.PUBLISHED, 10, "f".repeat(64), null, null).accepted()).isTrue();
    assertThat(queue.stage(job.id(), "c1", ChapterStage.FETCHING, 10, "f".repeat(64), null, null).accepted()).isFalse();
    assertThat(queue.stage(job.id(), "c1", ChapterStage.FAILED, 10, "f".repeat(64), null, null).accepted()).isFalse();

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
    queue.startChapter(job.id(), "c1", 12, "a".repeat(64));

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
      queue.incidents().record(new io.mangacircus.scraper.failure.Failure(io.mangacircus.scraper.failure.FailureKind.NETWORK,
          500, "failure " + i), "demo", i == 205 ? job.id() : null,
          io.mangacircus.scraper.failure.FailureAction.RETRY_LATER);
    }

    JobQueue reloaded = QueueFixtures.queue(dir, clock);
    assertThat(reloaded.incidents().list()).hasSize(IncidentStore.MAX_INCIDENTS);
    assertThat(reloaded.incidents().list().get(0).message()).isEqualTo("failure 6");
    assertThat(reloaded.incidents().open()).isEqualTo(200);

    reloaded.claim("demo", "lane-a", LEASE).orElseThrow();
    reloaded.setback(job.id(), JobState.QUARANTINED, "parser", true, null);
    reloaded.retry(job.id());
    assertThat(reloaded.incidents().open()).isEqualTo(199);
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

  @Test
  void listenersAreToldAfterTheLockIsReleasedSoTheyMayReadTheQueue() {
    java.util.concurrent.atomic.AtomicReference<JobQueue> ref = new java.util.concurrent.atomic.AtomicReference<>();
    List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
    QueueListener listener = new QueueListener() {
      @Override
      public void jobChanged(Job job) {
        // Another thread reads the queue while the listener runs: inside the queue's lock this would wait forever.
        java.util.concurrent.CompletableFuture<Integer> read =
            java.util.concurrent.CompletableFuture.supplyAsync(() -> ref.get().jobs().size());
        try {
          told.add(job.state().wire() + ":" + read.get(10, java.util.concurrent.TimeUnit.SECONDS));
        } catch (Exception e) {
          told.add("blocked: " + e);
        }
      }

      @Override
      public void chapterPublished(Job job, ChapterEntry chapter, io.mangacircus.contracts.library.PublishedChapter where) {
      }

      @Override
      public void incidentRecorded(io.mangacircus.scraper.failure.Incident incident) {
        told.add("incident " + incident.message());
      }
    };
    JobQueue queue = new JobQueue(new QueueStore(dir.resolve("queue.json")), new EventLog(dir.resolve("events.log")),
        clock, java.util.Set.of("demo"), listener);
    ref.set(queue);

    Job job = queue.add("demo", "circus-nights", true).job();
    queue.incidents().record(new io.mangacircus.scraper.failure.Failure(
        io.mangacircus.scraper.failure.FailureKind.NETWORK, 503, "busy"), "demo", job.id(),
        io.mangacircus.scraper.failure.FailureAction.RETRY_LATER);
    queue.pause(job.id());
    // A change that nests a store's change (resume clears the job's incidents) is told once, after both.
    queue.resume(job.id());

    assertThat(told).containsExactly("pending:1", "incident busy", "paused:1", "pending:1");
  }

  @Test
  void chapterOperationsRecordEachStepOnceAndKeepAResumedChapterWhereItIs() throws Exception {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = inspectedAndConfirmed(queue, "circus-nights");
    queue.claim("demo", "lane-a", LEASE).orElseThrow();
    String fingerprint = "f".repeat(64);

    assertThat(queue.startChapter(job.id(), "c1", 3, fingerprint).job().chapters().get(0).stage())
        .isEqualTo(ChapterStage.FETCHING);
    // The lane starting the chapter again after a restart records nothing new.
    assertThat(queue.startChapter(job.id(), "c1", 3, fingerprint).job().chapters().get(0).stage())
        .isEqualTo(ChapterStage.FETCHING);
    assertThat(queue.chapterFailed(job.id(), "c2", 0, null, "chapter_gone: 404").job().chapters().get(1).reason())
        .isEqualTo("chapter_gone: 404");
    assertThat(queue.startChapter(job.id(), "c9", 3, fingerprint).kind()).isEqualTo(QueueOutcome.Refusal.NOT_FOUND);

    List<String> stages = Files.readAllLines(dir.resolve("events.log")).stream()
        .filter(l -> l.contains("\"type\":\"chapter.stage\"")).toList();
    assertThat(stages).hasSize(2);
    assertThat(stages.get(0)).contains("\"from\":\"planned\"", "\"to\":\"fetching\"");

    // A queue.json from an earlier version holds the chapter at publishing: read as it is, never moved back.
    QueueFixtures.stageAsAnEarlierVersionWroteIt(dir.resolve("queue.json"), job.id(), "c1", "publishing");
    JobQueue reloaded = QueueFixtures.queue(dir, clock);
    assertThat(reloaded.chapter(job.id(), "c1").orElseThrow().stage()).isEqualTo(ChapterStage.PUBLISHING);
    assertThat(reloaded.openChapters()).extracting(open -> open.chapter().id()).containsExactly("c1");
    assertThat(reloaded.startChapter(job.id(), "c1", 3, fingerprint).job().chapters().get(0).stage())
        .isEqualTo(ChapterStage.PUBLISHING);
  }

  @Test
  void aFailedJobIsDismissedWithItsIncidentsAndNamesOnlyItsUnpublishedStagingForCleanUp() throws Exception {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job job = inspectedAndConfirmed(queue, "circus-nights");
    queue.claim("demo", "lane-a", LEASE).orElseThrow();
    queue.startChapter(job.id(), "c1", 3, "a".repeat(64));
    queue.startChapter(job.id(), "c2", 3, "b".repeat(64));
    queue.stage(job.id(), "c2", ChapterStage.PUBLISHED, 3, "b".repeat(64), null, null);
    assertThat(queue.pause(job.id()).accepted()).isTrue();

    QueueOutcome dismissed = queue.dismiss(job.id());

    assertThat(dismissed.accepted()).isTrue();
    assertThat(dismissed.job().state()).isEqualTo(JobState.PAUSED);
    assertThat(queue.jobs()).isEmpty();
    assertThat(QueueFixtures.queue(dir, clock).jobs()).as("gone after a reload too").isEmpty();
    assertThat(JobQueue.unpublishedStaging(dismissed.job())).as("the published chapter's files are never named")
        .containsExactly("a".repeat(64));
    assertThat(Files.readString(dir.resolve("events.log"))).contains("\"type\":\"job.dismissed\"");
  }

  @Test
  void onlyAFailedJobCanBeDismissedAndOnlyAFinishedOneDeleted() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    Job pending = queue.add("other", "lion-tamer", false).job();
    Job finished = finished(queue, "circus-nights");

    QueueOutcome dismissPending = queue.dismiss(pending.id());
    QueueOutcome deletePending = queue.delete(pending.id());
    QueueOutcome dismissDone = queue.dismiss(finished.id());

    assertThat(List.of(dismissPending, deletePending, dismissDone)).allSatisfy(o -> {
      assertThat(o.accepted()).isFalse();
      assertThat(o.kind()).isEqualTo(QueueOutcome.Refusal.ILLEGAL_TRANSITION);
    });
    assertThat(dismissPending.refusal()).contains("only a failed job", "is pending");
    assertThat(deletePending.refusal()).contains("only a finished (done) job", "is pending");
    assertThat(queue.jobs()).hasSize(2);

    assertThat(queue.delete(finished.id()).accepted()).isTrue();
    assertThat(queue.jobs()).extracting(Job::id).containsExactly(pending.id());
    assertThat(queue.delete("j-nothere").kind()).isEqualTo(QueueOutcome.Refusal.NOT_FOUND);
    assertThat(queue.dismiss("j-nothere").kind()).isEqualTo(QueueOutcome.Refusal.NOT_FOUND);
  }

  @Test
  void aPageHoldsItsSliceOfTheStateAskedForWithTheTotalsOfTheWholeQueue() {
    JobQueue queue = QueueFixtures.queue(dir, clock);
    for (int i = 0; i < 7; i++) {
      Job job = queue.add("demo", "title-" + i, false).job();
      if (i % 3 == 0) {
        queue.pause(job.id());
      }
    }

    JobQueue.JobPage second = queue.page(null, 3, 3);
    JobQueue.JobPage paused = queue.page(JobState.PAUSED, 1, 10);
    JobQueue.JobPage beyond = queue.page(JobState.PENDING, 40, 10);

    assertThat(second.jobs()).extracting(Job::titleId).containsExactly("title-3", "title-4", "title-5");
    assertThat(second.total()).isEqualTo(7);
    assertThat(second.counts()).containsEntry(JobState.PAUSED, 3).containsEntry(JobState.PENDING, 4);
    assertThat(paused.jobs()).extracting(Job::titleId).containsExactly("title-3", "title-6");
    assertThat(paused.total()).isEqualTo(3);
    assertThat(beyond.jobs()).isEmpty();
    assertThat(beyond.total()).isEqualTo(4);
  }

  @Test
  void theStatesAListRequestMayFilterOnAreExactlyTheJobStates() {
    assertThat(io.mangacircus.contracts.JobsListRequest.STATES).containsExactlyInAnyOrderElementsOf(
        java.util.Arrays.stream(JobState.values()).map(JobState::wire).toList());
  }
}
