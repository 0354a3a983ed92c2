package io.mangacircus.contracts;

/**
 * Every event-bus address of MangaCircus, declared once and grouped by the service that consumes it: the reader, the
 * scraper (its requests, then what it publishes), the launcher. Names are {@code mc.<owner>.<noun>.<verb>}; each
 * Javadoc says request/reply or publish, the bodies, and the callers' default timeout where one applies.
 * {@code docs/event-bus.md} lists the same addresses with their message shapes.
 */
public final class Addresses {

  // The reader's: answered by the reader service.

  /**
   * Request/reply. Liveness ping of the reader service. Body {@link PingRequest}, reply {@link PingReply}.
   * Callers use a short timeout (supervision default 2000 ms).
   */
  public static final String READER_PING = "mc.reader.ping";

  /**
   * Request/reply, local to the process that hosts the reader (consumed with {@code localConsumer}, sent with
   * {@code localOnly}: the reply carries the readers' own alert secrets). Who wants new-chapter alerts of some series:
   * body {@code {v:1, series:[series ids]}}, reply {@code {v, subscribers:[{user, target:{type: ntfy|webhook, url,
   * topic, token}, series:[the asked ids this user subscribed to]}]}}; users disabled or without a target are left
   * out. Asked by the notifier after a discovery pass, which waits 10 000 ms for the answer (docs/notifications.md).
   */
  public static final String READER_ALERTS_SUBSCRIBERS = "mc.reader.alerts.subscribers";

  // What a reader publishes to the other readers of the cluster (only when clustered), so that what each keeps in
  // memory stays right while they share one database. Each receiver ignores its own publications (field from) and logs
  // and drops a body that does not parse.

  /**
   * Publish. A user logged out: body {@link SessionEnded} (the hash of the session's token). The other readers stop
   * trusting that session from memory at once instead of after their 5 s look-up span.
   */
  public static final String READER_SESSION_ENDED = "mc.reader.session.ended";

  /**
   * Publish. Accounts changed: body {@link AccountsChanged}. {@code credentials} (a password set or reset, an account
   * disabled or enabled, an app password revoked): the other readers check every session and app password against the
   * database again; {@code access} (what accounts may see, an account made): they read every account's access again.
   */
  public static final String READER_ACCOUNTS_CHANGED = "mc.reader.accounts.changed";

  /**
   * Publish. A step of a guess a reader counted (a login, an app password, the admin token): body
   * {@link LoginAttempted}. Every other reader applies it to its login throttle, so that failures spread over several
   * readers lock a client out as they would on one.
   */
  public static final String READER_LOGIN_ATTEMPTED = "mc.reader.login.attempted";

  /**
   * Publish. An admin merged or unmerged series: body {@link SeriesMergesChanged}. The other readers read the merges
   * from the database again, so that lists and series pages show the change on every reader at once.
   */
  public static final String READER_MERGES_CHANGED = "mc.reader.merges.changed";

  /**
   * Publish. An admin changed the catalog (series metadata, a collection or its cover): body {@link CatalogChanged}.
   * The other readers read the catalog from the database again, so that every reader serves the change at once.
   */
  public static final String READER_CATALOG_CHANGED = "mc.reader.catalog.changed";

  /**
   * Publish. A reader saved a user's reading (a position, chapters marked read, a library visit): body
   * {@link ReadingChanged}. The other readers drop what they keep of that user's reading, so that their library lists
   * show it at once.
   */
  public static final String READER_READING_CHANGED = "mc.reader.reading.changed";

  // The scraper's requests. The reader's admin routes and the console's bridge wait reader.scraperRequestTimeoutMs
  // (default 2000 ms) for each reply; OperatorOperation lists the operator's ones.

  /**
   * Request/reply. Liveness ping of the scraper service. Body {@link PingRequest}, reply {@link PingReply}.
   * The reader's readiness check uses it to tell whether the scraper is reachable (default timeout 2000 ms).
   */
  public static final String SCRAPER_PING = "mc.scraper.ping";

