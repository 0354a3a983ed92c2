package io.mangacircus.launcher.notify;

import io.mangacircus.contracts.JobProgress;
import io.mangacircus.contracts.LauncherStatus;
import io.mangacircus.contracts.MemoryYieldChanged;
import io.mangacircus.contracts.ServiceState;
import io.mangacircus.contracts.ServiceStatus;
import io.vertx.core.json.JsonObject;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the events on the bus into messages for the operator: what happened, what MangaCircus did, what to do. It
 * remembers the last state it saw of each service, circuit and job, so that a repeated status (sent every few
 * seconds) says nothing new and only a change is told.
 */
public final class EventMessages {

  private static final String SCRAPER_PAGE = "/admin/scraper.html";
  private static final String HEALTH_PAGE = "/admin/health.html";

  private final String publicUrl;
  private final InstantSource clock;
  private final Map<String, ServiceStatus> services = new HashMap<>();
  private final Map<String, String> circuits = new HashMap<>();
  private final Map<String, String> jobs = new HashMap<>();

  /** @param publicUrl the instance's public address without a trailing slash, or empty (no links) */
  public EventMessages(String publicUrl, InstantSource clock) {
    this.publicUrl = publicUrl;
    this.clock = clock;
  }

  private String link(String page) {
    return publicUrl.isEmpty() ? "" : publicUrl + page;
  }

  /** An incident the scraper recorded ({@code mc.scraper.incident.recorded}). */
  public Notification incident(JsonObject incident) {
    String kind = incident.getString("kind", "incident");
    String source = incident.getString("source", "?");
    String jobId = incident.getString("jobId");
    Object status = incident.getValue("httpStatus");
    StringBuilder text = new StringBuilder(incident.getString("message", "(no message)"));
    text.append("\n\nSource: ").append(source);
    if (jobId != null) {
      text.append("\nJob: ").append(jobId);
    }
    if (status != null) {
      text.append("\nHTTP status: ").append(status);
    }
    text.append("\nWhat MangaCircus did: ").append(incident.getString("action", "recorded it"));
    text.append("\nWhat to do: look at the incident and the job in the console (Scraper page); "
        + "docs/resilience.md explains each kind.");
    return new Notification("incident", "incident:" + kind + ":" + source + ":" + (jobId == null ? "-" : jobId),
        "MangaCircus incident: " + kind + " on " + source, text.toString(), 4, List.of("warning"), link(SCRAPER_PAGE),
        clock.instant(), 0);
  }

  /** A source's circuit changed ({@code mc.scraper.circuit.state}): opened, or closed again after being open. */
  public Optional<Notification> circuit(JsonObject event) {
    String source = event.getString("source", "?");
    String state = event.getString("state", "");
    String before = circuits.put(source, state);
    if ("open".equals(state) && !"open".equals(before)) {
      return Optional.of(new Notification("circuit", "circuit-open:" + source, "MangaCircus: circuit open for "
          + source, "Requests to " + source + " failed repeatedly.\n\nWhat MangaCircus did: it stopped sending them for "
          + "a while and will try one request later; the source's job waits.\nWhat to do: nothing if it closes again "
          + "soon; if it stays open, check the source (site down, blocked, changed) on the console's Scraper page.",
          4, List.of("no_entry"), link(SCRAPER_PAGE), clock.instant(), 0));
    }
    if ("closed".equals(state) && ("open".equals(before) || "half_open".equals(before))) {
      return Optional.of(new Notification("circuit", "circuit-closed:" + source, "MangaCircus: circuit closed for "
          + source, "Requests to " + source + " succeed again.\n\nWhat MangaCircus did: downloads from " + source
          + " continue.\nWhat to do: nothing.", 3, List.of("white_check_mark"), link(SCRAPER_PAGE), clock.instant(),
          0));
    }
    return Optional.empty();
  }

