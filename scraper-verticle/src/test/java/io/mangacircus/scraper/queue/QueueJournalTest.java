package io.mangacircus.scraper.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The change journal beside queue.json: a change is one appended line, replayed over the snapshot at load. */
class QueueJournalTest {

  @TempDir
  Path dir;

  private Path file() {
    return dir.resolve("queue.json");
  }

  private Path journal() {
    return dir.resolve("queue.json.journal");
  }

  private JobQueue queue(QueueStore store) {
    return new JobQueue(store, new EventLog(dir.resolve("events.log")), new MutableClock(), Set.of("demo", "other"),
        QueueListener.NONE);
  }

  private static Job job(String id, JobState state) {
    Instant now = Instant.parse("2026-11-01T00:00:00Z");
    return new Job(id, "demo", "t-" + id, "Title " + id, state, true, true, 0, 0, now, now, null, null, null, null,
        QueueFixtures.chapters(3), 0, 0);
  }

  private static QueueFile file(Job... jobs) {
    return new QueueFile(QueueStore.SCHEMA, List.of(jobs), Map.of(), List.of());
  }

  @Test
  void addingAJobToALongQueueAppendsOneLineAndLeavesQueueJsonUntouched() throws Exception {
    List<Job> jobs = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      jobs.add(job("j-" + i, JobState.DONE));
    }
    new QueueStore(file()).compact(new QueueFile(QueueStore.SCHEMA, jobs, Map.of(), List.of()));
    JobQueue queue = queue(new QueueStore(file()));
    byte[] snapshot = Files.readAllBytes(file());
    long linesBefore = Files.exists(journal()) ? Files.readAllLines(journal()).size() : 0;
    long bytesBefore = Files.size(journal());

    queue.add("demo", "one-more", false);

