package io.mangacircus.launcher.check;

import io.mangacircus.support.supervision.CrashBudget;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.contracts.ServiceStatus;
import io.mangacircus.launcher.DataLayout;
import io.mangacircus.launcher.PrivateFiles;
import io.mangacircus.launcher.config.MangaCircusConfig;
import io.mangacircus.launcher.lock.ProcessLock;
import io.mangacircus.launcher.memory.MemInfoReader;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.launcher.state.RuntimeStateStore;
import io.mangacircus.launcher.state.RuntimeStateStore.RuntimeFile;
import io.mangacircus.launcher.state.ServiceRuntime;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@code check} command: read-only checks of config, data files, locks, crash budgets and — when a
 * service is running — its health. Changes nothing on disk.
 */
public final class SystemCheck {

  /** One finding; {@code ok == false} makes the command exit non-zero. */
  public record Finding(boolean ok, String subject, String text) {
    @Override
    public String toString() {
      return (ok ? "ok      " : "PROBLEM ") + subject + ": " + text;
    }
  }

  private static final List<String> SERVICES = List.of("reader", "scraper");

  private final InstantSource clock;
  private final MemInfoReader memInfo;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();
  private final ObjectMapper mapper = new ObjectMapper();

  public SystemCheck(InstantSource clock) {
    this(clock, MemInfoReader.system());
  }

  /** @param memInfo where memory readings come from (as a scraper process on this machine would read them) */
  public SystemCheck(InstantSource clock, MemInfoReader memInfo) {
    this.clock = clock;
    this.memInfo = memInfo;
  }

  /** Runs every check; {@code config} supplies the loaded configuration or throws {@link InvalidConfigException}. */
  public List<Finding> run(Supplier<MangaCircusConfig> config) {
    List<Finding> findings = new ArrayList<>();
    MangaCircusConfig loaded;
    try {
      loaded = config.get();
      findings.add(new Finding(true, "config", "valid (data folder " + loaded.dataPath().toAbsolutePath() + ")"));
    } catch (InvalidConfigException e) {
      findings.add(new Finding(false, "config", e.getMessage()));
      return findings;
    }
    memory(loaded).ifPresent(findings::add);
    DataLayout data = new DataLayout(loaded.dataPath());
    if (!Files.isDirectory(data.root())) {
      findings.add(new Finding(true, "data", data.root() + " does not exist yet; it is created on first start"));
      return findings;
    }
    data.stateFiles().forEach(file -> jsonFile(findings, file));
    privateFiles(findings, data);
    queueJournal(findings, data);
    RuntimeStateStore store = new RuntimeStateStore();
    List<String> parked = new ArrayList<>();
    for (String service : SERVICES) {
      if (checkService(findings, loaded, data, store, service)) {
        parked.add(service);
      }
    }
    summary(data.queueFile(), parked).ifPresent(findings::add);
    return findings;
  }

  /**
   * The queue's change journal: every line parses and follows the snapshot (a torn last line, left by a crash during an
   * append, is ignored as the scraper ignores it). Read only, never written.
   */
  private void queueJournal(List<Finding> findings, DataLayout data) {
    Path journal = data.queueJournal();
    if (!Files.exists(journal)) {
      return;
    }
    try {
      new io.mangacircus.scraper.queue.QueueStore(data.queueFile()).read();
      findings.add(new Finding(true, journal.toString(), "parses"));
    } catch (CorruptStateFileException e) {
      if (e.file().equals(journal)) {
        findings.add(new Finding(false, journal.toString(), e.problem() + "; the scraper will not start over it until "
            + "it is repaired or moved aside"));
      }
    }
  }

  /**
   * A short human summary of the queue as the scraper sees it (the snapshot and its journal; never written): jobs by
   * state, parked services, open incidents. Empty when the queue cannot be read (that is reported above).
   */
  private Optional<Finding> summary(Path queueFile, List<String> parked) {
    if (!Files.exists(queueFile) && !Files.exists(io.mangacircus.scraper.queue.QueueStore.journalOf(queueFile))) {
      return Optional.empty();
    }
    com.fasterxml.jackson.databind.JsonNode queue;
    try {
      queue = new io.mangacircus.scraper.queue.QueueStore(queueFile).readTree();
    } catch (CorruptStateFileException e) {
      return Optional.empty();
    }
    java.util.Map<String, Integer> byState = new java.util.TreeMap<>();
    queue.path("jobs").forEach(job -> byState.merge(job.path("state").asText("unknown"), 1, Integer::sum));
    long open = 0;
    for (com.fasterxml.jackson.databind.JsonNode incident : queue.path("incidents")) {
      if (incident.path("resolvedAt").isMissingNode() || incident.path("resolvedAt").isNull()) {
        open++;
      }
    }
    String jobs = byState.isEmpty() ? "empty" : String.join(", ", byState.entrySet().stream()
        .map(e -> e.getValue() + " " + e.getKey()).toList());
    return Optional.of(new Finding(true, "summary", "queue " + jobs + "; parked services "
        + (parked.isEmpty() ? "none" : String.join(", ", parked)) + "; open incidents " + open));
  }

