package io.mangacircus.launcher.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.contracts.ServiceStatus;
import io.mangacircus.launcher.config.ConfigLoader;
import io.mangacircus.launcher.config.ConfigLoader.CommandLineOverrides;
import io.mangacircus.launcher.config.MangaCircusConfig;
import io.mangacircus.launcher.state.RuntimeStateStore;
import io.mangacircus.launcher.state.RuntimeStateStore.RuntimeFile;
import io.mangacircus.launcher.state.ServiceRuntime;
import io.mangacircus.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SystemCheckTest {

  @TempDir
  Path data;

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));

  private MangaCircusConfig config() {
    return new ConfigLoader().load(Optional.empty(), Map.of(),
        new CommandLineOverrides(data.toString(), null, null, null, null));
  }

  private List<SystemCheck.Finding> check() {
    return new SystemCheck(clock).run(this::config);
  }

  private static List<SystemCheck.Finding> problems(List<SystemCheck.Finding> findings) {
    return findings.stream().filter(f -> !f.ok()).toList();
  }

  @Test
  void aFreshDataFolderPasses() {
    assertThat(problems(check())).isEmpty();
  }

  @Test
  void filesHoldingSecretsThatOthersMayReadAreAProblemEachNamedWithWhatToDo() throws Exception {
    Path database = data.resolve("reader.db");
    Files.writeString(database, "");
    Path settings = Files.createDirectories(data.resolve("notifications")).resolve("destinations.json");
    Files.writeString(settings, "{\"schema\":1,\"destinations\":[]}");
    Files.setPosixFilePermissions(database, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    Files.setPosixFilePermissions(settings, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    Files.setPosixFilePermissions(settings.getParent(),
        java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));

    List<SystemCheck.Finding> problems = problems(check());

    assertThat(problems).extracting(SystemCheck.Finding::subject).containsOnly("permissions");
    assertThat(problems).extracting(SystemCheck.Finding::text).hasSize(3).anySatisfy(text -> assertThat(text)
        .contains(database + " is rw-r--r--", "owner-only (0600) expected", "chmod 600 " + database))
        .anySatisfy(text -> assertThat(text).contains(settings + " is rw-r--r--"))
        .anySatisfy(text -> assertThat(text).contains(settings.getParent() + " is rwxr-xr-x", "chmod 700"));
  }

  @Test
  void invalidConfigIsOneProblemNamingTheKey() {
    List<SystemCheck.Finding> findings = new SystemCheck(clock).run(() -> {
      throw new InvalidConfigException("http.port", "must be a TCP port");
    });

    assertThat(problems(findings)).singleElement().satisfies(f -> assertThat(f.text()).contains("http.port"));
  }

  @Test
  void aParkedServiceIsAProblemThatSaysHowToReset() throws Exception {
    List<Instant> failures = List.of(clock.instant().minus(Duration.ofMinutes(20)),
        clock.instant().minus(Duration.ofMinutes(10)), clock.instant().minus(Duration.ofMinutes(5)));
    new RuntimeStateStore().save(data.resolve("scraper/runtime.json"), new RuntimeFile(Map.of("scraper",
        new ServiceRuntime(ServiceStatus.REPAIR_REQUIRED, failures, failures.get(2), 2, "crash budget spent")), null));

    assertThat(problems(check())).singleElement().satisfies(f -> {
      assertThat(f.subject()).isEqualTo("scraper");
      assertThat(f.text()).contains("repair-required", "3 failures", "docs/operations.md");
    });
  }

  @Test
  void aBudgetWhoseFailuresHaveAgedOutIsNoLongerAProblem() throws Exception {
    List<Instant> failures = List.of(clock.instant().minus(Duration.ofMinutes(90)),
        clock.instant().minus(Duration.ofMinutes(80)), clock.instant().minus(Duration.ofMinutes(70)));
    new RuntimeStateStore().save(data.resolve("runtime-reader.json"), new RuntimeFile(Map.of("reader",
        new ServiceRuntime(ServiceStatus.STOPPED, failures, null, 2, null)), null));

    assertThat(problems(check())).isEmpty();
  }

  @Test
  void aSummaryCountsTheQueueByStateParkedServicesAndOpenIncidentsWithoutChangingAnything() throws Exception {
    Files.createDirectories(data.resolve("scraper"));
    Files.writeString(data.resolve("scraper/queue.json"), "{\"schema\": 2, \"jobs\": ["
        + "{\"id\": \"j-1\", \"state\": \"active\"}, {\"id\": \"j-2\", \"state\": \"quarantined\"},"
        + "{\"id\": \"j-3\", \"state\": \"active\"}], \"incidents\": ["
        + "{\"id\": \"i-1\", \"resolvedAt\": null}, {\"id\": \"i-2\", \"resolvedAt\": \"2026-11-29T11:00:00Z\"},"
        + "{\"id\": \"i-3\"}]}");
    List<Instant> failures = List.of(clock.instant().minus(Duration.ofMinutes(5)));
    new RuntimeStateStore().save(data.resolve("scraper/runtime.json"), new RuntimeFile(Map.of("scraper",
        new ServiceRuntime(ServiceStatus.REPAIR_REQUIRED, failures, failures.get(0), 2, "crash budget spent")), null));
    Map<Path, byte[]> before = snapshot();

    List<SystemCheck.Finding> findings = check();

    assertThat(findings).filteredOn(f -> f.subject().equals("summary")).singleElement().satisfies(f -> {
      assertThat(f.ok()).isTrue();
      assertThat(f.text()).isEqualTo("queue 2 active, 1 quarantined; parked services scraper; open incidents 2");
    });
    before.forEach((path, bytes) -> assertThat(readBytes(path)).isEqualTo(bytes));
  }

  @Test
  void theSummaryIsTheQueueAsTheScraperSeesItWithItsJournalAndABadJournalLineIsAProblem() throws Exception {
    Path queueFile = data.resolve("scraper/queue.json");
    io.mangacircus.scraper.queue.QueueStore store = new io.mangacircus.scraper.queue.QueueStore(queueFile);
    Instant now = clock.instant();
    List<io.mangacircus.scraper.queue.Job> jobs = new java.util.ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      jobs.add(new io.mangacircus.scraper.queue.Job("j-" + i, "demo", "t-" + i, "T", i == 1
          ? io.mangacircus.scraper.queue.JobState.DONE : io.mangacircus.scraper.queue.JobState.PAUSED, true, true, 0, 0,
          now, now, null, null, null, null, List.of(), 0, 0));
      store.save(new io.mangacircus.scraper.queue.QueueFile(io.mangacircus.scraper.queue.QueueStore.SCHEMA, jobs,
          Map.of(), List.of()));
    }
    Path journal = io.mangacircus.scraper.queue.QueueStore.journalOf(queueFile);
    assertThat(Files.readAllLines(journal)).as("the 2nd and 3rd jobs are only in the journal").hasSize(2);
    Map<Path, byte[]> before = snapshot();

    assertThat(check()).filteredOn(f -> f.subject().equals("summary")).singleElement()
        .satisfies(f -> assertThat(f.text()).startsWith("queue 1 done, 2 paused;"));
    before.forEach((path, bytes) -> assertThat(readBytes(path)).isEqualTo(bytes));

    List<String> lines = Files.readAllLines(journal);
    Files.write(journal, List.of(lines.get(0).substring(0, 30), lines.get(1)));
    Map<Path, byte[]> corrupt = snapshot();
    assertThat(problems(check())).singleElement().satisfies(f -> {
      assertThat(f.subject()).isEqualTo(journal.toString());
      assertThat(f.text()).startsWith("line 1 is not a queue change");
    });
    corrupt.forEach((path, bytes) -> assertThat(readBytes(path)).isEqualTo(bytes));
  }

  @Test
  void corruptStateFilesAreProblemsAndAreLeftByteForByteAsTheyWere() throws Exception {
    Files.createDirectories(data.resolve("scraper"));
    Files.writeString(data.resolve("scraper/queue.json"), "{\"schema\": 2, \"jobs\": [");
    Files.writeString(data.resolve("runtime-reader.json"), "not json");
    Map<Path, byte[]> before = snapshot();

    List<SystemCheck.Finding> problems = problems(check());

    assertThat(problems).hasSize(2);
    assertThat(problems).anySatisfy(f -> assertThat(f.subject()).endsWith("queue.json"));
    assertThat(problems).anySatisfy(f -> assertThat(f.text()).contains("runtime-reader.json"));
    assertThat(snapshot()).containsOnlyKeys(before.keySet());
    before.forEach((path, bytes) -> assertThat(readBytes(path)).isEqualTo(bytes));
  }

  @Test
  void followsDiscoveryAndNotificationFilesThatDoNotParseAreProblemsLeftAsTheyWere() throws Exception {
    Files.createDirectories(data.resolve("scraper"));
    Files.createDirectories(data.resolve("notifications"));
    Files.writeString(data.resolve("scraper/follows.json"), "{\"schema\": 1, \"follows\": [");
    Files.writeString(data.resolve("scraper/discovery.json"), "nightly");
    Files.writeString(data.resolve("notifications/destinations.json"), "{");
    Files.writeString(data.resolve("notifications/outbox.json"), "{\"deliveries\": []}");
    // Owner-only, as the notifier writes them: only their content is in question here.
    for (String file : new String[] {"notifications/destinations.json", "notifications/outbox.json"}) {
      Files.setPosixFilePermissions(data.resolve(file), java.nio.file.attribute.PosixFilePermissions.fromString(
          "rw-------"));
    }
    Files.setPosixFilePermissions(data.resolve("notifications"), java.nio.file.attribute.PosixFilePermissions
        .fromString("rwx------"));
    Map<Path, byte[]> before = snapshot();

    List<SystemCheck.Finding> findings = check();

    assertThat(problems(findings)).extracting(SystemCheck.Finding::subject).map(s -> Path.of(s).getFileName().toString())
        .containsExactlyInAnyOrder("follows.json", "discovery.json", "destinations.json");
    assertThat(problems(findings)).allSatisfy(f -> assertThat(f.text()).startsWith("is not valid JSON (line 1)"));
    assertThat(findings).anySatisfy(f -> {
      assertThat(f.ok()).isTrue();
      assertThat(f.subject()).endsWith("outbox.json");
    });
    before.forEach((path, bytes) -> assertThat(readBytes(path)).isEqualTo(bytes));
  }

  private Map<Path, byte[]> snapshot() throws Exception {
    try (Stream<Path> files = Files.walk(data)) {
      return files.filter(Files::isRegularFile).collect(java.util.stream.Collectors.toMap(p -> p, this::readBytes));
    }
  }

  private byte[] readBytes(Path path) {
    try {
      return Files.readAllBytes(path);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void checkSaysWhereMemoryReadingsComeFrom() throws Exception {
    Path root = Path.of(SystemCheckTest.class.getResource("/memory/v2-limited").toURI());
    io.mangacircus.launcher.memory.CgroupMemInfo container = new io.mangacircus.launcher.memory.CgroupMemInfo(
        root.resolve("sys/fs/cgroup"), root.resolve("proc/self/cgroup"), root.resolve("proc/meminfo"));

    List<SystemCheck.Finding> findings = new SystemCheck(clock, container).run(this::config);

    assertThat(findings).filteredOn(f -> f.subject().equals("memory")).singleElement().satisfies(f -> {
      assertThat(f.ok()).isTrue();
      assertThat(f.toString()).isEqualTo("ok      memory: readings from cgroup v2 limit 512 MiB: 78% used; downloads "
          + "yield at 92% and resume below 80%");
    });
  }

  @Test
  void aServiceBlockedByACorruptStateFileIsAProblemNamingTheFileAndSpendsNoBudget() throws Exception {
    Path runtime = data.resolve("scraper/runtime.json");
    new RuntimeStateStore().save(runtime, new RuntimeFile(Map.of("scraper", new ServiceRuntime(ServiceStatus.BLOCKED,
        List.of(), null, 0, "corrupt state file data/scraper/queue.json: is not valid JSON (line 1): ...")), null));

    assertThat(problems(check())).singleElement().satisfies(f -> {
      assertThat(f.subject()).isEqualTo("scraper");
      assertThat(f.text()).startsWith("blocked: corrupt state file data/scraper/queue.json: is not valid JSON")
          .contains("Retry start", "no crash budget was spent (0 of 3 failures used)");
    });
  }

  @Test
  void anUnparsableRuntimeFileIsReportedAsABlockNamingIt() throws Exception {
    Path runtime = data.resolve("scraper/runtime.json");
    Files.createDirectories(runtime.getParent());
    Files.writeString(runtime, "{\"schema\":1,");

    assertThat(problems(check())).singleElement().satisfies(f ->
        assertThat(f.text()).startsWith("blocked: corrupt state file " + runtime + ": is not valid JSON"));
  }
}
