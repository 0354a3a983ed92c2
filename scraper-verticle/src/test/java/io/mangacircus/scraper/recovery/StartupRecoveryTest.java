package io.mangacircus.scraper.recovery;

import io.mangacircus.testing.TestImages;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.publish.ChapterKey;
import io.mangacircus.scraper.publish.ChapterPublisher;
import io.mangacircus.scraper.publish.Fingerprints;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.publish.StagingFolder;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.ChapterStage;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.QueueFixtures;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.PageBytes;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.TitleInfo;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each of the four verdicts on real files, with a scripted source standing in for the remote site. */
class StartupRecoveryTest {

  @TempDir
  Path dir;

  private final Vertx vertx = Vertx.vertx();
  private final List<String> manifest = List.of("001.png", "002.png");

  /** Answers chapter-page requests from a script: chapter id → outcome. */
  private static class ScriptedSource implements Source {
    final Map<String, FetchOutcome<List<PageRef>>> pages = new HashMap<>();
    int calls;

    @Override
    public String name() {
      return "demo";
    }

    @Override
    public Future<FetchOutcome<TitleInfo>> title(String titleRef) {
      throw new AssertionError("recovery never asks for title metadata");
    }

    @Override
    public Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
      calls++;
      return Future.succeededFuture(pages.get(chapter.id()));
    }

