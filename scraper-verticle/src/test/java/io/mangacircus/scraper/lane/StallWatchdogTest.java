package io.mangacircus.scraper.lane;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.failure.Incident;
import io.mangacircus.scraper.failure.SystemicParserWatch;
import io.mangacircus.scraper.publish.ChapterKey;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.publish.StagingFolder;
import io.mangacircus.scraper.queue.ChapterEntry;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.testing.MutableClock;
import io.mangacircus.testing.TestImages;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The watchdog on a real queue and library folder with a clock the test moves: the stall rule carried out. */
class StallWatchdogTest {

  private static final Duration LEASE = Duration.ofHours(2);
  private static final Duration WINDOW = Duration.ofSeconds(900);

  @TempDir
  Path data;

  private final MutableClock clock = new MutableClock();
  private JobQueue queue;
  private StallWatchdog watchdog;
  private LibraryFolders library;

  @BeforeEach
  void start() {
    queue = new JobQueue(new QueueStore(data.resolve("scraper/queue.json")),
        new EventLog(data.resolve("scraper/events.log")), clock, Set.of("demo"), QueueListener.NONE);
    SourceConfig demo = new SourceConfig("demo", "http://127.0.0.1:1", 0L, 0L);
    ScraperConfig config = new ScraperConfig(0, true, 120, 50, 60, 30, new ScraperConfig.Recovery(50, 0),
        new ScraperConfig.Demo(false, 0, "circus-nights"), Map.of("demo", demo),
        new ScraperConfig.Failures(300, 2, 100, 3, 300, 2, 60), new ScraperConfig.Stall(30, WINDOW.toSeconds(), 180));
    library = new LibraryFolders(data.resolve("library"));
    watchdog = new StallWatchdog(queue, library, Map.of("demo", demo), config,
        new SystemicParserWatch(3, Duration.ofHours(1), clock), clock);
  }

  private Job active() {
    Job job = queue.add("demo", "circus-nights", true).job();
    queue.claim("demo", "lane", LEASE).orElseThrow();
    queue.inspected(job.id(), "lane", "Circus Nights", List.of(ChapterEntry.planned("c1", "1", "")));
    return queue.claim("demo", "lane", LEASE).orElseThrow().job();
  }

  /** Ticks once now and once after the stall window without any progress. */
  private void standStillForTheWindow() {
    watchdog.tick();
    clock.advance(WINDOW);
    watchdog.tick();
  }

  @Test
  void aJobWhoseCheckpointStandsStillIsRequeuedOnceWithAStallIncident() {
    Job job = active();

    standStillForTheWindow();

    Job requeued = queue.job(job.id()).orElseThrow();
    assertThat(requeued.state()).isEqualTo(JobState.PENDING);
    assertThat(requeued.stalls()).isEqualTo(1);
    assertThat(requeued.attempts()).as("a stall is the system's doing").isZero();
    assertThat(queue.incidents().list()).singleElement().satisfies(incident -> {
      assertThat(incident.kind()).isEqualTo(FailureKind.STALL);
      assertThat(incident.jobId()).isEqualTo(job.id());
      assertThat(incident.action()).isEqualTo("job requeued");
    });
  }

  @Test
  void theSecondStallQuarantinesTheJob() {
    Job job = active();
    standStillForTheWindow();
    queue.claim("demo", "lane", LEASE).orElseThrow();

    standStillForTheWindow();

    assertThat(queue.job(job.id()).orElseThrow().state()).isEqualTo(JobState.QUARANTINED);
    assertThat(queue.incidents().list()).extracting(Incident::action)
        .containsExactly("job requeued", "job quarantined");
  }

  @Test
  void aJobWhoseCheckpointLogGrowsIsNotAStall() throws Exception {
    Job job = active();
    List<String> manifest = List.of("001.png", "002.png");
    StagingFolder staging = StagingFolder.open(library, new ChapterKey("demo", "circus-nights", "Circus Nights", "c1",
        "1", "", "en"), manifest, clock);
    queue.startChapter(job.id(), "c1", 2, staging.fingerprint());

    watchdog.tick();
    clock.advance(WINDOW.minusSeconds(60));
    staging.store(new PageRef(1, "001.png", "u"), "png", TestImages.png(1));
    watchdog.tick();
    clock.advance(WINDOW.minusSeconds(60));
    staging.store(new PageRef(2, "002.png", "u"), "png", TestImages.png(2));
    watchdog.tick();
    staging.close();

    assertThat(queue.job(job.id()).orElseThrow().state()).isEqualTo(JobState.ACTIVE);
    assertThat(queue.incidents().list()).isEmpty();

    clock.advance(WINDOW);
    watchdog.tick();
    assertThat(queue.job(job.id()).orElseThrow().state()).as("then it stands still").isEqualTo(JobState.PENDING);
  }

  @Test
  void timeTheSourceHoldsTheLaneDoesNotCountTowardTheStallWindow() {
    Job job = active();
    watchdog.tick();
    clock.advance(Duration.ofMinutes(10));
    watchdog.tick();
    queue.lanes().hold("demo", clock.instant().plus(Duration.ofMinutes(10)), "the source asked to wait (429)");
    watchdog.tick();
    clock.advance(Duration.ofMinutes(10));
    watchdog.tick();

    assertThat(queue.job(job.id()).orElseThrow().state()).as("10 min standing still + 10 min held").isEqualTo(
        JobState.ACTIVE);
    assertThat(queue.incidents().list()).isEmpty();

    clock.advance(WINDOW);
    watchdog.tick();
    assertThat(queue.job(job.id()).orElseThrow().state()).as("standing still once the hold is over")
        .isEqualTo(JobState.PENDING);
  }

  @Test
  void aPausedLaneIsNotAStall() {
    Job job = active();
    queue.lanes().pause("demo", "operator");

    standStillForTheWindow();

    assertThat(queue.job(job.id()).orElseThrow().state()).isEqualTo(JobState.ACTIVE);
    assertThat(queue.incidents().list()).isEmpty();
  }
}