  /** A job's progress ({@code mc.scraper.job.progress}): told only when it becomes quarantined. */
  public Optional<Notification> progress(JobProgress progress) {
    String before = jobs.put(progress.jobId(), progress.state());
    if (!"quarantined".equals(progress.state()) || "quarantined".equals(before)) {
      return Optional.empty();
    }
    return Optional.of(new Notification("quarantined", "quarantined:" + progress.jobId(),
        "MangaCircus: job quarantined: " + progress.title() + " (" + progress.source() + ")",
        "Job " + progress.jobId() + " (" + progress.title() + " from " + progress.source() + ") failed too often, "
            + progress.chaptersDone() + " of " + progress.chapters() + " chapters done.\n\nWhat MangaCircus did: it "
            + "stopped the job and kept every validated page.\nWhat to do: read the job's incidents on the console's "
            + "Scraper page, fix the cause (source, pacing, definition), then press Retry.", 4, List.of("warning"),
        link(SCRAPER_PAGE), clock.instant(), 0));
  }

  /**
   * A launcher's supervision state ({@code mc.launcher.status}): a service newly parked as repair-required, or newly
   * blocked by a corrupt state file.
   */
  public List<Notification> status(LauncherStatus status) {
    List<Notification> out = new ArrayList<>();
    for (ServiceState state : status.services()) {
      // Per process: in the pair each launcher reports its own services, and a restarted process is a new node.
      ServiceStatus before = services.put(status.node() + "/" + state.service(), state.status());
      if (state.status() == before) {
        continue;
      }
      String reason = state.reason() == null ? "no reason recorded" : state.reason();
      if (state.status() == ServiceStatus.REPAIR_REQUIRED) {
        out.add(new Notification("repair-required", "repair-required:" + state.service(), "MangaCircus: "
            + state.service() + " parked, repair required", "The " + state.service() + " service on "
            + status.node() + " failed " + state.failuresInWindow() + " times within its crash budget window. Last "
            + "failure: " + reason + "\n\nWhat MangaCircus did: it stopped restarting the service; the process stays "
            + "up and /health/ready answers 503.\nWhat to do: read the log, repair the cause, then restart the "
            + "process (docs/operations.md, crash budget).", 5, List.of("rotating_light"), link(HEALTH_PAGE),
            clock.instant(), 0));
      } else if (state.status() == ServiceStatus.BLOCKED) {
        boolean corrupt = reason.startsWith("corrupt state file");
        out.add(new Notification(corrupt ? "corrupt-state" : "repair-required", "blocked:" + state.service(),
            "MangaCircus: " + state.service() + " blocked" + (corrupt ? " by a corrupt state file" : ""),
            "The " + state.service() + " service on " + status.node() + " cannot start: " + reason + "\n\nWhat "
                + "MangaCircus did: it left the file untouched and does not restart the service.\nWhat to do: repair "
                + "the file or move it away (docs/operations.md), then press Start on the console's Health page.",
            5, List.of("rotating_light"), link(HEALTH_PAGE), clock.instant(), 0));
      }
    }
    return out;
  }

  /** The scraper's launcher started or ended a memory-pressure yield ({@code mc.launcher.memory.yield}). */
  public Notification memoryYield(MemoryYieldChanged change) {
    if (change.yielding()) {
      return new Notification("memory-yield", "memory-yield:on", "MangaCircus: downloads paused for memory",
          change.reason() + "\n\nWhat MangaCircus did: downloads stop at their next checkpoint and resume by "
              + "themselves once memory use falls below the low watermark.\nWhat to do: nothing if it is brief; if it "
              + "repeats, give the machine more memory or find what else uses it.", 3, List.of("warning"),
          link(HEALTH_PAGE), clock.instant(), 0);
    }
    return new Notification("memory-yield", "memory-yield:off", "MangaCircus: downloads resumed",
        change.reason() + "\n\nWhat MangaCircus did: downloads may resume.\nWhat to do: nothing.", 2,
        List.of("white_check_mark"), link(HEALTH_PAGE), clock.instant(), 0);
  }

  /** The message of the Settings page's test button and {@code mangacircus} startup checks. */
  public Notification test(String requestedBy) {
    return new Notification("test", "test:" + clock.instant(), "MangaCircus test message",
        "A test message requested by " + requestedBy + ". If you read this, the destination works.\nWhat to do: "
            + "nothing.", 3, List.of("test_tube"), link(HEALTH_PAGE), clock.instant(), 0);
  }

  /** A series page of the reader. */
  public String seriesLink(String seriesId) {
    return link("/series.html?id=" + java.net.URLEncoder.encode(seriesId, java.nio.charset.StandardCharsets.UTF_8));
  }

  /** The library page, for messages about new chapters. */
  public String libraryLink() {
    return link("/");
  }
}