    @Override
    public Future<FetchOutcome<PageBytes>> page(PageRef page) {
      throw new AssertionError("recovery never downloads images");
    }
  }

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private JobQueue queue() {
    return new JobQueue(new QueueStore(dir.resolve("scraper/queue.json")), new EventLog(dir.resolve("scraper/events.log")),
        InstantSource.system(), Set.of("demo"), QueueListener.NONE);
  }

  private static ChapterKey key(String chapterId) {
    return new ChapterKey("demo", "circus-nights", "Circus Nights", chapterId, chapterId.substring(1), "", "en");
  }

  private static String fingerprint(String chapterId, List<String> pages) {
    return Fingerprints.chapter("demo", "circus-nights", chapterId, pages);
  }

  @Test
  void eachOpenChapterGetsItsVerdictAndASecondPassChangesNothing() throws Exception {
    LibraryFolders library = new LibraryFolders(dir.resolve("library"));
    ChapterPublisher publisher = new ChapterPublisher(library, InstantSource.system());
    JobQueue queue = queue();
    Job job = queue.add("demo", "circus-nights", true).job();
    queue.claim("demo", "lane", Duration.ofMinutes(2)).orElseThrow();
    queue.inspected(job.id(), "lane", "Circus Nights", List.of(ChapterEntry.planned("c1", "1", ""),
        ChapterEntry.planned("c2", "2", ""), ChapterEntry.planned("c3", "3", ""), ChapterEntry.planned("c4", "4", "")));
    queue.claim("demo", "lane", Duration.ofMinutes(2)).orElseThrow();

    // c1: published before the crash, but the journal (an earlier version's) still says publishing → complete.
    StagingFolder done = StagingFolder.open(library, key("c1"), manifest, InstantSource.system());
    done.store(new PageRef(1, "001.png", "u"), "png", TestImages.png(1));
    done.store(new PageRef(2, "002.png", "u"), "png", TestImages.png(2));
    queue.startChapter(job.id(), "c1", 2, done.fingerprint());
    publisher.publish(done);
    // c2: half staged → still.
    StagingFolder half = StagingFolder.open(library, key("c2"), manifest, InstantSource.system());
    half.store(new PageRef(1, "001.png", "u"), "png", TestImages.png(3));
    queue.startChapter(job.id(), "c2", 2, half.fingerprint());
    // c3: nothing staged and the source says it is gone → gone.
    queue.startChapter(job.id(), "c3", 2, fingerprint("c3", manifest));
    // c4: nothing staged and the source is unreachable → unknown.
    queue.startChapter(job.id(), "c4", 2, fingerprint("c4", manifest));

    ScriptedSource source = new ScriptedSource();
    source.pages.put("c3", new FetchOutcome.NotFound<>("chapter c3"));
    source.pages.put("c4", new FetchOutcome.NetworkError<>("connection refused"));
    QueueFixtures.stageAsAnEarlierVersionWroteIt(dir.resolve("scraper/queue.json"), job.id(), "c1", "publishing");

    JobQueue restarted = queue();
    StartupRecovery recovery = new StartupRecovery(vertx, restarted, Map.of("demo", source), library, publisher,
        new ScraperConfig.Recovery(50, 0));
    StartupRecovery.Report report = recovery.run().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

    assertThat(report.released()).isEqualTo(1);
    assertThat(report.verdicts()).containsEntry(RecoveryVerdict.COMPLETE, 1).containsEntry(RecoveryVerdict.STILL, 1)
        .containsEntry(RecoveryVerdict.GONE, 1).containsEntry(RecoveryVerdict.UNKNOWN, 1);
    assertThat(restarted.chapter(job.id(), "c1").orElseThrow().stage()).isEqualTo(ChapterStage.PUBLISHED);
    assertThat(restarted.chapter(job.id(), "c2").orElseThrow().stage()).isEqualTo(ChapterStage.FETCHING);
    ChapterEntry gone = restarted.chapter(job.id(), "c3").orElseThrow();
    assertThat(gone.stage()).isEqualTo(ChapterStage.FAILED);
    assertThat(gone.reason()).startsWith("chapter_gone");
    assertThat(restarted.chapter(job.id(), "c4").orElseThrow().stage()).isEqualTo(ChapterStage.FETCHING);
    assertThat(source.calls).as("the source is asked only when nothing local decides").isEqualTo(2);
    assertThat(half.path().resolve("001.png")).exists();

    byte[] queueBefore = Files.readAllBytes(dir.resolve("scraper/queue.json"));
    Path journal = dir.resolve("scraper/queue.json.journal");
    byte[] journalBefore = Files.exists(journal) ? Files.readAllBytes(journal) : new byte[0];
    StartupRecovery.Report second = new StartupRecovery(vertx, queue(), Map.of("demo", source), library, publisher,
        new ScraperConfig.Recovery(50, 0)).run().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(second.released()).isZero();
    assertThat(second.verdicts()).doesNotContainKeys(RecoveryVerdict.COMPLETE, RecoveryVerdict.GONE);
    assertThat(Files.readAllBytes(dir.resolve("scraper/queue.json"))).isEqualTo(queueBefore);
    assertThat(Files.exists(journal) ? Files.readAllBytes(journal) : new byte[0]).isEqualTo(journalBefore);
  }

  @Test
  void aCrashBetweenTheLibraryRenameAndThePublishedCommitIsRecordedAsPublishedWithoutAskingTheSource()
      throws Exception {
    LibraryFolders library = new LibraryFolders(dir.resolve("library"));
    ChapterPublisher publisher = new ChapterPublisher(library, InstantSource.system());
    JobQueue queue = queue();
    Job job = queue.add("demo", "circus-nights", true).job();
    queue.claim("demo", "lane", Duration.ofMinutes(2)).orElseThrow();
    queue.inspected(job.id(), "lane", "Circus Nights", List.of(ChapterEntry.planned("c1", "1", "")));
    queue.claim("demo", "lane", Duration.ofMinutes(2)).orElseThrow();
    // What the lane commits for a chapter before its rename: fetching, nothing else.
    StagingFolder staging = StagingFolder.open(library, key("c1"), manifest, InstantSource.system());
    queue.startChapter(job.id(), "c1", 2, staging.fingerprint());
    staging.store(new PageRef(1, "001.png", "u"), "png", TestImages.png(1));
    staging.store(new PageRef(2, "002.png", "u"), "png", TestImages.png(2));
    assertThat(publisher.publish(staging).result()).isEqualTo(ChapterPublisher.Result.PUBLISHED);
    // The process dies here, before chapterPublished.

    ScriptedSource source = new ScriptedSource();
    JobQueue restarted = queue();
    StartupRecovery.Report report = new StartupRecovery(vertx, restarted, Map.of("demo", source), library, publisher,
        new ScraperConfig.Recovery(50, 0)).run().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

    assertThat(report.verdicts()).containsExactly(Map.entry(RecoveryVerdict.COMPLETE, 1));
    ChapterEntry chapter = restarted.chapter(job.id(), "c1").orElseThrow();
    assertThat(chapter.stage()).isEqualTo(ChapterStage.PUBLISHED);
    assertThat(chapter.fingerprint()).isEqualTo(staging.fingerprint());
    assertThat(source.calls).as("nothing is asked of the source, no page fetched again").isZero();
    assertThat(Files.readAllLines(dir.resolve("scraper/events.log"))).filteredOn(l -> l.contains("\"to\":\"published\""))
        .hasSize(1);
  }

  @Test
  void aStopPartWayEndsThePassBetweenChaptersBeforeTheQueueClosesAndTheNextStartFinishesTheRest() throws Exception {
    JobQueue queue = queue();
    Job job = queue.add("demo", "circus-nights", true).job();
    queue.claim("demo", "lane", Duration.ofMinutes(2)).orElseThrow();
    List<String> ids = List.of("c1", "c2", "c3", "c4");
    queue.inspected(job.id(), "lane", "Circus Nights", ids.stream()
        .map(id -> ChapterEntry.planned(id, id.substring(1), "")).toList());
    for (String id : ids) {
      queue.startChapter(job.id(), id, 2, fingerprint(id, manifest));
    }
    queue.close();
    Path queueFile = dir.resolve("scraper/queue.json");
    Path journal = QueueStore.journalOf(queueFile);
    LibraryFolders library = new LibraryFolders(dir.resolve("library"));
    ChapterPublisher publisher = new ChapterPublisher(library, InstantSource.system());

    QueueStore store = new QueueStore(queueFile);
    JobQueue restarted = new JobQueue(store, new EventLog(dir.resolve("scraper/events.log")), InstantSource.system(),
        Set.of("demo"), QueueListener.NONE);
    StartupRecovery[] recovery = new StartupRecovery[1];
    ScriptedSource source = new ScriptedSource() {
      @Override
      public Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
        if (calls == 0) {
          recovery[0].stop();   // SIGTERM while the first look-up is under way
        }
        return super.pages(titleId, chapter);
      }
    };
    ids.forEach(id -> source.pages.put(id, new FetchOutcome.NotFound<>("chapter " + id)));
    recovery[0] = new StartupRecovery(vertx, restarted, Map.of("demo", source), library, publisher,
        new ScraperConfig.Recovery(50, 0));
    ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory
        .getLogger(StartupRecovery.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
        new ch.qos.logback.core.read.ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    StartupRecovery.Report report;
    try {
      report = recovery[0].run().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } finally {
      logger.detachAppender(lines);
    }
    // What the scraper's stop does once the pass has ended: the queue is closed, its journal folded in.
    long savesAtClose = store.saves();
    restarted.close();

    assertThat(report.stopped()).isTrue();
    assertThat(source.calls).as("no look-up after the stop").isEqualTo(1);
    assertThat(store.saves()).as("no commit after the close").isEqualTo(savesAtClose);
    assertThat(journal).as("no journal line after the close").isEmptyFile();
    assertThat(lines.list).filteredOn(e -> e.getFormattedMessage().contains("[RECOVERY] stopped")).singleElement()
        .satisfies(e -> assertThat(e.getLevel()).isEqualTo(ch.qos.logback.classic.Level.INFO));
    assertThat(lines.list).noneMatch(e -> e.getFormattedMessage().contains("done in"));
    JobQueue next = queue();
    for (String id : ids) {
      assertThat(next.chapter(job.id(), id).orElseThrow().stage()).as(id + " untouched, the answer to the look-up "
          + "under way included").isEqualTo(ChapterStage.FETCHING);
    }

    StartupRecovery.Report second = new StartupRecovery(vertx, next, Map.of("demo", source), library, publisher,
        new ScraperConfig.Recovery(50, 0)).run().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(second.stopped()).isFalse();
    assertThat(second.verdicts()).containsEntry(RecoveryVerdict.GONE, 4);
    assertThat(ids.stream().map(id -> next.chapter(job.id(), id).orElseThrow().stage()))
        .containsOnly(ChapterStage.FAILED);
  }

  @Test
  void aStopDoesNotWaitForALookUpUnderWayAndItsLateAnswerWritesNothingAfterTheClose() throws Exception {
    JobQueue queue = queue();
    Job job = queue.add("demo", "circus-nights", true).job();
    queue.claim("demo", "lane", Duration.ofMinutes(2)).orElseThrow();
    queue.inspected(job.id(), "lane", "Circus Nights", List.of(ChapterEntry.planned("c1", "1", "")));
    queue.startChapter(job.id(), "c1", 2, fingerprint("c1", manifest));
    queue.close();
    Path queueFile = dir.resolve("scraper/queue.json");
    QueueStore store = new QueueStore(queueFile);
    JobQueue restarted = new JobQueue(store, new EventLog(dir.resolve("scraper/events.log")), InstantSource.system(),
        Set.of("demo"), QueueListener.NONE);
    io.vertx.core.Promise<FetchOutcome<List<PageRef>>> answer = io.vertx.core.Promise.promise();
    java.util.concurrent.CompletableFuture<Void> asked = new java.util.concurrent.CompletableFuture<>();
    ScriptedSource held = new ScriptedSource() {
      @Override
      public Future<FetchOutcome<List<PageRef>>> pages(String titleId, ChapterInfo chapter) {
        asked.complete(null);   // a source held for minutes, or slow to answer
        return answer.future();
      }
    };
    LibraryFolders library = new LibraryFolders(dir.resolve("library"));
    StartupRecovery recovery = new StartupRecovery(vertx, restarted, Map.of("demo", held), library,
        new ChapterPublisher(library, InstantSource.system()), new ScraperConfig.Recovery(50, 0));
    ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory
        .getLogger(StartupRecovery.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
        new ch.qos.logback.core.read.ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    try {
      Future<StartupRecovery.Report> pass = recovery.run();
      asked.get(10, TimeUnit.SECONDS);

      recovery.stop();
      StartupRecovery.Report report = pass.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      long savesAtClose = store.saves();
      restarted.close();
      vertx.runOnContext(v -> answer.complete(new FetchOutcome.NotFound<>("chapter c1")));
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> lines.list.stream()
          .anyMatch(e -> e.getFormattedMessage().contains("the scraper is stopping: nothing changed")));

      assertThat(report.stopped()).isTrue();
      assertThat(store.saves()).as("the late answer commits nothing").isEqualTo(savesAtClose);
      assertThat(QueueStore.journalOf(queueFile)).as("no journal line after the close").isEmptyFile();
      assertThat(queue().chapter(job.id(), "c1").orElseThrow().stage()).isEqualTo(ChapterStage.FETCHING);
    } finally {
      logger.detachAppender(lines);
    }
  }

  @Test
  void aStopBeforeThePassBeganChangesNothing() throws Exception {
    JobQueue queue = queue();
    Job job = queue.add("demo", "circus-nights", true).job();
    queue.claim("demo", "lane", Duration.ofMinutes(2)).orElseThrow();
    queue.inspected(job.id(), "lane", "Circus Nights", List.of(ChapterEntry.planned("c1", "1", "")));
    queue.claim("demo", "lane", Duration.ofMinutes(2)).orElseThrow();
    queue.startChapter(job.id(), "c1", 2, fingerprint("c1", manifest));
    queue.close();
    QueueStore store = new QueueStore(dir.resolve("scraper/queue.json"));
    JobQueue restarted = new JobQueue(store, new EventLog(dir.resolve("scraper/events.log")), InstantSource.system(),
        Set.of("demo"), QueueListener.NONE);
    ScriptedSource source = new ScriptedSource();
    StartupRecovery recovery = new StartupRecovery(vertx, restarted, Map.of("demo", source),
        new LibraryFolders(dir.resolve("library")), new ChapterPublisher(new LibraryFolders(dir.resolve("library")),
        InstantSource.system()), new ScraperConfig.Recovery(50, 0));

    recovery.stop();
    StartupRecovery.Report report = recovery.run().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

    assertThat(report.stopped()).isTrue();
    assertThat(report.released()).as("the active job is given back by the next start").isZero();
    assertThat(store.saves()).isZero();
    assertThat(source.calls).isZero();
    assertThat(restarted.job(job.id()).orElseThrow().state()).isEqualTo(io.mangacircus.scraper.queue.JobState.ACTIVE);
  }

  @Test
  void aPassIsCappedAndTheRestWaits() throws Exception {
    JobQueue queue = queue();
    Job job = queue.add("demo", "circus-nights", true).job();
    queue.claim("demo", "lane", Duration.ofMinutes(2)).orElseThrow();
    queue.inspected(job.id(), "lane", "Circus Nights", List.of(ChapterEntry.planned("c1", "1", ""),
        ChapterEntry.planned("c2", "2", ""), ChapterEntry.planned("c3", "3", "")));
    for (String id : List.of("c1", "c2", "c3")) {
      queue.startChapter(job.id(), id, 2, fingerprint(id, manifest));
    }
    ScriptedSource source = new ScriptedSource();
    List.of("c1", "c2", "c3").forEach(id -> source.pages.put(id, new FetchOutcome.NetworkError<>("down")));

    StartupRecovery.Report report = new StartupRecovery(vertx, queue, Map.of("demo", source),
        new LibraryFolders(dir.resolve("library")), new ChapterPublisher(new LibraryFolders(dir.resolve("library")),
        InstantSource.system()), new ScraperConfig.Recovery(2, 0)).run().toCompletionStage().toCompletableFuture()
        .get(10, TimeUnit.SECONDS);

    assertThat(report.deferred()).isEqualTo(1);
    assertThat(source.calls).isEqualTo(2);
  }

  @Test
  void theCapAndThePauseApplyOnlyToSourceLookUpsAndTheCompleteOnesAreRecordedInOneSave() throws Exception {
    LibraryFolders library = new LibraryFolders(dir.resolve("library"));
    ChapterPublisher publisher = new ChapterPublisher(library, InstantSource.system());
    JobQueue queue = queue();
    Job job = queue.add("demo", "circus-nights", true).job();
    queue.claim("demo", "lane", Duration.ofMinutes(2)).orElseThrow();
    List<String> ids = List.of("c1", "c2", "c3", "c4", "c5", "c6");
    queue.inspected(job.id(), "lane", "Circus Nights", ids.stream()
        .map(id -> ChapterEntry.planned(id, id.substring(1), "")).toList());
    queue.claim("demo", "lane", Duration.ofMinutes(2)).orElseThrow();
    // c1, c2: in the library with their fingerprint; c3, c4: half staged; c5, c6: only the source can tell.
    for (String id : List.of("c1", "c2", "c3", "c4")) {
      StagingFolder staging = StagingFolder.open(library, key(id), manifest, InstantSource.system());
      staging.store(new PageRef(1, "001.png", "u"), "png", TestImages.png(id.charAt(1)));
      queue.startChapter(job.id(), id, 2, staging.fingerprint());
      if (id.equals("c1") || id.equals("c2")) {
        staging.store(new PageRef(2, "002.png", "u"), "png", TestImages.png(10 + id.charAt(1)));
        assertThat(publisher.publish(staging).result()).isEqualTo(ChapterPublisher.Result.PUBLISHED);
      }
    }
    for (String id : List.of("c5", "c6")) {
      queue.startChapter(job.id(), id, 2, fingerprint(id, manifest));
    }
    ScriptedSource source = new ScriptedSource();
    List.of("c5", "c6").forEach(id -> source.pages.put(id, new FetchOutcome.NetworkError<>("down")));

    QueueStore store = new QueueStore(dir.resolve("scraper/queue.json"));
    JobQueue restarted = new JobQueue(store, new EventLog(dir.resolve("scraper/events.log")), InstantSource.system(),
        Set.of("demo"), QueueListener.NONE);
    List<Boolean> publishedAroundTheCommit = new java.util.ArrayList<>();   // c1 published: before, after
    StartupRecovery.Report report = new StartupRecovery(vertx, restarted, Map.of("demo", source), library, publisher,
        new ScraperConfig.Recovery(1, 0), commit -> {
          publishedAroundTheCommit.add(restarted.chapter(job.id(), "c1").orElseThrow().stage() == ChapterStage.PUBLISHED);
          commit.run();
          publishedAroundTheCommit.add(restarted.chapter(job.id(), "c1").orElseThrow().stage() == ChapterStage.PUBLISHED);
        }).run().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

    assertThat(publishedAroundTheCommit).as("the complete chapters' one commit runs inside the hook, once")
        .containsExactly(false, true);
    assertThat(report.verdicts()).containsEntry(RecoveryVerdict.COMPLETE, 2).containsEntry(RecoveryVerdict.STILL, 2)
        .containsEntry(RecoveryVerdict.UNKNOWN, 1);
    assertThat(report.deferred()).as("one source look-up a pass: the other waits").isEqualTo(1);
    assertThat(source.calls).isEqualTo(1);
    assertThat(restarted.chapter(job.id(), "c1").orElseThrow().stage()).isEqualTo(ChapterStage.PUBLISHED);
    assertThat(restarted.chapter(job.id(), "c2").orElseThrow().stage()).isEqualTo(ChapterStage.PUBLISHED);
    // One save gives back the active job, one records both complete chapters.
    assertThat(store.saves()).isEqualTo(2);
    assertThat(Files.readAllLines(dir.resolve("scraper/events.log"))).filteredOn(l -> l.contains("\"to\":\"published\""))
        .hasSize(2);
  }

  @Test
  void eachVerdictTheFilesGiveIsSummedUpInOneLineAndOnlyUnknownChaptersGetTheirOwnWarning() throws Exception {
    LibraryFolders library = new LibraryFolders(dir.resolve("library"));
    ChapterPublisher publisher = new ChapterPublisher(library, InstantSource.system());
    JobQueue queue = queue();
    Job job = queue.add("demo", "circus-nights", true).job();
    queue.claim("demo", "lane", Duration.ofMinutes(2)).orElseThrow();
    List<String> ids = List.of("c1", "c2", "c3", "c4", "c5", "c6");
    queue.inspected(job.id(), "lane", "Circus Nights", ids.stream()
        .map(id -> ChapterEntry.planned(id, id.substring(1), "")).toList());
    queue.claim("demo", "lane", Duration.ofMinutes(2)).orElseThrow();
    // c1, c2: in the library with their fingerprint; c3, c4, c5: one page staged; c6: a checkpoint that is not JSON.
    for (String id : List.of("c1", "c2", "c3", "c4", "c5", "c6")) {
      StagingFolder staging = StagingFolder.open(library, key(id), manifest, InstantSource.system());
      staging.store(new PageRef(1, "001.png", "u"), "png", TestImages.png(id.charAt(1)));
      queue.startChapter(job.id(), id, 2, staging.fingerprint());
      if (id.equals("c1") || id.equals("c2")) {
        staging.store(new PageRef(2, "002.png", "u"), "png", TestImages.png(10 + id.charAt(1)));
        assertThat(publisher.publish(staging).result()).isEqualTo(ChapterPublisher.Result.PUBLISHED);
      }
      if (id.equals("c6")) {
        staging.close();
        Files.writeString(staging.path().resolve("checkpoint.json"), "{not json");
      }
    }
    ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory
        .getLogger(StartupRecovery.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
        new ch.qos.logback.core.read.ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    ch.qos.logback.classic.Level level = logger.getLevel();
    logger.setLevel(ch.qos.logback.classic.Level.DEBUG);
    try {
      StartupRecovery.Report report = new StartupRecovery(vertx, queue(), Map.of("demo", new ScriptedSource()), library,
          publisher, new ScraperConfig.Recovery(50, 0)).run().toCompletionStage().toCompletableFuture()
          .get(10, TimeUnit.SECONDS);
      assertThat(report.verdicts()).containsEntry(RecoveryVerdict.COMPLETE, 2).containsEntry(RecoveryVerdict.STILL, 3)
          .containsEntry(RecoveryVerdict.UNKNOWN, 1);
    } finally {
      logger.detachAppender(lines);
      logger.setLevel(level);
    }

    List<String> info = lines.list.stream()
        .filter(e -> e.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.INFO))
        .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
    List<String> debug = lines.list.stream().filter(e -> e.getLevel() == ch.qos.logback.classic.Level.DEBUG)
        .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
    assertThat(info).filteredOn(l -> l.contains("open chapters complete")).singleElement().asString()
        .startsWith("[RECOVERY] 2 open chapters complete (the library already holds them with their fingerprint)")
        .contains(job.id() + " circus-nights chapter 1", job.id() + " circus-nights chapter 2");
    assertThat(info).filteredOn(l -> l.contains("open chapters still")).singleElement().asString()
        .startsWith("[RECOVERY] 3 open chapters still (staging holds 3 validated pages in all");
    assertThat(info).filteredOn(l -> l.contains("open chapters unknown")).singleElement().asString()
        .startsWith("[RECOVERY] 1 open chapters unknown");
    assertThat(info).as("the unknown chapter is named in its own line").filteredOn(l -> l.contains("chapter 6: unknown"))
        .hasSize(1);
    assertThat(info).as("complete and still chapters are summed up, not listed one a line")
        .noneMatch(l -> l.contains(": complete (") || l.contains(": still ("));
    assertThat(debug).filteredOn(l -> l.contains(": complete (") || l.contains(": still (")).hasSize(5);
    assertThat(info).filteredOn(l -> l.contains("jobs were active when the scraper stopped")).singleElement()
        .asString().contains(job.id() + " (Circus Nights)");
  }
}
