package io.mangacircus.launcher.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.DiscoveryFinished;
import io.mangacircus.contracts.JobProgress;
import io.mangacircus.contracts.LauncherStatus;
import io.mangacircus.contracts.MemoryYieldChanged;
import io.mangacircus.contracts.ServiceState;
import io.mangacircus.contracts.ServiceStatus;
import io.mangacircus.testing.MutableClock;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bus events become operator messages on a change only, saying what happened, what was done and what to do. */
class EventMessagesTest {

  private final MutableClock clock = new MutableClock();
  private final EventMessages messages = new EventMessages("https://manga.example.org", clock);

  @Test
  void anIncidentSaysWhatHappenedWhatWasDoneAndLinksToTheConsole() {
    Notification n = messages.incident(new JsonObject().put("kind", "http").put("source", "demo").put("jobId", "j1")
        .put("httpStatus", 503).put("message", "page 3 answered 503").put("action", "retry_wait"));
    assertThat(n.kind()).isEqualTo("incident");
    assertThat(n.key()).isEqualTo("incident:http:demo:j1");
    assertThat(n.title()).isEqualTo("MangaCircus incident: http on demo");
    assertThat(n.message()).contains("page 3 answered 503", "HTTP status: 503", "What MangaCircus did: retry_wait",
        "What to do:");
    assertThat(n.click()).isEqualTo("https://manga.example.org/admin/scraper.html");
  }

  @Test
  void aCircuitIsToldWhenItOpensAndWhenItClosesAgainOnly() {
    assertThat(messages.circuit(new JsonObject().put("source", "demo").put("state", "closed"))).isEmpty();
    assertThat(messages.circuit(new JsonObject().put("source", "demo").put("state", "open")))
        .hasValueSatisfying(n -> assertThat(n.title()).isEqualTo("MangaCircus: circuit open for demo"));
    assertThat(messages.circuit(new JsonObject().put("source", "demo").put("state", "open"))).isEmpty();
    assertThat(messages.circuit(new JsonObject().put("source", "demo").put("state", "half_open"))).isEmpty();
    assertThat(messages.circuit(new JsonObject().put("source", "demo").put("state", "closed")))
        .hasValueSatisfying(n -> assertThat(n.title()).isEqualTo("MangaCircus: circuit closed for demo"));
  }

  @Test
  void aJobIsToldOnceWhenItBecomesQuarantined() {
    JobProgress active = new JobProgress("j1", "demo", "Circus Nights", "active", null, null, 0, 0, 1, 3);
    JobProgress quarantined = new JobProgress("j1", "demo", "Circus Nights", "quarantined", null, null, 0, 0, 1, 3);
    assertThat(messages.progress(active)).isEmpty();
    assertThat(messages.progress(quarantined)).hasValueSatisfying(n -> {
      assertThat(n.title()).isEqualTo("MangaCircus: job quarantined: Circus Nights (demo)");
      assertThat(n.message()).contains("1 of 3 chapters", "Retry");
    });
    assertThat(messages.progress(quarantined)).isEmpty();
  }

  @Test
  void aParkedOrBlockedServiceIsToldOnTheChangeNotOnEveryRepeatedStatus() {
    LauncherStatus up = status(ServiceStatus.UP, null);
    LauncherStatus parked = status(ServiceStatus.REPAIR_REQUIRED, "crashed: boom");
    LauncherStatus blocked = status(ServiceStatus.BLOCKED, "corrupt state file data/scraper/queue.json: not JSON");
    assertThat(messages.status(up)).isEmpty();
    assertThat(messages.status(parked)).singleElement().satisfies(n -> {
      assertThat(n.kind()).isEqualTo("repair-required");
      assertThat(n.priority()).isEqualTo(5);
      assertThat(n.message()).contains("crashed: boom", "restart the process");
    });
    assertThat(messages.status(parked)).isEmpty();
    assertThat(messages.status(blocked)).singleElement().satisfies(n -> {
      assertThat(n.kind()).isEqualTo("corrupt-state");
      assertThat(n.title()).isEqualTo("MangaCircus: scraper blocked by a corrupt state file");
      assertThat(n.message()).contains("data/scraper/queue.json");
    });
  }

  @Test
  void memoryYieldIsToldOnAndOff() {
    assertThat(messages.memoryYield(new MemoryYieldChanged("all@h:1", true, "memory 95% used")).title())
        .isEqualTo("MangaCircus: downloads paused for memory");
    assertThat(messages.memoryYield(new MemoryYieldChanged("all@h:1", false, "memory 50% used")).title())
        .isEqualTo("MangaCircus: downloads resumed");
  }

  @Test
  void aDiscoveryPassIsToldOnceAllItsJobsEndedWithTheNewChaptersPerSeries() {
    DiscoveryTally tally = new DiscoveryTally(Duration.ofHours(12), clock);
    assertThat(tally.started(new DiscoveryFinished(clock.instant(), 3, List.of(
        new DiscoveryFinished.Queued("j1", "demo", "circus"), new DiscoveryFinished.Queued("j2", "demo", "other")),
        1))).isEmpty();
    tally.published("demo", "circus", "circus-nights", "Circus Nights", "c1", clock.instant().minusSeconds(60));
    tally.published("demo", "circus", "circus-nights", "Circus Nights", "c2", clock.instant().plusSeconds(1));
    tally.published("demo", "circus", "circus-nights", "Circus Nights", "c2", clock.instant().plusSeconds(2));
    tally.published("demo", "circus", "circus-nights", "Circus Nights", "c3", clock.instant().plusSeconds(3));
    tally.published("demo", "unrelated", "unrelated", "Unrelated", "c9", clock.instant().plusSeconds(3));
    assertThat(tally.jobState("j1", "done")).isEmpty();
    assertThat(tally.jobState("j2", "active")).isEmpty();
    assertThat(tally.jobState("j2", "done")).contains(List.of(
        new DiscoveryTally.NewChapters("circus-nights", "Circus Nights", 2)));
    Notification n = DiscoveryTally.message(List.of(new DiscoveryTally.NewChapters("circus-nights", "Circus Nights",
        2)), "https://manga.example.org/", clock.instant());
    assertThat(n.title()).isEqualTo("MangaCircus: 2 new chapters after discovery");
    assertThat(n.message()).startsWith("2 new chapters of Circus Nights");
  }

  @Test
  void aDiscoveryPassWithoutNewChaptersSaysNothingAndAStuckOneIsToldAfterTheLimit() {
    DiscoveryTally tally = new DiscoveryTally(Duration.ofHours(12), clock);
    assertThat(tally.started(new DiscoveryFinished(clock.instant(), 0, List.of(), 0))).isEmpty();
    tally.started(new DiscoveryFinished(clock.instant(), 1, List.of(new DiscoveryFinished.Queued("j", "s", "t")), 0));
    tally.published("s", "t", "t-series", "T", "c", clock.instant());
    clock.advance(Duration.ofHours(11));
    assertThat(tally.expire()).isEmpty();
    clock.advance(Duration.ofHours(1));
    assertThat(tally.expire()).contains(List.of(new DiscoveryTally.NewChapters("t-series", "T", 1)));
  }

  private static LauncherStatus status(ServiceStatus status, String reason) {
    return new LauncherStatus("scraper@host:42", List.of(new ServiceState("scraper", status, 3, 2, null, reason)));
  }
}
