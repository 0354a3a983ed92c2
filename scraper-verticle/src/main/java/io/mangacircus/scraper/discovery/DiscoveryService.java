package io.mangacircus.scraper.discovery;

import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.follow.Follows;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.JobQueue;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Nightly discovery in the scraper: the timer for the configured local time, the operator's on/off and time (kept in
 * {@code data/scraper/discovery.json}, which overrides the config once set), "run now", and each run's record in
 * {@code events.log}. The decisions are {@link DiscoveryRun}'s; the operator's requests reach it through
 * {@code operator.OperatorRequests}.
 */
public final class DiscoveryService {

  private static final Logger LOG = LoggerFactory.getLogger(DiscoveryService.class);

  private final Vertx vertx;
  private final JobQueue queue;
  private final Follows follows;
  private final EventLog events;
  private final Path settingsFile;
  private final Set<String> sources;
  private final InstantSource clock;
  private final ZoneId zone;
  private boolean enabled;
  private String time;
  private long timer = -1;
  private Instant nextRunAt;
  private DiscoveryRun.Result lastRun;
  private Future<DiscoveryRun.Result> running;

  /**
   * @throws CorruptStateFileException when {@code discovery.json} exists but cannot be read (it is left alone)
   */
  public DiscoveryService(Vertx vertx, JobQueue queue, Follows follows, EventLog events, Path dataDir,
      ScraperConfig.Discovery config, Set<String> sources, InstantSource clock, ZoneId zone) {
    this.vertx = vertx;
    this.queue = queue;
    this.follows = follows;
    this.events = events;
    this.settingsFile = dataDir.resolve("scraper").resolve("discovery.json");
    this.sources = Set.copyOf(sources);
    this.clock = clock;
    this.zone = zone;
    this.enabled = config.enabled();
    this.time = config.time();
    loadSettings();
  }

  private void loadSettings() {
    try {
      JsonObject saved = new JsonObject(Files.readString(settingsFile, StandardCharsets.UTF_8));
      if (!(saved.getValue("enabled") instanceof Boolean on) || !(saved.getValue("time") instanceof String at)
          || !at.matches("([01]\\d|2[0-3]):[0-5]\\d")) {
        throw new CorruptStateFileException(settingsFile, "needs {\"schema\": 1, \"enabled\": true|false, \"time\": \"HH:mm\"}");
      }
      enabled = on;
      time = at;
    } catch (NoSuchFileException e) {
      // the config's settings apply
    } catch (DecodeException e) {
      throw new CorruptStateFileException(settingsFile, "is not JSON: " + e.getMessage());
    } catch (IOException e) {
      throw new CorruptStateFileException(settingsFile, "cannot be read: " + e.getMessage());
    }
  }

  /** Arms the timer. */
  public Future<Void> start() {
    arm();
    return Future.succeededFuture();
  }

  /** Cancels the timer. */
  public void stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }

  /**
   * Turns discovery on or off and sets its time (null keeps the current value), saved in {@code discovery.json} before
   * it takes effect; fails with the file's name when it cannot be saved.
   *
   * @return the status after the change
   */
  public Future<JsonObject> change(Boolean enable, String at) {
    boolean on = enable == null ? enabled : enable;
    String when = at == null ? time : at;
    return vertx.executeBlocking(() -> {
      AtomicFiles.write(settingsFile, new JsonObject().put("schema", 1).put("enabled", on).put("time", when)
          .encodePrettily().getBytes(StandardCharsets.UTF_8));
      return null;
    }).recover(t -> Future.failedFuture(new IOException("cannot save " + settingsFile + ": " + t.getMessage(), t)))
        .map(v -> {
          enabled = on;
          time = when;
          LOG.info("[DISCOVERY] {} at {} ({})", on ? "on" : "off", when, zone);
          arm();
          return status();
        });
  }

  private void arm() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
    if (!enabled) {
      nextRunAt = null;
      return;
    }
    Instant now = clock.instant();
    nextRunAt = DiscoverySchedule.nextRun(now, LocalTime.parse(time), zone);
    long delay = Math.max(1, Duration.between(now, nextRunAt).toMillis());
    timer = vertx.setTimer(delay, id -> {
      timer = -1;
      runNow().onComplete(ar -> arm());
    });
  }

  /** Runs a pass now; a pass already running is shared, not doubled. */
  public Future<DiscoveryRun.Result> runNow() {
    if (running != null) {
      return running;
    }
    running = vertx.executeBlocking(() -> {
      // Followed titles only; each job judges what is new against what the library holds when it runs.
      List<Follows.Entry> checked = new ArrayList<>();
      DiscoveryRun.Result result = DiscoveryRun.run(follows.list(), queue, sources, clock.instant(), checked);
      events.append("discovery", result.at(), result.toJson());
      try {
        follows.checked(checked, result.at());
      } catch (IOException e) {
        LOG.error("[DISCOVERY] could not record the check in {}: {}", follows.file(), e.toString());
      }
      return result;
    }, false).onComplete(ar -> {
      running = null;
      if (ar.succeeded()) {
        lastRun = ar.result();
        vertx.eventBus().publish(Addresses.SCRAPER_DISCOVERY_FINISHED, lastRun.event().toJson());
        LOG.info("[DISCOVERY] {} followed titles: {} queued to look for new chapters, {} skipped", lastRun.titles(),
            lastRun.queued().size(), lastRun.skipped().size());
      } else {
        LOG.error("[DISCOVERY] run failed: {}", ar.cause().toString());
      }
    });
    return running;
  }

  /** When the next run is due, or null while discovery is off. */
  public Instant nextRunAt() {
    return nextRunAt;
  }

  /** {@code {v, enabled, time, zone, nextRunAt, lastRun}}: the reply of {@code mc.scraper.discovery.get}. */
  public JsonObject status() {
    return new JsonObject().put("v", 1).put("enabled", enabled).put("time", time).put("zone", zone.getId())
        .put("nextRunAt", nextRunAt == null ? null : nextRunAt.toString())
        .put("lastRun", lastRun == null ? null : lastRun.toJson());
  }
}