  /**
   * Request/reply. Every job with state and progress. Body {@link ScraperRequests#list()}; reply
   * {@link io.mangacircus.contracts.scraper.JobsReply}.
   */
  public static final String SCRAPER_JOBS_LIST = "mc.scraper.jobs.list";

  /**
   * Request/reply. Add a title. Body {@link AddTitleRequest}; reply
   * {@link io.mangacircus.contracts.scraper.JobAddedReply} ({@code created} false when an outstanding job for the same
   * source and title already existed).
   */
  public static final String SCRAPER_JOBS_ADD = "mc.scraper.jobs.add";

  /**
   * Request/reply. Confirm a {@code ready} job's download. Body {@link JobRequest}; reply
   * {@link io.mangacircus.contracts.scraper.JobReply} (so do pause, resume and retry).
   */
  public static final String SCRAPER_JOBS_CONFIRM = "mc.scraper.jobs.confirm";

  /** Request/reply. Pause a job (an active one stops at its next checkpoint). Body {@link JobRequest}. */
  public static final String SCRAPER_JOBS_PAUSE = "mc.scraper.jobs.pause";

  /** Request/reply. Resume a paused job. Body {@link JobRequest}. */
  public static final String SCRAPER_JOBS_RESUME = "mc.scraper.jobs.resume";

  /** Request/reply. Retry a paused, waiting, unavailable or quarantined job; staged pages are kept. Body {@link JobRequest}. */
  public static final String SCRAPER_JOBS_RETRY = "mc.scraper.jobs.retry";

  /**
   * Request/reply. The operator dismisses a failed job (paused, retry_wait, unavailable or quarantined): it leaves the
   * queue, its open incidents are resolved and the staging folders of its unpublished chapters are removed; its
   * published chapters stay in the library. Body {@link JobRequest}, reply {@code JobReply} with the removed job; any
   * other state fails with {@code ILLEGAL_TRANSITION} (HTTP 409), an unknown job with {@code NOT_FOUND}.
   */
  public static final String SCRAPER_JOBS_DISMISS = "mc.scraper.jobs.dismiss";

  /**
   * Request/reply. The operator deletes a finished ({@code done}) job from the queue; its published chapters stay in
   * the library. Body {@link JobRequest}, reply {@code JobReply} with the removed job; any other state fails with
   * {@code ILLEGAL_TRANSITION} (HTTP 409), an unknown job with {@code NOT_FOUND}.
   */
  public static final String SCRAPER_JOBS_DELETE = "mc.scraper.jobs.delete";

  /**
   * Request/reply. Every lane with its pacing and pause state. Body {@link ScraperRequests#list()}; reply
   * {@link io.mangacircus.contracts.scraper.LanesReply}.
   */
  public static final String SCRAPER_LANES_LIST = "mc.scraper.lanes.list";

  /** Request/reply. Pause a source's lane (its job stops at the next checkpoint). Body {@link LaneRequest}. */
  public static final String SCRAPER_LANES_PAUSE = "mc.scraper.lanes.pause";

  /** Request/reply. Resume a source's lane. Body {@link LaneRequest}. */
  public static final String SCRAPER_LANES_RESUME = "mc.scraper.lanes.resume";

  /**
   * Request/reply. Change a lane's pacing at run time. Body {@link LanePacingRequest}; reply
   * {@link io.mangacircus.contracts.scraper.LaneReply} (so do pause and resume).
   */
  public static final String SCRAPER_LANES_PACING = "mc.scraper.lanes.pacing";

  /**
   * Request/reply. The kept incidents, newest first. Body {@link ScraperRequests#list()}; reply
   * {@link io.mangacircus.contracts.scraper.IncidentsReply}.
   */
  public static final String SCRAPER_INCIDENTS_LIST = "mc.scraper.incidents.list";