  /** Where the memory-yield readings of a scraper on this machine come from, and the current one. */
  private Optional<Finding> memory(MangaCircusConfig config) {
    MangaCircusConfig.Memory memory = config.memory();
    if (!memory.enabled()) {
      return Optional.of(new Finding(true, "memory", "memory yield is off (memory.enabled false)"));
    }
    MemInfoReader.Reading reading = memInfo.read();
    java.util.OptionalDouble used = reading.usedPercent();
    return Optional.of(new Finding(true, "memory", "readings from " + reading.source() + ": "
        + (used.isPresent() ? Math.round(used.getAsDouble()) + "% used" : "cannot be read now")
        + "; downloads yield at " + memory.highWatermarkPct() + "% and resume below "
        + memory.lowWatermarkPct() + "%"));
  }

  /** Files holding secrets or personal data that others may read, and their folders. */
  private static void privateFiles(List<Finding> findings, DataLayout data) {
    PrivateFiles files = new PrivateFiles(data);
    List<String> wider = files.wider();
    wider.forEach(text -> findings.add(new Finding(false, "permissions", text)));
    if (wider.isEmpty() && !files.present().isEmpty()) {
      findings.add(new Finding(true, "permissions", "the files holding secrets or personal data and their folders "
          + "are owner-only"));
    }
  }

  private void jsonFile(List<Finding> findings, Path file) {
    if (!Files.exists(file)) {
      return;
    }
    try {
      mapper.readTree(Files.readString(file));
      findings.add(new Finding(true, file.toString(), "parses"));
    } catch (JsonProcessingException e) {
      findings.add(new Finding(false, file.toString(), "is not valid JSON (line " + e.getLocation().getLineNr()
          + "): " + e.getOriginalMessage() + "; what owns it will not start over it until it is repaired or moved aside"));
    } catch (IOException e) {
      findings.add(new Finding(false, file.toString(), "cannot be read: " + e.getMessage()));
    }
  }

  /** Checks one service; true when it is parked (repair-required). */
  private boolean checkService(List<Finding> findings, MangaCircusConfig config, DataLayout data,
      RuntimeStateStore store, String service) {
    Path runtimeFile = data.runtimeFile(service);
    Optional<RuntimeFile> runtime;
    try {
      runtime = store.load(runtimeFile);
    } catch (CorruptStateFileException e) {
      findings.add(new Finding(false, service, "blocked: " + e.blockedReason() + "; the file is left untouched: "
          + "repair or restore it (or move it aside to start with a fresh crash budget), then restart"));
      return false;
    }
    ServiceRuntime state = runtime.map(r -> r.services().get(service)).orElse(null);
    boolean parked = false;
    if (state != null) {
      CrashBudget budget = new CrashBudget(config.supervision().crashBudgetFailures(),
          Duration.ofMinutes(config.supervision().crashBudgetWindowMinutes()), clock, state.failures());
      if (state.status() == ServiceStatus.BLOCKED) {
        findings.add(new Finding(false, service, "blocked: " + (state.reason() == null ? "a state file did not parse"
            : state.reason()) + " (as its last run recorded); repair or restore the file, then restart the process "
            + "or use 'Retry start' on the health page; no crash budget was spent ("
            + budget.failuresInWindow() + " of " + config.supervision().crashBudgetFailures() + " failures used)"));
      } else if (state.status() == ServiceStatus.REPAIR_REQUIRED || budget.exhausted()) {
        parked = true;
        findings.add(new Finding(false, service, "repair-required"
            + (state.parkedAt() == null ? "" : " since " + state.parkedAt())
            + " (" + budget.failuresInWindow() + " failures in the last " + config.supervision().crashBudgetWindowMinutes()
            + " min; " + (state.reason() == null ? "no reason recorded" : state.reason())
            + "); see docs/operations.md to reset the budget"));
      } else {
        findings.add(new Finding(true, service, "crash budget " + budget.failuresInWindow() + " of "
            + config.supervision().crashBudgetFailures() + " failures used; last status " + state.status().wire()
            + "; restarts " + state.restarts()));
      }
    }
    Path lock = data.lockFile(service);
    ProcessLock.Probe probe;
    try {
      probe = ProcessLock.probe(lock);
    } catch (IOException e) {
      findings.add(new Finding(false, service, "lock " + lock + " cannot be probed: " + e.getMessage()));
      return parked;
    }
    if (probe != ProcessLock.Probe.HELD) {
      findings.add(new Finding(true, service, "not running (lock " + lock + " is free)"));
      return parked;
    }
    String url = runtime.map(RuntimeFile::process).map(p -> p.healthUrl()).orElse(null);
    if (url == null) {
      findings.add(new Finding(false, service, "running (" + ProcessLock.holderOf(lock)
          + ") but its runtime file names no health URL"));
      return parked;
    }
    findings.add(health(service, url));
    return parked;
  }

  private Finding health(String service, String url) {
    try {
      HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url))
          .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() == 200) {
        return new Finding(true, service, "running and ready (" + url + ")");
      }
      return new Finding(false, service, "running but not ready: " + url + " answered " + response.statusCode()
          + " " + response.body());
    } catch (IOException e) {
      return new Finding(false, service, "running but " + url + " did not answer: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Finding(false, service, "interrupted while asking " + url);
    }
  }
}
