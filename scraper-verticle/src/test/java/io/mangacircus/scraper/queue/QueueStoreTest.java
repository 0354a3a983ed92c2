package io.mangacircus.scraper.queue;

import io.mangacircus.testing.MutableClock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.CorruptStateFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueueStoreTest {

  @TempDir
  Path dir;

  private Path fixture(String name) throws Exception {
    Path target = dir.resolve("queue.json");
    Files.copy(Path.of(Objects.requireNonNull(getClass().getResource("/fixtures/" + name)).toURI()), target);
    return target;
  }

  @Test
  void aSchema1QueueIsMigratedForwardAndTheOriginalKept() throws Exception {
    Path file = fixture("queue-schema1.json");
    String original = Files.readString(file);

    QueueFile queue = new QueueStore(file).load();

    assertThat(queue.schema()).isEqualTo(QueueStore.SCHEMA);
    assertThat(queue.jobs()).extracting(Job::id).containsExactly("j-old1", "j-old2", "j-old3");
    Job downloading = queue.jobs().get(0);
    assertThat(downloading.state()).isEqualTo(JobState.PENDING);
    assertThat(downloading.inspected()).isTrue();
    assertThat(downloading.confirmed()).isTrue();
    assertThat(downloading.interruptions()).isEqualTo(1);
    assertThat(downloading.chapters()).extracting(ChapterEntry::stage)
        .containsExactly(ChapterStage.PUBLISHED, ChapterStage.PLANNED);
    assertThat(queue.jobs().get(1).state()).isEqualTo(JobState.DONE);
    assertThat(queue.jobs().get(2).state()).isEqualTo(JobState.PAUSED);
    assertThat(queue.jobs().get(2).reason()).contains("HTTP 500");

    assertThat(Files.readString(dir.resolve("queue.json.schema1.bak"))).isEqualTo(original);
    assertThat(new io.vertx.core.json.JsonObject(Files.readString(file)).getInteger("schema")).isEqualTo(QueueStore.SCHEMA);
    assertThat(new QueueStore(file).load()).isEqualTo(queue);
  }

  @Test
  void aSchema2QueueIsReadAsItIsAndRewrittenAsSchema4BeforeAnyChangeGoesToTheJournal() throws Exception {
    Path file = dir.resolve("queue.json");
    String original = "{\"schema\": 2, \"jobs\": [{\"id\": \"j-1\", \"source\": \"demo\", \"titleId\": \"t\","
        + " \"title\": \"T\", \"state\": \"done\", \"inspected\": true, \"confirmed\": true, \"attempts\": 0,"
        + " \"interruptions\": 0, \"createdAt\": \"2026-11-29T10:00:00Z\", \"updatedAt\": \"2026-11-29T10:00:00Z\","
        + " \"chapters\": [{\"id\": \"c1\", \"number\": \"1\", \"title\": \"\", \"stage\": \"published\", \"pages\": 3}],"
        + " \"networkRetries\": 0, \"stalls\": 0}], \"lanes\": {}}";
    Files.writeString(file, original);

    QueueStore store = new QueueStore(file);
    QueueFile queue = store.load();

    assertThat(queue.jobs()).singleElement().satisfies(job -> assertThat(job.publishedChapters()).isEqualTo(1));
    assertThat(dir.resolve("queue.json.schema2.bak")).as("nothing to migrate, nothing kept aside").doesNotExist();
    // A version from before the journal refuses schema 4 ("newer than this version's") instead of reading the snapshot
    // without the changes appended beside it.
    assertThat(new io.vertx.core.json.JsonObject(Files.readString(file)).getInteger("schema")).isEqualTo(4);
    assertThat(Files.readString(store.backup())).as("the schema-2 file is the backup").isEqualTo(original);
    assertThat(new QueueStore(file).read()).isEqualTo(queue);
  }

  private static Job job(String id) {
    java.time.Instant now = java.time.Instant.parse("2026-11-01T00:00:00Z");
    return new Job(id, "demo", "t-" + id, "Title " + id, JobState.DONE, true, true, 0, 0, now, now, null, null, null,
        null, QueueFixtures.chapters(3), 0, 0);
  }

  @Test
  void aSchema3QueueFromBeforeTheJournalSaysSchema4OnDiskBeforeItsFirstChangeIsAppended() throws Exception {
    Path file = dir.resolve("queue.json");
    QueueStore earlier = new QueueStore(file);
    earlier.load();
    earlier.compact(new QueueFile(QueueStore.SCHEMA, List.of(job("j-1")), java.util.Map.of(), List.of()));
    Files.writeString(file, Files.readString(file).replace("\"schema\":4,\"sequence\":1,", "\"schema\":3,"));

    QueueStore store = new QueueStore(file);
    QueueFile queue = store.load();
    assertThat(new io.vertx.core.json.JsonObject(Files.readString(file)).getInteger("schema")).isEqualTo(4);
    store.save(new QueueFile(QueueStore.SCHEMA, List.of(queue.jobs().get(0), job("j-2")), java.util.Map.of(),
        List.of()));

    assertThat(store.journal()).content().hasLineCount(1);
    assertThat(new QueueStore(file).read().jobs()).extracting(Job::id).containsExactly("j-1", "j-2");
  }

  /** The queue as the tree path binds it: the whole snapshot and journal as one tree, then bound. */
  private static QueueFile boundFromTheTree(Path file) throws Exception {
    QueueFile tree = io.mangacircus.scraper.state.StateJson.mapper()
        .disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .treeToValue(new QueueStore(file).readTree(), QueueFile.class);
    return new QueueFile(QueueStore.SCHEMA, tree.jobs(), tree.lanes() == null ? java.util.Map.of() : tree.lanes(),
        tree.incidents());
  }

  /** What {@code load} logs at DEBUG and above while it reads {@code file}, and what it read. */
  private static java.util.Map.Entry<QueueFile, List<String>> loadLogged(Path file) {
    ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory
        .getLogger(QueueStore.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
        new ch.qos.logback.core.read.ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    ch.qos.logback.classic.Level level = logger.getLevel();
    logger.setLevel(ch.qos.logback.classic.Level.DEBUG);
    try {
      QueueFile queue = new QueueStore(file).load();
      return java.util.Map.entry(queue, lines.list.stream()
          .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList());
    } finally {
      logger.detachAppender(lines);
      logger.setLevel(level);
    }
  }

  @Test
  void aQueueAndItsJournalAreBoundStraightFromTheirBytesExactlyAsTheTreePathBindsThem() throws Exception {
    Path file = dir.resolve("queue.json");
    QueueStore store = new QueueStore(file);
    store.load();
    java.time.Instant at = java.time.Instant.parse("2026-11-02T00:00:00Z");
    Job one = job("j-1");
    Job three = job("j-3");
    store.save(new QueueFile(QueueStore.SCHEMA, List.of(one, job("j-2"), three), java.util.Map.of(), List.of()));
    Job twoPaused = new Job("j-2", "demo", "t-j-2", "Title j-2", JobState.PAUSED, true, true, 1, 0, at, at, null, null,
        null, "paused by the operator", QueueFixtures.chapters(2), 0, 0, "fr", List.of("g1"));
    LaneSettings paused = new LaneSettings(true, "operator", 1500L, null, at, "rate limit");
    store.save(new QueueFile(QueueStore.SCHEMA, List.of(one, twoPaused, three, job("j-4")),
        java.util.Map.of("demo", paused), List.of()));
    io.mangacircus.scraper.failure.Incident incident = new io.mangacircus.scraper.failure.Incident("i-1", at,
        io.mangacircus.scraper.failure.FailureKind.NETWORK, "demo", "j-2", 503, "down", "retry_wait", null);
    store.save(new QueueFile(QueueStore.SCHEMA, List.of(twoPaused, three, job("j-4")),
        java.util.Map.of("demo", paused), List.of(incident)));
    Files.writeString(store.journal(), "{\"seq\":5,\"jobs\":[{\"id\":\"j-5\",\"sour",
        java.nio.file.StandardOpenOption.APPEND);

    java.util.Map.Entry<QueueFile, List<String>> loaded = loadLogged(file);

    assertThat(loaded.getKey()).isEqualTo(boundFromTheTree(file));
    assertThat(loaded.getKey().jobs()).extracting(Job::id).containsExactly("j-2", "j-3", "j-4");
    assertThat(loaded.getKey().jobs().get(0)).isEqualTo(twoPaused);
    assertThat(loaded.getKey().lanes()).containsEntry("demo", paused);
    assertThat(loaded.getKey().incidents()).containsExactly(incident);
    assertThat(loaded.getValue()).as("no tree of the queue was built").noneMatch(l -> l.contains("tree path"))
        .anyMatch(l -> l.contains("3 jobs bound from the bytes"))
        .anyMatch(l -> l.contains("last line") && l.contains("ignored"));
  }

  @Test
  void whatTheStreamingPathDoesNotTakeAsItIsIsBoundByTheTreePathAsBefore() throws Exception {
    Path file = dir.resolve("queue.json");
    // A job id written as a number: the tree path keys such a job by its place, so it reads it.
    Files.writeString(file, "{\"schema\": 4, \"sequence\": 0, \"jobs\": [{\"id\": 7, \"source\": \"demo\","
        + " \"titleId\": \"t\", \"title\": \"T\", \"state\": \"done\", \"createdAt\": \"2026-11-29T10:00:00Z\","
        + " \"updatedAt\": \"2026-11-29T10:00:00Z\", \"chapters\": []}], \"lanes\": {}}");
    java.util.Map.Entry<QueueFile, List<String>> numericId = loadLogged(file);
    // A journal line with something after its object: the tree path reads the object and ignores the rest.
    Files.writeString(QueueStore.journalOf(file), "{\"seq\":1,\"jobs\":[],\"removed\":[],\"lanes\":"
        + "{\"demo\":{\"paused\":true}}} x\n");
    java.util.Map.Entry<QueueFile, List<String>> loaded = loadLogged(file);

    assertThat(numericId.getValue()).anyMatch(l -> l.contains("tree path"));
    assertThat(numericId.getKey().jobs()).extracting(Job::id).containsExactly("7");
    assertThat(loaded.getValue()).anyMatch(l -> l.contains("tree path"));
    assertThat(loaded.getKey()).isEqualTo(boundFromTheTree(file));
    assertThat(loaded.getKey().jobs()).extracting(Job::id).containsExactly("7");
    assertThat(loaded.getKey().lanes().get("demo").paused()).isTrue();
  }

  @Test
  void aQueueThatFailsToParseIsNamedAndNeverOverwritten() throws Exception {
    Path file = dir.resolve("queue.json");
    Files.writeString(file, "{\"schema\": 2, \"jobs\": [ {\"id\": ");
    String before = Files.readString(file);

    assertThatThrownBy(() -> new JobQueue(new QueueStore(file), new EventLog(dir.resolve("events.log")),
        new MutableClock(), java.util.Set.of("demo"), QueueListener.NONE))
        .isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("not valid JSON");
    assertThat(Files.readString(file)).isEqualTo(before);
  }

  @Test
  void aQueueFromANewerVersionIsRefused() throws Exception {
    Path file = dir.resolve("queue.json");
    Files.writeString(file, "{\"schema\": 9, \"jobs\": []}");

    assertThatThrownBy(() -> new QueueStore(file).load()).hasMessageContaining("schema 9");
  }

  @Test
  void aQueueWithAnUnknownStateIsRefused() throws Exception {
    Path file = dir.resolve("queue.json");
    Files.writeString(file, "{\"schema\": 2, \"jobs\": [{\"id\": \"j\", \"source\": \"demo\", \"titleId\": \"t\","
        + " \"title\": \"t\", \"state\": \"exploded\", \"createdAt\": \"2026-01-01T00:00:00Z\","
        + " \"updatedAt\": \"2026-01-01T00:00:00Z\", \"chapters\": []}], \"lanes\": {}}");

    assertThatThrownBy(() -> new QueueStore(file).load()).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("exploded");
  }

  @Test
  void eachSnapshotKeepsThePreviousOneAsABackup() throws Exception {
    Path file = dir.resolve("queue.json");
    JobQueue queue = QueueFixtures.queue(dir, new MutableClock());
    queue.add("demo", "first", false);
    queue.compact();
    String afterFirst = Files.readString(file);

    queue.add("demo", "second", false);
    queue.compact();

    assertThat(Files.readString(dir.resolve("queue.json.bak"))).isEqualTo(afterFirst);
    assertThat(Files.readString(file)).contains("second");
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp") || n.endsWith(".link"));
    }
  }

  @Test
  void theBackupIsThePreviousSnapshotItselfNotACopy() throws Exception {
    Path file = dir.resolve("queue.json");
    JobQueue queue = QueueFixtures.queue(dir, new MutableClock());
    queue.add("demo", "first", false);
    queue.compact();
    Object previous = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey();

    queue.add("demo", "second", false);
    queue.compact();

    assertThat(previous).as("the filesystem names files").isNotNull();
    assertThat(Files.readAttributes(dir.resolve("queue.json.bak"), java.nio.file.attribute.BasicFileAttributes.class)
        .fileKey()).as("queue.json.bak is a link to the file the snapshot replaced").isEqualTo(previous);
    queue.add("demo", "third", false);
    queue.compact();
    assertThat(Files.readString(dir.resolve("queue.json.bak"))).contains("second").doesNotContain("third");
  }

  @Test
  void aSnapshotWritesOneJobALineAndOnlyAChangedJobsLineChanges() throws Exception {
    Path file = dir.resolve("queue.json");
    QueueStore store = new QueueStore(file);
    java.time.Instant now = java.time.Instant.parse("2026-11-01T00:00:00Z");
    List<Job> jobs = new java.util.ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      jobs.add(new Job("j-" + i, "demo", "t" + i, "Title " + i, JobState.DONE, true, true, 0, 0, now, now, null, null,
          null, null, QueueFixtures.chapters(2), 0, 0));
    }
    store.compact(new QueueFile(QueueStore.SCHEMA, jobs, java.util.Map.of(), List.of()));
    List<String> before = Files.readAllLines(file);

    jobs.set(1, jobs.get(1).with(JobState.PENDING, now.plusSeconds(5), "again"));
    QueueFile changed = new QueueFile(QueueStore.SCHEMA, jobs, java.util.Map.of(), List.of());
    store.compact(changed);
    List<String> after = Files.readAllLines(file);

    assertThat(after).hasSize(5);
    assertThat(after.get(0)).startsWith("{\"schema\":4,\"sequence\":2,\"jobs\":[");
    assertThat(after.get(1)).startsWith("{\"id\":\"j-1\"").isEqualTo(before.get(1));
    assertThat(after.get(2)).startsWith("{\"id\":\"j-2\"").contains("\"state\":\"pending\"")
        .isNotEqualTo(before.get(2));
    assertThat(after.get(3)).startsWith("{\"id\":\"j-3\"").isEqualTo(before.get(3));
    assertThat(new QueueStore(file).load()).isEqualTo(changed);
    store.compact(new QueueFile(QueueStore.SCHEMA, List.of(), java.util.Map.of(), List.of()));
    assertThat(new QueueStore(file).load().jobs()).isEmpty();
  }

  @Test
  void aJobSavedBeforeJobsHadALanguageLoadsAsEnglishWithoutGroupPreference() throws Exception {
    Path file = dir.resolve("queue.json");
    Files.writeString(file, "{\"schema\": 3, \"jobs\": [{\"id\": \"j-1\", \"source\": \"demo\", \"titleId\": \"t\","
        + " \"title\": \"T\", \"state\": \"pending\", \"inspected\": false, \"confirmed\": true, \"attempts\": 0,"
        + " \"interruptions\": 0, \"createdAt\": \"2026-11-29T10:00:00Z\", \"updatedAt\": \"2026-11-29T10:00:00Z\","
        + " \"chapters\": [], \"networkRetries\": 0, \"stalls\": 0}], \"lanes\": {}}");

    Job job = new QueueStore(file).load().jobs().get(0);

    assertThat(job.language()).isEqualTo("en");
    assertThat(job.preferredGroups()).isEmpty();
  }

  @Test
  void aJobsLanguageAndGroupPreferenceSurviveASaveAndALoad() throws Exception {
    JobQueue queue = QueueFixtures.queue(dir, new MutableClock());
    String id = queue.addTitle("demo", "t-1", true, "pt-br", java.util.List.of("g2", "g1")).outcome().job().id();

    Job loaded = QueueFixtures.queue(dir, new MutableClock()).job(id).orElseThrow();

    assertThat(loaded.language()).isEqualTo("pt-br");
    assertThat(loaded.preferredGroups()).containsExactly("g2", "g1");
  }
}