  /**
   * Request/reply, local to the scraper's process. Memory-pressure yield from its launcher: body
   * {@link YieldRequest}, reply {@link io.mangacircus.contracts.scraper.YieldReply}; while yielding, lanes stop at
   * their next checkpoint and claim nothing.
   */
  public static final String SCRAPER_DOWNLOADS_YIELD = "mc.scraper.downloads.yield";

  /**
   * Request/reply. Discovery settings and last run. Body {@link ScraperRequests#list()}; reply
   * {@code {v, enabled, time, zone, nextRunAt, lastRun}}.
   */
  public static final String SCRAPER_DISCOVERY_GET = "mc.scraper.discovery.get";

  /** Request/reply. Turn nightly discovery on or off or move its time. Body {@link DiscoverySettingsRequest}. */
  public static final String SCRAPER_DISCOVERY_SET = "mc.scraper.discovery.set";

  /** Request/reply. Run discovery now. Body {@link ScraperRequests#list()}; reply {@code {v, run}}. */
  public static final String SCRAPER_DISCOVERY_RUN = "mc.scraper.discovery.run";

  /**
   * Request/reply. The configured sources and whether each can search: body {@code {v:1}}, reply
   * {@link io.mangacircus.contracts.scraper.SourcesReply}.
   */
  public static final String SCRAPER_SOURCES_LIST = "mc.scraper.sources.list";

  /**
   * Request/reply. Searches titles by name in one source or every source that can search: body {@link SearchRequest},
   * reply {@link io.mangacircus.contracts.scraper.SearchReply}. A source that cannot search, whose circuit is open or
   * whose request failed appears in {@code problems} while the others answer; answers are cached a few minutes.
   * Fails with {@code MALFORMED_MESSAGE} or {@code UNKNOWN_SOURCE} (a named source is not configured).
   */
  public static final String SCRAPER_TITLES_SEARCH = "mc.scraper.titles.search";

  /**
   * Request/reply. One title's details and every chapter (all languages, all groups): body {@link PreviewRequest},
   * reply {@link io.mangacircus.contracts.scraper.PreviewReply}; cached like a search. Fails with
   * {@code UNKNOWN_SOURCE}, {@code NOT_FOUND} (no such title) or {@code SOURCE_UNAVAILABLE}.
   */
  public static final String SCRAPER_TITLES_PREVIEW = "mc.scraper.titles.preview";

  /**
   * Request/reply. A cover's bytes by the opaque id a search or preview handed out: body {@link CoverRequest}, reply a
   * {@code Buffer} with the content type in the delivery header {@code content-type}. Fails with {@code NOT_FOUND}
   * (unknown id), {@code BAD_IMAGE} (not an image, or over 2 MB) or {@code SOURCE_UNAVAILABLE}.
   */
  public static final String SCRAPER_COVERS_FETCH = "mc.scraper.covers.fetch";

  /**
   * Request/reply. The followed titles, checked by nightly discovery: body {@code {v:1}}, reply
   * {@link io.mangacircus.contracts.scraper.FollowsReply}.
   */
  public static final String SCRAPER_FOLLOWS_LIST = "mc.scraper.follows.list";

  /**
   * Request/reply. Follows or unfollows a title (unfollow keeps what was downloaded): body {@link FollowRequest},
   * reply {@link io.mangacircus.contracts.scraper.FollowsReply} with the changed title, or none after an unfollow.
   * Fails with {@code UNKNOWN_SOURCE} or {@code STORAGE_ERROR} (the follows file cannot be read or written).
   */
  public static final String SCRAPER_FOLLOWS_SET = "mc.scraper.follows.set";

  // What the scraper publishes: events, no reply.

  /** Publish. A source circuit changed state: {@code {v:1, source, state: closed|half_open|open}}. */
  public static final String SCRAPER_CIRCUIT_STATE = "mc.scraper.circuit.state";

