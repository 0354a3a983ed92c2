package io.mangacircus.scraper.operator;

import io.mangacircus.contracts.AddTitleRequest;
import io.mangacircus.contracts.CoverRequest;
import io.mangacircus.contracts.FollowRequest;
import io.mangacircus.contracts.PreviewRequest;
import io.mangacircus.contracts.ScraperRequests;
import io.mangacircus.contracts.SearchRequest;
import io.mangacircus.contracts.scraper.FollowsReply;
import io.mangacircus.contracts.scraper.PreviewReply;
import io.mangacircus.contracts.scraper.SearchReply;
import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.DiscoverySettingsRequest;
import io.mangacircus.contracts.DurableFiles;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.JobRequest;
import io.mangacircus.contracts.JobsListRequest;
import io.mangacircus.contracts.LanePacingRequest;
import io.mangacircus.contracts.LaneRequest;
import io.mangacircus.contracts.OperatorOperation;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.contracts.YieldRequest;
import io.mangacircus.contracts.scraper.IncidentView;
import io.mangacircus.contracts.scraper.IncidentsReply;
import io.mangacircus.contracts.scraper.JobAddedReply;
import io.mangacircus.contracts.scraper.JobReply;
import io.mangacircus.contracts.scraper.JobView;
import io.mangacircus.contracts.scraper.JobsReply;
import io.mangacircus.contracts.scraper.LaneReply;
import io.mangacircus.contracts.scraper.LaneView;
import io.mangacircus.contracts.scraper.LanesReply;
import io.mangacircus.contracts.scraper.YieldReply;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.discovery.DiscoveryService;
import io.mangacircus.scraper.follow.Follows;
import io.mangacircus.scraper.search.TitleSearch;
import io.mangacircus.scraper.lane.ProgressBoard;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.Job;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.JobState;
import io.mangacircus.scraper.publish.LibraryFolders;
import io.mangacircus.scraper.queue.QueueOutcome;
import io.mangacircus.scraper.source.Circuits;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.support.DecodingHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every request the scraper answers on the event bus, and the only place that registers its consumers: one per row of
 * {@link OperatorOperation} (address and decoder from the row, the handler from {@link #handler}), the ping and the
 * launcher's memory yield. Reads of the queue are answered from a worker, changes are recorded there too; a refusal
 * or a failure is answered with its {@link ErrorCode} (docs/error-codes.md).
 */
public final class OperatorRequests {

  private static final Logger LOG = LoggerFactory.getLogger(OperatorRequests.class);

  /**
   * What the requests act on once the queue is open.
   *
   * @param sources the effective configuration of every source, in configuration order
   * @param adapters the adapter of a source (to turn a title URL into its id), or null when there is none (yet)
   * @param autoConfirm whether an added title downloads without confirmation unless the request says otherwise
   * @param events where the memory yield's changes are recorded
   * @param library the library, whose staging folders a dismissed or deleted job leaves behind
   * @param follows the followed titles
   * @param search title search, preview and covers
   */
  public record Parts(JobQueue queue, ProgressBoard progress, Map<String, SourceConfig> sources, Circuits circuits,
      Function<String, Source> adapters, boolean autoConfirm, EventLog events, InstantSource clock,
      DiscoveryService discovery, LibraryFolders library, Follows follows, TitleSearch search) {
  }

  private final Vertx vertx;
  private final List<MessageConsumer<Object>> consumers = new ArrayList<>();
  private Parts parts;

  public OperatorRequests(Vertx vertx) {
    this.vertx = vertx;
  }

  /** Answers {@code mc.scraper.ping}: registered first, so the scraper answers while it opens its queue. */
  public void answerPings(PingReply reply) {
    consume(Addresses.SCRAPER_PING, PingRequest::fromJson, (message, request) -> message.reply(reply.toJson()));
  }

  /** Answers every operator operation and the memory yield. */
  public void register(Parts scraper) {
    this.parts = scraper;
    for (OperatorOperation operation : OperatorOperation.values()) {
      consume(operation.address(), operation.decoder(), handler(operation));
    }
    consume(Addresses.SCRAPER_DOWNLOADS_YIELD, YieldRequest::fromJson, this::yieldDownloads);
    consume(Addresses.SCRAPER_SOURCES_LIST, ScraperRequests::checkList,
        (message, none) -> message.reply(parts.search().sources().toJson()));
    consume(Addresses.SCRAPER_TITLES_SEARCH, SearchRequest::fromJson, (message, request) -> answer(message,
        () -> parts.search().search(request).map(SearchReply::toJson)));
    consume(Addresses.SCRAPER_TITLES_PREVIEW, PreviewRequest::fromJson, (message, request) -> answer(message,
        () -> parts.search().preview(request).map(PreviewReply::toJson)));
    consume(Addresses.SCRAPER_COVERS_FETCH, CoverRequest::fromJson, this::cover);
    consume(Addresses.SCRAPER_FOLLOWS_LIST, ScraperRequests::checkList,
        (message, none) -> replyOffLoop(message, () -> new FollowsReply(parts.follows().list().stream()
            .map(this::followed).toList()).toJson()));
    consume(Addresses.SCRAPER_FOLLOWS_SET, FollowRequest::fromJson, this::follow);
  }

  /** Replies with what {@code work} answers, or fails with its {@link TitleSearch.Refusal}'s code. */
  private void answer(Message<Object> message, java.util.function.Supplier<Future<JsonObject>> work) {
    Future.<Void>succeededFuture().compose(v -> work.get()).onSuccess(message::reply)
        .onFailure(t -> refuse(message, t));
  }

  private static void refuse(Message<Object> message, Throwable t) {
    if (t instanceof TitleSearch.Refusal refusal) {
      message.fail(refusal.code().code(), refusal.getMessage());
    } else {
      LOG.error("[SEARCH] request on {} failed: {}", message.address(), t.toString(), t);
      message.fail(ErrorCode.INTERNAL_ERROR.code(), "the scraper failed: " + t.getMessage());
    }
  }

  private void cover(Message<Object> message, CoverRequest request) {
    Future.<Void>succeededFuture().compose(v -> parts.search().cover(request)).onSuccess(cover -> message.reply(
            Buffer.buffer(cover.bytes()), new DeliveryOptions().addHeader("content-type", cover.contentType())))
        .onFailure(t -> refuse(message, t));
  }

  private FollowsReply.Followed followed(Follows.Entry entry) {
    String title = entry.title();
    if (title.equals(entry.titleId())) {
      title = parts.queue().jobs().stream().filter(j -> j.source().equals(entry.source())
          && j.titleId().equals(entry.titleId()) && j.inspected()).map(Job::title).findFirst().orElse(title);
    }
    return new FollowsReply.Followed(entry.source(), entry.titleId(), title, entry.language(), entry.followedAt(),
        entry.lastCheckAt(), entry.lastNewChapterAt(), parts.discovery().nextRunAt());
  }

  private void follow(Message<Object> message, FollowRequest request) {
    if (!parts.sources().containsKey(request.source())) {
      message.fail(ErrorCode.UNKNOWN_SOURCE.code(), "unknown source '" + request.source() + "' (configured: "
          + String.join(", ", parts.sources().keySet()) + ")");
      return;
    }
    Source source = parts.adapters().apply(request.source());
    String titleId = source == null ? request.titleId().trim() : source.titleIdOf(request.titleId());
    vertx.executeBlocking(() -> {
      if (!request.follow()) {
        if (parts.follows().unfollow(request.source(), titleId)) {
          LOG.info("[FOLLOWS] {}/{} unfollowed (its chapters stay)", request.source(), titleId);
        }
        return new FollowsReply(List.of()).toJson();
      }
      java.util.Optional<Job> job = parts.queue().jobs().stream().filter(j -> j.source().equals(request.source())
          && j.titleId().equals(titleId)).reduce((first, later) -> later);
      String language = request.language() != null ? request.language() : job.map(Job::language).orElse(null);
      Follows.Entry entry = parts.follows().follow(request.source(), titleId,
          job.filter(Job::inspected).map(Job::title).orElse(null), language, job.map(Job::preferredGroups).orElse(null));
      LOG.info("[FOLLOWS] {}/{} followed ({})", request.source(), titleId, entry.language());
      return new FollowsReply(List.of(followed(entry))).toJson();
    }).onSuccess(message::reply).onFailure(t -> storageFailure(message, t));
  }

  /** Stops answering. */
  public void close() {
    consumers.forEach(MessageConsumer::unregister);
    consumers.clear();
  }

  /** The scraper's handler of one operation; the switch names every row, so a row without one does not compile. */
  private BiConsumer<Message<Object>, Object> handler(OperatorOperation operation) {
    JobQueue queue = parts.queue();
    DiscoveryService discovery = parts.discovery();
    return switch (operation) {
      case JOBS_LIST -> typed(JobsListRequest.class, (message, request) -> replyOffLoop(message,
          () -> jobs(request).toJson()));
      case JOBS_ADD -> typed(AddTitleRequest.class, this::add);
      case JOBS_CONFIRM -> jobCommand(queue::confirm);
      case JOBS_PAUSE -> jobCommand(queue::pause);
      case JOBS_RESUME -> jobCommand(queue::resume);
      case JOBS_RETRY -> jobCommand(queue::retry);
      case JOBS_DISMISS -> jobCommand(jobId -> withoutStaging(queue.dismiss(jobId)));
      case JOBS_DELETE -> jobCommand(jobId -> withoutStaging(queue.delete(jobId)));
      case INCIDENTS_LIST -> (message, none) -> replyOffLoop(message, () -> incidents().toJson());
      case LANES_LIST -> (message, none) -> replyOffLoop(message, () -> lanes().toJson());
      case LANES_PAUSE -> typed(LaneRequest.class, (message, request) -> laneCommand(message, request.source(),
          () -> queue.lanes().pause(request.source(), "paused by the operator")));
      case LANES_RESUME -> typed(LaneRequest.class, (message, request) -> laneCommand(message, request.source(),
          () -> queue.lanes().resume(request.source())));
      case LANES_PACING -> typed(LanePacingRequest.class, (message, request) -> laneCommand(message,
          request.source(), () -> queue.lanes().pacing(request.source(), request.pageDelayMs(), request.chapterDelayMs())));
      case DISCOVERY_GET -> (message, none) -> message.reply(discovery.status());
      case DISCOVERY_SET -> typed(DiscoverySettingsRequest.class, (message, request) ->
          discovery.change(request.enabled(), request.time()).onSuccess(message::reply)
              .onFailure(t -> message.fail(ErrorCode.STORAGE_ERROR.code(), t.getMessage())));
      case DISCOVERY_RUN -> (message, none) -> discovery.runNow()
          .onSuccess(result -> message.reply(new JsonObject().put("v", 1).put("run", result.toJson())))
          .onFailure(t -> message.fail(ErrorCode.INTERNAL_ERROR.code(), "discovery failed: " + t.getMessage()));
    };
  }

  /** One page of jobs (or every job of the state asked for): only the jobs on it become views. */
  private JobsReply jobs(JobsListRequest request) {
    JobState state = request.state() == null ? null : JobState.ofWire(request.state());
    int size = request.paged() ? request.sizeOrDefault() : Integer.MAX_VALUE;
    long offset = request.paged() ? (long) (request.pageOrFirst() - 1) * size : 0;
    JobQueue.JobPage page = parts.queue().page(state, (int) Math.min(offset, Integer.MAX_VALUE), size);
    Map<String, Integer> counts = new java.util.LinkedHashMap<>();
    page.counts().forEach((s, n) -> counts.put(s.wire(), n));
    return new JobsReply(page.jobs().stream().map(this::view).toList(), page.total(),
        request.paged() ? request.pageOrFirst() : null, request.paged() ? size : null, counts);
  }

  private LanesReply lanes() {
    List<LaneView> lanes = new ArrayList<>();
    parts.sources().keySet().forEach(name -> lanes.add(lane(name, true)));
    return new LanesReply(lanes, parts.queue().lanes().yieldReason());
  }

  private IncidentsReply incidents() {
    List<IncidentView> newestFirst = new ArrayList<>(parts.queue().incidents().list().stream().map(Views::incident).toList());
    java.util.Collections.reverse(newestFirst);
    return new IncidentsReply(parts.queue().incidents().open(), newestFirst);
  }

  private JobView view(Job job) {
    return Views.job(job, parts.progress().of(job.id()));
  }

  private LaneView lane(String source, boolean withCoverage) {
    JobQueue queue = parts.queue();
    Source adapter = withCoverage ? parts.adapters().apply(source) : null;
    return Views.lane(source, parts.sources().get(source), queue.lanes().lane(source), parts.circuits().state(source),
        withCoverage ? queue.coverage(source) : null, adapter == null ? null : adapter.limits());
  }

  private void add(Message<Object> message, AddTitleRequest request) {
    Source source = parts.adapters().apply(request.source());
    String titleId = source == null ? request.title().trim() : source.titleIdOf(request.title());
    boolean autoConfirm = request.autoConfirm() != null ? request.autoConfirm() : parts.autoConfirm();
    change(message, () -> {
      if (request.follow() && parts.sources().containsKey(request.source())) {
        // Saved first: when the follows file cannot be written, nothing was added.
        parts.follows().follow(request.source(), titleId, null, request.language(), request.preferredGroups());
      }
      return parts.queue().addTitle(request.source(), titleId, autoConfirm, request.language(),
          request.preferredGroups());
    }, JobQueue.Addition::outcome, addition -> new JobAddedReply(addition.created(), addition.supersededJobId(),
        view(addition.outcome().job())).toJson());
  }

  private BiConsumer<Message<Object>, Object> jobCommand(Function<String, QueueOutcome> command) {
    return typed(JobRequest.class, (message, request) -> change(message, () -> command.apply(request.jobId()),
        outcome -> outcome, outcome -> new JobReply(view(outcome.job())).toJson()));
  }

  /**
   * After a job left the queue: removes the staging folders of its unpublished chapters (published chapters are in
   * their series folders and are never touched). A folder that cannot be removed is logged; startup recovery finds it.
   */
  private QueueOutcome withoutStaging(QueueOutcome removed) {
    if (!removed.accepted()) {
      return removed;
    }
    LibraryFolders library = parts.library();
    for (String fingerprint : JobQueue.unpublishedStaging(removed.job())) {
      Path folder = library.staging(fingerprint);
      if (!library.root().equals(folder.getParent()) || !Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
        continue;
      }
      try {
        DurableFiles.deleteTree(folder);
        LOG.info("[QUEUE] removed the staging folder {} of job {}", folder.getFileName(), removed.job().id());
      } catch (IOException e) {
        LOG.warn("[QUEUE] the staging folder {} of removed job {} could not be deleted: {}", folder.getFileName(),
            removed.job().id(), e.toString());
      }
    }
    return removed;
  }

  private void laneCommand(Message<Object> message, String source, Runnable command) {
    if (!parts.sources().containsKey(source)) {
      message.fail(ErrorCode.UNKNOWN_SOURCE.code(), "unknown source '" + source + "' (configured: "
          + String.join(", ", parts.sources().keySet()) + ")");
      return;
    }
    vertx.executeBlocking(() -> {
      command.run();
      return new LaneReply(lane(source, false)).toJson();
    }).onSuccess(message::reply).onFailure(t -> storageFailure(message, t));
  }

  private void yieldDownloads(Message<Object> message, YieldRequest request) {
    JobQueue queue = parts.queue();
    String before = queue.lanes().yieldReason();
    queue.lanes().yieldDownloads(request.yield() ? request.reason() : null);
    if ((before == null) == request.yield()) {
      LOG.warn("[YIELD] downloads {}: {}", request.yield() ? "pause at their next checkpoint" : "may resume",
          request.reason());
      parts.events().append("downloads.yield", parts.clock().instant(), new JsonObject().put("yield", request.yield())
          .put("reason", request.reason()));
    }
    message.reply(new YieldReply(request.yield()).toJson());
  }

  /**
   * Answers a read from a worker: the queue's lock can be held by a lane while it fsyncs, and the event loop (pings,
   * health) must never wait for that.
   */
  private void replyOffLoop(Message<Object> message, Callable<JsonObject> read) {
    vertx.executeBlocking(read, false).onSuccess(message::reply).onFailure(t -> message.fail(
        ErrorCode.INTERNAL_ERROR.code(), "the scraper could not read its queue: " + t.getMessage()));
  }

  /** Makes a change from a worker; a refusal is answered with its code, a failure to record it as STORAGE_ERROR. */
  private <T> void change(Message<Object> message, Callable<T> operation, Function<T, QueueOutcome> outcomeOf,
      Function<T, JsonObject> reply) {
    vertx.executeBlocking(operation).onSuccess(result -> {
      QueueOutcome outcome = outcomeOf.apply(result);
      if (outcome.accepted()) {
        message.reply(reply.apply(result));
        return;
      }
      ErrorCode code = switch (outcome.kind()) {
        case NOT_FOUND -> ErrorCode.NOT_FOUND;
        case UNKNOWN_SOURCE -> ErrorCode.UNKNOWN_SOURCE;
        default -> ErrorCode.ILLEGAL_TRANSITION;
      };
      message.fail(code.code(), outcome.refusal());
    }).onFailure(t -> storageFailure(message, t));
  }

  private static void storageFailure(Message<Object> message, Throwable t) {
    LOG.error("[QUEUE] request on {} failed: {}", message.address(), t.toString(), t);
    message.fail(ErrorCode.STORAGE_ERROR.code(), "the scraper could not record the change: " + t.getMessage());
  }

  /** A handler of the row's decoded request, which is a {@code type}. */
  private static <T> BiConsumer<Message<Object>, Object> typed(Class<T> type, BiConsumer<Message<Object>, T> handler) {
    return (message, request) -> handler.accept(message, type.cast(request));
  }

  private <T> void consume(String address, Function<Object, T> decoder, BiConsumer<Message<Object>, ? super T> handler) {
    consumers.add(vertx.eventBus().consumer(address, DecodingHandler.<T>of(decoder, handler::accept)));
  }
}