    assertThat(Files.readAllBytes(file())).as("queue.json is not rewritten by an add").isEqualTo(snapshot);
    List<String> lines = Files.readAllLines(journal());
    assertThat(lines).hasSize((int) linesBefore + 1);
    assertThat(lines.get(lines.size() - 1)).contains("\"titleId\":\"one-more\"").doesNotContain("\"j-1\"");
    assertThat(Files.size(journal()) - bytesBefore).as("the add's bytes do not grow with the queue")
        .isLessThan(1024).isLessThan(snapshot.length / 100);
    assertThat(new QueueStore(file()).load().jobs()).hasSize(301).last()
        .satisfies(job -> assertThat(job.titleId()).isEqualTo("one-more"));
  }

  @Test
  void aRestartReplaysTheJournalOverTheSnapshotInOrder() {
    JobQueue queue = queue(new QueueStore(file()));
    String first = queue.add("demo", "first", false).job().id();
    String second = queue.add("demo", "second", false).job().id();
    String third = queue.add("other", "third", false).job().id();
    queue.pause(second);
    queue.dismiss(second);
    queue.pause(first);
    queue.lanes().pause("demo", "maintenance");
    List<Job> expected = queue.jobs();

    QueueStore reloaded = new QueueStore(file());
    JobQueue restarted = queue(reloaded);

    assertThat(reloaded.replayed()).as("every change after the first add came from the journal").isEqualTo(6);
    assertThat(restarted.jobs()).isEqualTo(expected);
    assertThat(restarted.jobs()).extracting(Job::id).containsExactly(first, third);
    assertThat(restarted.job(first).orElseThrow().state()).isEqualTo(JobState.PAUSED);
    assertThat(restarted.lanes().lane("demo").paused()).isTrue();
  }

  @Test
  void aTornLastLineIsIgnoredWithAWarningAndCutOffByTheNextAppend() throws Exception {
    QueueStore store = new QueueStore(file());
    store.save(file(job("j-1", JobState.PENDING)));
    store.save(file(job("j-1", JobState.PENDING), job("j-2", JobState.PENDING)));
    String torn = "{\"seq\":3,\"jobs\":[{\"id\":\"j-3\",\"sour";
    Files.writeString(journal(), torn, StandardOpenOption.APPEND);
    Logger logger = (Logger) LoggerFactory.getLogger(QueueStore.class);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    logger.addAppender(logs);
    QueueStore restarted = new QueueStore(file());
    QueueFile loaded;
    try {
      loaded = restarted.load();
    } finally {
      logger.detachAppender(logs);
    }

    assertThat(loaded.jobs()).extracting(Job::id).containsExactly("j-1", "j-2");
    assertThat(logs.list).anySatisfy(event -> {
      assertThat(event.getLevel()).isEqualTo(Level.WARN);
      assertThat(event.getFormattedMessage()).contains("queue.json.journal", "last line", "ignored");
    });
    restarted.save(file(job("j-1", JobState.PENDING), job("j-2", JobState.PENDING), job("j-4", JobState.PENDING)));
    assertThat(Files.readString(journal())).doesNotContain("j-3").endsWith("\n");
    assertThat(new QueueStore(file()).load().jobs()).extracting(Job::id).containsExactly("j-1", "j-2", "j-4");
  }

  @Test
  void anUnparsableLineInTheMiddleIsACorruptStateFileAndNothingIsOverwritten() throws Exception {
    QueueStore store = new QueueStore(file());
    store.save(file(job("j-1", JobState.PENDING)));
    store.save(file(job("j-1", JobState.PAUSED)));
    store.save(file(job("j-1", JobState.PENDING)));
    store.save(file(job("j-1", JobState.PAUSED)));
    List<String> lines = new ArrayList<>(Files.readAllLines(journal()));
    assertThat(lines).hasSize(3);
    lines.set(1, lines.get(1).substring(0, 20));
    Files.write(journal(), lines);
    byte[] journalBefore = Files.readAllBytes(journal());
    byte[] snapshotBefore = Files.readAllBytes(file());

    assertThatThrownBy(() -> queue(new QueueStore(file()))).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining(journal().toString()).hasMessageContaining("line 2");

    assertThat(Files.readAllBytes(journal())).isEqualTo(journalBefore);
    assertThat(Files.readAllBytes(file())).isEqualTo(snapshotBefore);
  }

  @Test
  void aCrashBetweenTheSnapshotAndTheJournalRewriteReplaysNothingTwice() throws Exception {
    QueueStore store = new QueueStore(file());
    store.save(file(job("j-1", JobState.PENDING)));
    store.save(file(job("j-1", JobState.PENDING), job("j-2", JobState.PENDING)));
    store.save(file(job("j-2", JobState.PENDING)));
    byte[] oldJournal = Files.readAllBytes(journal());
    store.compact(file(job("j-2", JobState.PENDING)));
    assertThat(Files.size(journal())).isZero();
    store.save(file(job("j-2", JobState.PAUSED), job("j-3", JobState.PENDING)));
    // The crash: the snapshot (sequence 3) is on disk, the journal still holds the lines it includes before line 4.
    byte[] newLine = Files.readAllBytes(journal());
    Files.write(journal(), concat(oldJournal, newLine));

    QueueStore restarted = new QueueStore(file());
    QueueFile loaded = restarted.load();

    assertThat(restarted.replayed()).as("only the line past the snapshot's sequence").isEqualTo(1);
    assertThat(loaded.jobs()).extracting(Job::id, Job::state)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("j-2", JobState.PAUSED),
            org.assertj.core.groups.Tuple.tuple("j-3", JobState.PENDING));
    restarted.save(file(job("j-2", JobState.PAUSED)));
    assertThat(new QueueStore(file()).load().jobs()).extracting(Job::id).containsExactly("j-2");
  }

  @Test
  void aJournalThatDoesNotFollowTheSnapshotIsRefused() throws Exception {
    QueueStore store = new QueueStore(file());
    store.save(file(job("j-1", JobState.PENDING)));
    store.compact(file(job("j-1", JobState.PENDING), job("j-2", JobState.PENDING)));
    store.save(file(job("j-1", JobState.PAUSED), job("j-2", JobState.PENDING)));
    store.compact(file(job("j-1", JobState.PAUSED), job("j-2", JobState.PENDING)));
    store.save(file(job("j-1", JobState.PAUSED)));
    // The operator puts the older snapshot back: the journal's changes do not follow it.
    Files.copy(dir.resolve("queue.json.bak"), file(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);

    assertThatThrownBy(() -> new QueueStore(file()).load()).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("lines are missing");
  }

  @Test
  void pastTheThresholdTheSnapshotIsRewrittenAndTheJournalEmptied() throws Exception {
    QueueStore store = new QueueStore(file(), 5, Long.MAX_VALUE);
    JobQueue queue = queue(store);
    for (int i = 0; i < 12; i++) {
      queue.add("demo", "title-" + i, false);
    }
    long firstSnapshots = 1;   // the first add writes queue.json

    // A compaction runs beside the adds, so the journal it leaves holds the lines appended meanwhile (it may end with
    // more than the threshold, as nothing is added after it): what settles is a snapshot past the first one and a
    // journal of exactly the changes after the snapshot's sequence.
    Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      assertThat(store.compactions()).isGreaterThan(firstSnapshots);
      long snapshotSequence = new io.vertx.core.json.JsonObject(Files.readString(file())).getLong("sequence");
      assertThat(snapshotSequence).isGreaterThan(1L);
      assertThat(Files.readAllLines(journal())).hasSize((int) (12 - snapshotSequence));
    });
    queue.close();

    assertThat(Files.size(journal())).as("a clean close folds the journal in").isZero();
    QueueStore reloaded = new QueueStore(file());
    assertThat(reloaded.load().jobs()).isEqualTo(queue.jobs());
    assertThat(reloaded.replayed()).isZero();
    assertThat(new io.vertx.core.json.JsonObject(Files.readString(file())).getLong("sequence")).isEqualTo(12L);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