  /** Publish. Download progress of a job: {@link JobProgress}, at every validated page and state change. */
  public static final String SCRAPER_JOB_PROGRESS = "mc.scraper.job.progress";

  /**
   * Publish. The scraper recorded an incident: {@code {v:1, id, at, kind, source, jobId, httpStatus, message, action,
   * resolvedAt}} ({@link io.mangacircus.contracts.scraper.IncidentView#toEvent()}: the same shape as one entry of
   * {@link #SCRAPER_INCIDENTS_LIST}'s reply, plus {@code v}).
   */
  public static final String SCRAPER_INCIDENT_RECORDED = "mc.scraper.incident.recorded";

  /**
   * Publish. A discovery pass finished queueing: {@link DiscoveryFinished} (the jobs it queued; their chapters are
   * announced on {@link #LIBRARY_PUBLISHED} as they come).
   */
  public static final String SCRAPER_DISCOVERY_FINISHED = "mc.scraper.discovery.finished";

  /** Publish. A chapter was published into the library: {@link ChapterPublished}. */
  public static final String LIBRARY_PUBLISHED = "mc.library.published";

  // The launcher's: answered or published by the launcher of a process.

  /**
   * Publish. A launcher's supervision state, sent whenever one of its services changes status.
   * Body {@link LauncherStatus}.
   */
  public static final String LAUNCHER_STATUS = "mc.launcher.status";

  /**
   * Request/reply, local to each process (consumed with {@code localConsumer}, sent with {@code localOnly}). The
   * launcher of the process stops it gracefully, exactly as SIGTERM does. Body {@link ShutdownRequest}; reply
   * {@link ShutdownReply} ({@code stopping} true), sent before the stop begins.
   */
  public static final String LAUNCHER_PROCESS_SHUTDOWN = "mc.launcher.process.shutdown";

  /**
   * Request/reply over the clustered bus. Consumed by the launcher of the process that hosts the scraper: a
   * scraper-only process replies {@link ShutdownReply} {@code stopping: true} and then stops gracefully; a process
   * that also hosts the reader (one JVM) replies {@code stopping: false}, because the requesting reader stops that
   * same process itself through {@link #LAUNCHER_PROCESS_SHUTDOWN}. Body {@link ShutdownRequest}.
   */
  public static final String LAUNCHER_PAIR_SHUTDOWN = "mc.launcher.pair.shutdown";

  /**
   * Request/reply. Asks the launcher that hosts the reader to deploy it again when it is {@code blocked} (a state file
   * it needs did not parse). Body {@link ServiceStartRequest}; reply {@code {v, service: ServiceState}} once the new
   * attempt has been decided (the service may be blocked again). Any other status is refused with
   * {@link ErrorCode#ILLEGAL_TRANSITION}: it never clears a crash budget. Callers wait at least as long as a deploy
   * takes (the reader's admin route waits 30 000 ms).
   */
  public static final String READER_START = "mc.launcher.reader.start";

  /** Request/reply. As {@link #READER_START}, for the scraper. */
  public static final String SCRAPER_START = "mc.launcher.scraper.start";

  /**
   * Publish. The launcher of the scraper's process started or ended a memory-pressure yield:
   * {@link MemoryYieldChanged}.
   */
  public static final String LAUNCHER_MEMORY_YIELD = "mc.launcher.memory.yield";

  /**
   * Request/reply, local to the process that hosts the reader (consumed with {@code localConsumer} by its notifier,
   * sent with {@code localOnly}). The notification settings with every secret shown only as {@code "set"}: body
   * {@code {v:1}}, reply {@code {v, publicUrl, destinations:[{name, type, url:"set", topic, token, events,
   * maxPerHour, origin}], heartbeat:{url, intervalSeconds, origin}, eventKinds, settingsProblem, configured, waiting,
   * dropped}} ({@code origin}: {@code config} for the config file's, read-only; {@code settings} for the Settings
   * page's). No handler: the notifier is not running in this process (its outbox file does not parse).
   */
  public static final String LAUNCHER_NOTIFICATIONS_GET = "mc.launcher.notifications.get";

  /**
   * Request/reply, local as {@link #LAUNCHER_NOTIFICATIONS_GET}. Sends one test message to every destination and one
   * heartbeat, at once and outside the outbox; body {@code {v:1, requestedBy}}, reply {@code {v, destinations:[{name,
   * type, ok, answer}], heartbeat:{ok, answer}|null}} once every answer is in (at most the request timeout, 10 s by
   * default; callers wait 30 000 ms).
   */
  public static final String LAUNCHER_NOTIFICATIONS_TEST = "mc.launcher.notifications.test";

  /**
   * Request/reply, local as {@link #LAUNCHER_NOTIFICATIONS_GET}. A change from the console's Settings page, saved in
   * {@code data/notifications/destinations.json} and applied without a restart: body {@code {v:1, action:
   * put-destination|remove-destination|put-heartbeat|remove-heartbeat, name, fields:{type, url, topic, token,
   * removeToken, events, maxPerHour | url, intervalSeconds}, requestedBy}}; reply the new view (as
   * {@link #LAUNCHER_NOTIFICATIONS_GET}). Fails with {@code MALFORMED_MESSAGE} (a value refused, the message says
   * which), {@code NOT_FOUND}, {@code ILLEGAL_TRANSITION} (set in the config file: read-only) or {@code STORAGE_ERROR}
   * (the file does not parse or cannot be written; it is left untouched).
   */
  public static final String LAUNCHER_NOTIFICATIONS_CHANGE = "mc.launcher.notifications.change";

  /**
   * Request/reply, local as {@link #LAUNCHER_NOTIFICATIONS_GET}. Whether a reader's own alert target may be saved: body
   * {@code {v:1, url}}, reply {@code {v:1}} when its host is allowed by {@code notifications.readerAlertAllowedHosts}
   * or resolves only to public addresses. Fails with {@code MALFORMED_MESSAGE} when it is refused (the message says
   * why, naming no host). Sent by {@code PUT /api/me/alerts/target}, which waits 15 000 ms (name lookups).
   */
  public static final String LAUNCHER_NOTIFICATIONS_CHECK_TARGET = "mc.launcher.notifications.target.check";

  /**
   * Point-to-point, local as {@link #LAUNCHER_NOTIFICATIONS_GET} (the body carries a reader's own alert secrets): one
   * message to one reader about their account, queued in the notifier's outbox like a new-chapter alert. Body
   * {@code {v:1, user, target:{type: ntfy|webhook, url, topic, token}, key, title, text, click}}; {@code key} makes a
   * repeat of the same notice one message. Sent by the reader when a tracker sign-in needs renewing (docs/trackers.md);
   * no reply. Dropped (and logged) when the notifier is not running in this process.
   */
  public static final String LAUNCHER_NOTIFICATIONS_READER_NOTICE = "mc.launcher.notifications.reader.notice";

  private Addresses() {
  }

  /**
   * The retry-start address of a service by its name ({@link #READER_START}, {@link #SCRAPER_START}), consumed by
   * every launcher hosting that service: with several, the event bus hands a request to one of them in turn.
   */
  public static String serviceStartOf(String service) {
    return "mc.launcher." + service + ".start";
  }

  /**
   * Request/reply, as {@link #READER_START}, consumed only by the launcher whose node is {@code node}
   * ({@code <mode>@<host>:<pid>}, as in {@link LauncherStatus#node()}): {@code mc.launcher.<service>.start.<node>}.
   * Reaches the one launcher whose service is blocked when several host that service (several readers).
   */
  public static String serviceStartOf(String node, String service) {
    return serviceStartOf(service) + "." + node;
  }

  /** The ping address of a service by its name ({@code reader} or {@code scraper}). */
  public static String pingOf(String service) {
    return "mc." + service + ".ping";
  }
}
