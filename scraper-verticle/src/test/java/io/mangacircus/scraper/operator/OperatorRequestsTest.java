package io.mangacircus.scraper.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.AddTitleRequest;
import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.JobRequest;
import io.mangacircus.contracts.JobsListRequest;
import io.mangacircus.contracts.LanePacingRequest;
import io.mangacircus.contracts.LaneRequest;
import io.mangacircus.contracts.OperatorOperation;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.contracts.ScraperRequests;
import io.mangacircus.contracts.YieldRequest;
import io.mangacircus.contracts.scraper.IncidentsReply;
import io.mangacircus.contracts.scraper.JobAddedReply;
import io.mangacircus.contracts.scraper.JobReply;
import io.mangacircus.contracts.scraper.JobsReply;
import io.mangacircus.contracts.scraper.LaneReply;
import io.mangacircus.contracts.scraper.LanesReply;
import io.mangacircus.contracts.scraper.YieldReply;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.discovery.DiscoveryService;
import io.mangacircus.scraper.follow.Follows;
import io.mangacircus.scraper.search.TitleSearch;
import io.mangacircus.scraper.failure.Failure;
import io.mangacircus.scraper.failure.FailureAction;
import io.mangacircus.scraper.failure.FailureKind;
import io.mangacircus.scraper.lane.ProgressBoard;
import io.mangacircus.scraper.queue.EventLog;
import io.mangacircus.scraper.queue.JobQueue;
import io.mangacircus.scraper.queue.QueueListener;
import io.mangacircus.scraper.queue.QueueStore;
import io.mangacircus.scraper.source.Circuits;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scraper's event-bus requests on a real event bus, queue and discovery service in a temporary folder: every row
 * of the operations table is answered, replies decode as the contract's records, refusals carry their codes, and
 * reads are answered while a lane holds the queue.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 1, timeUnit = TimeUnit.MINUTES)
class OperatorRequestsTest {

  private static final DeliveryOptions SHORT = new DeliveryOptions().setSendTimeout(10_000);

  @TempDir
  Path data;

  private JobQueue queue;
  private Follows follows;
  private EventLog events;
  private Circuits circuits;
  private OperatorRequests requests;

  @BeforeEach
  void start(Vertx vertx) {
    Map<String, SourceConfig> sources = new LinkedHashMap<>();
    sources.put("demo", new SourceConfig("demo", "http://127.0.0.1:1", 100L, 500L));
    sources.put("other", new SourceConfig("html", "http://127.0.0.1:2", 200L, 700L));
    events = new EventLog(data.resolve("scraper/events.log"));
    queue = new JobQueue(new QueueStore(data.resolve("scraper/queue.json")), events, InstantSource.system(),
        sources.keySet(), QueueListener.NONE);
    circuits = new Circuits(vertx, sources.keySet(), new ScraperConfig.Failures(300, 2, 100, 3, 300, 2, 60));
    follows = Follows.open(data.resolve("scraper/follows.json"), InstantSource.system(), List::of);
    DiscoveryService discovery = new DiscoveryService(vertx, queue, follows, events, data,
        new ScraperConfig.Discovery(false, "03:00"), sources.keySet(), InstantSource.system(), ZoneId.of("UTC"));
    requests = new OperatorRequests(vertx);
    requests.answerPings(new PingReply("scraper", "instance-1", 42));
    Map<String, String> types = new LinkedHashMap<>();
    sources.forEach((name, source) -> types.put(name, source.type()));
    requests.register(new OperatorRequests.Parts(queue, new ProgressBoard(p -> { }), sources, circuits,
        name -> null, false, events, InstantSource.system(), discovery,
        new io.mangacircus.scraper.publish.LibraryFolders(data.resolve("library")), follows,
        new TitleSearch(vertx, new TitleSearch.Parts(types, name -> null, circuits::state,
            name -> java.time.Duration.ZERO), InstantSource.system())));
  }

  @AfterEach
  void stop() throws Exception {
    requests.close();
    circuits.close();
    events.close();
  }

  @Test
  void everyOperationOfTheTableAndThePingAndTheYieldAreAnswered(Vertx vertx, VertxTestContext context) {
    List<String> addresses = new ArrayList<>();
    for (OperatorOperation operation : OperatorOperation.values()) {
      addresses.add(operation.address());
    }
    addresses.add(Addresses.SCRAPER_PING);
    addresses.add(Addresses.SCRAPER_DOWNLOADS_YIELD);
    // A body without a version: a registered consumer answers MALFORMED_MESSAGE; a missing one would be NO_HANDLERS.
    List<Future<Integer>> codes = addresses.stream().map(address -> vertx.eventBus()
        .request(address, new JsonObject(), SHORT).map(reply -> 0)
        .recover(t -> Future.succeededFuture(((ReplyException) t).failureType() == ReplyFailure.RECIPIENT_FAILURE
            ? ((ReplyException) t).failureCode() : -1))).toList();
    Future.all(codes).onComplete(context.succeeding(all -> context.verify(() -> {
      for (int i = 0; i < addresses.size(); i++) {
        assertThat(codes.get(i).result()).as(addresses.get(i)).isEqualTo(ErrorCode.MALFORMED_MESSAGE.code());
      }
      context.completeNow();
    })));
  }

  @Test
  void jobRequestsAnswerTheJobOrTheRefusalsCode(Vertx vertx, VertxTestContext context) {
    String pending = queue.add("other", "t-2", false).job().id();
    request(vertx, Addresses.SCRAPER_JOBS_ADD, new AddTitleRequest("demo", " t-1 ", null).toJson())
        .compose(first -> {
          JobAddedReply added = JobAddedReply.fromJson(first.body());
          context.verify(() -> {
            assertThat(added.created()).isTrue();
            assertThat(added.job().titleId()).isEqualTo("t-1");
            assertThat(added.job().state()).isEqualTo("pending");
          });
          return request(vertx, Addresses.SCRAPER_JOBS_ADD, new AddTitleRequest("demo", "t-1", null).toJson())
              .compose(again -> {
                context.verify(() -> {
                  JobAddedReply outstanding = JobAddedReply.fromJson(again.body());
                  assertThat(outstanding.created()).isFalse();
                  assertThat(outstanding.job().id()).isEqualTo(added.job().id());
                });
                return request(vertx, Addresses.SCRAPER_JOBS_PAUSE, new JobRequest(added.job().id()).toJson());
              })
              .compose(paused -> {
                context.verify(() -> assertThat(JobReply.fromJson(paused.body()).job().state()).isEqualTo("paused"));
                return request(vertx, Addresses.SCRAPER_JOBS_LIST, ScraperRequests.list());
              })
              .compose(list -> {
                context.verify(() -> assertThat(JobsReply.fromJson(list.body()).jobs())
                    .extracting(job -> job.titleId() + ":" + job.state() + ":" + job.reason())
                    .containsExactly("t-2:pending:null", "t-1:paused:paused by the operator"));
                return Future.all(
                    failureCode(vertx, Addresses.SCRAPER_JOBS_CONFIRM, new JobRequest("no-such-job").toJson()),
                    failureCode(vertx, Addresses.SCRAPER_JOBS_ADD, new AddTitleRequest("nowhere", "t", null).toJson()),
                    failureCode(vertx, Addresses.SCRAPER_JOBS_RETRY, new JobRequest(pending).toJson()));
              });
        })
        .onComplete(context.succeeding(codes -> context.verify(() -> {
          assertThat(codes.<Integer>resultAt(0)).isEqualTo(ErrorCode.NOT_FOUND.code());
          assertThat(codes.<Integer>resultAt(1)).isEqualTo(ErrorCode.UNKNOWN_SOURCE.code());
          assertThat(codes.<Integer>resultAt(2)).isEqualTo(ErrorCode.ILLEGAL_TRANSITION.code());
          context.completeNow();
        })));
  }

  @Test
  void laneRequestsAnswerTheLaneWithoutCoverageAndTheListWithIt(Vertx vertx, VertxTestContext context) {
    request(vertx, Addresses.SCRAPER_LANES_PAUSE, new LaneRequest("other").toJson())
        .compose(paused -> {
          context.verify(() -> {
            LaneReply reply = LaneReply.fromJson(paused.body());
            assertThat(reply.lane().paused()).isTrue();
            assertThat(reply.lane().pauseReason()).isEqualTo("paused by the operator");
            assertThat(reply.lane().coverage()).isNull();
          });
          return request(vertx, Addresses.SCRAPER_LANES_PACING, new LanePacingRequest("other", 900L, null).toJson());
        })
        .compose(paced -> {
          context.verify(() -> {
            LaneReply reply = LaneReply.fromJson(paced.body());
            assertThat(reply.lane().pageDelayMs()).isEqualTo(900);
            assertThat(reply.lane().chapterDelayMs()).isEqualTo(700);
          });
          return request(vertx, Addresses.SCRAPER_LANES_LIST, ScraperRequests.list());
        })
        .compose(list -> {
          context.verify(() -> {
            LanesReply lanes = LanesReply.fromJson(list.body());
            assertThat(lanes.lanes()).extracting(lane -> lane.source()).containsExactly("demo", "other");
            assertThat(lanes.lanes()).allSatisfy(lane -> {
              assertThat(lane.circuit()).isEqualTo("closed");
              assertThat(lane.coverage()).isNotNull();
            });
            assertThat(lanes.lanes().get(0).type()).isEqualTo("demo");
            assertThat(lanes.yieldReason()).isNull();
          });
          return failureCode(vertx, Addresses.SCRAPER_LANES_RESUME, new LaneRequest("nowhere").toJson());
        })
        .onComplete(context.succeeding(code -> context.verify(() -> {
          assertThat(code).isEqualTo(ErrorCode.UNKNOWN_SOURCE.code());
          context.completeNow();
        })));
  }

  @Test
  void incidentsAreListedNewestFirstWithTheOpenCount(Vertx vertx, VertxTestContext context) {
    queue.incidents().record(new Failure(FailureKind.NETWORK, 503, "HTTP 503"), "demo", null, FailureAction.RETRY_LATER);
    queue.incidents().record(new Failure(FailureKind.PARSER, null, "no pages"), "other", null, FailureAction.PAUSE_LANE);

    request(vertx, Addresses.SCRAPER_INCIDENTS_LIST, ScraperRequests.list())
        .onComplete(context.succeeding(reply -> context.verify(() -> {
          IncidentsReply incidents = IncidentsReply.fromJson(reply.body());
          assertThat(incidents.open()).isEqualTo(2);
          assertThat(incidents.incidents()).extracting(i -> i.kind()).containsExactly("parser", "network");
          assertThat(incidents.incidents().get(1).httpStatus()).isEqualTo(503);
          context.completeNow();
        })));
  }

  @Test
  void theMemoryYieldIsAnsweredRecordedAndShownOnTheLanes(Vertx vertx, VertxTestContext context) {
    request(vertx, Addresses.SCRAPER_DOWNLOADS_YIELD, new YieldRequest(true, "memory 93% used").toJson())
        .compose(reply -> {
          context.verify(() -> assertThat(YieldReply.fromJson(reply.body()).yielding()).isTrue());
          return request(vertx, Addresses.SCRAPER_LANES_LIST, ScraperRequests.list());
        })
        .onComplete(context.succeeding(list -> context.verify(() -> {
          assertThat(LanesReply.fromJson(list.body()).yieldReason()).isEqualTo("memory 93% used");
          assertThat(Files.readString(data.resolve("scraper/events.log")))
              .contains("\"type\":\"downloads.yield\"").contains("memory 93% used");
          context.completeNow();
        })));
  }

  @Test
  void discoveryRequestsReachTheDiscoveryService(Vertx vertx, VertxTestContext context) {
    request(vertx, Addresses.SCRAPER_DISCOVERY_SET, new JsonObject().put("v", 1).put("enabled", true)
        .put("time", "04:30"))
        .compose(set -> {
          context.verify(() -> {
            JsonObject status = (JsonObject) set.body();
            assertThat(status.getBoolean("enabled")).isTrue();
            assertThat(status.getString("time")).isEqualTo("04:30");
            assertThat(status.getString("nextRunAt")).isNotNull();
            assertThat(new JsonObject(Files.readString(data.resolve("scraper/discovery.json"))).getString("time"))
                .isEqualTo("04:30");
          });
          return request(vertx, Addresses.SCRAPER_DISCOVERY_RUN, ScraperRequests.list());
        })
        .compose(run -> {
          context.verify(() -> assertThat(((JsonObject) run.body()).getJsonObject("run").getInteger("titles"))
              .isZero());
          return request(vertx, Addresses.SCRAPER_DISCOVERY_GET, ScraperRequests.list());
        })
        .onComplete(context.succeeding(get -> context.verify(() -> {
          assertThat(((JsonObject) get.body()).getJsonObject("lastRun")).isNotNull();
          context.completeNow();
        })));
  }

  @Test
  void aChangeTheQueueCannotRecordIsAStorageError(Vertx vertx, VertxTestContext context) throws Exception {
    String jobId = queue.add("demo", "t-1", false).job().id();
    // The queue's folder becomes a file: queue.json can no longer be written.
    Path folder = data.resolve("scraper");
    try (var files = Files.list(folder)) {
      for (Path file : files.toList()) {
        Files.delete(file);
      }
    }
    Files.delete(folder);
    Files.writeString(folder, "not a folder");

    failureCode(vertx, Addresses.SCRAPER_JOBS_PAUSE, new JobRequest(jobId).toJson())
        .onComplete(context.succeeding(code -> context.verify(() -> {
          assertThat(code).isEqualTo(ErrorCode.STORAGE_ERROR.code());
          context.completeNow();
        })));
  }

  @Test
  void listsAreAnsweredFromAWorkerWhileALaneHoldsTheQueue(Vertx vertx, VertxTestContext context) throws Exception {
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread lane = new Thread(() -> {
      synchronized (queue) {
        held.countDown();
        try {
          // Bounded, so that a handler that waits on the event loop makes this test fail instead of hang.
          release.await(15, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }, "lane-holding-the-queue");
    lane.start();
    assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();

    Future<Message<Object>> list = request(vertx, Addresses.SCRAPER_JOBS_LIST, ScraperRequests.list());
    request(vertx, Addresses.SCRAPER_PING, new PingRequest("test").toJson())
        .compose(ping -> {
          context.verify(() -> {
            assertThat(PingReply.fromJson(ping.body()).instance()).isEqualTo("instance-1");
            assertThat(list.isComplete()).as("the list waits for the queue, the ping does not").isFalse();
          });
          release.countDown();
          return list;
        })
        .onComplete(context.succeeding(reply -> context.verify(() -> {
          assertThat(JobsReply.fromJson(reply.body()).jobs()).isEmpty();
          context.completeNow();
        })));
  }

  @Test
  void theJobsListAnswersOnePageOfAStateWithItsTotalAndEveryJobWithoutPaging(Vertx vertx, VertxTestContext context) {
    for (int i = 0; i < 25; i++) {
      String id = queue.add("demo", "t-" + i, false).job().id();
      if (i % 5 == 0) {
        queue.pause(id);
      }
    }
    Future<Message<Object>> page = request(vertx, Addresses.SCRAPER_JOBS_LIST, new JobsListRequest(null, 3, 10).toJson());
    Future<Message<Object>> paused = request(vertx, Addresses.SCRAPER_JOBS_LIST,
        new JobsListRequest("paused", 1, 2).toJson());
    Future<Message<Object>> every = request(vertx, Addresses.SCRAPER_JOBS_LIST, ScraperRequests.list());
    Future<Integer> tooBig = failureCode(vertx, Addresses.SCRAPER_JOBS_LIST,
        new JsonObject().put("v", 1).put("page", 1).put("size", JobsListRequest.MAX_SIZE + 1));
    Future<Integer> badState = failureCode(vertx, Addresses.SCRAPER_JOBS_LIST,
        new JsonObject().put("v", 1).put("state", "sleeping"));
    Future.all(page, paused, every, tooBig, badState).onComplete(context.succeeding(answered -> context.verify(() -> {
      JobsReply third = JobsReply.fromJson(page.result().body());
      assertThat(third.jobs()).extracting(job -> job.titleId()).containsExactly("t-20", "t-21", "t-22", "t-23", "t-24");
      assertThat(third.total()).isEqualTo(25);
      assertThat(third.page()).isEqualTo(3);
      assertThat(third.size()).isEqualTo(10);
      assertThat(third.counts()).containsEntry("paused", 5).containsEntry("pending", 20);
      JobsReply firstPaused = JobsReply.fromJson(paused.result().body());
      assertThat(firstPaused.jobs()).extracting(job -> job.titleId()).containsExactly("t-0", "t-5");
      assertThat(firstPaused.total()).isEqualTo(5);
      JobsReply all = JobsReply.fromJson(every.result().body());
      assertThat(all.jobs()).hasSize(25);
      assertThat(all.total()).isEqualTo(25);
      assertThat(all.page()).isNull();
      assertThat(tooBig.result()).isEqualTo(ErrorCode.MALFORMED_MESSAGE.code());
      assertThat(badState.result()).isEqualTo(ErrorCode.MALFORMED_MESSAGE.code());
      context.completeNow();
    })));
  }

  private static Future<Message<Object>> request(Vertx vertx, String address, JsonObject body) {
    return vertx.eventBus().request(address, body, SHORT);
  }

  private static Future<Integer> failureCode(Vertx vertx, String address, JsonObject body) {
    return vertx.eventBus().request(address, body, SHORT).<Integer>map(reply -> {
      throw new AssertionError(address + " answered " + reply.body() + " instead of failing");
    }).recover(t -> t instanceof ReplyException e && e.failureType() == ReplyFailure.RECIPIENT_FAILURE
        ? Future.succeededFuture(e.failureCode()) : Future.failedFuture(t));
  }

  @Test
  void dismissingAFailedJobRemovesItAndItsStagingButNeverAPublishedChapterAndAWrongStateIsRefused(Vertx vertx,
      VertxTestContext context) throws Exception {
    String job = queue.add("demo", "t-3", true).job().id();
    queue.claim("demo", "lane-a", java.time.Duration.ofMinutes(1)).orElseThrow();
    queue.inspected(job, "lane-a", "Title 3", List.of(io.mangacircus.scraper.queue.ChapterEntry.planned("c1", "1", ""),
        io.mangacircus.scraper.queue.ChapterEntry.planned("c2", "2", "")));
    queue.claim("demo", "lane-a", java.time.Duration.ofMinutes(1)).orElseThrow();
    String fingerprint = "c".repeat(64);
    queue.startChapter(job, "c1", 2, fingerprint);
    queue.pause(job);
    Path staging = Files.createDirectories(data.resolve("library/.staging-mcscraper-resume-" + fingerprint));
    Files.writeString(staging.resolve("pages.log"), "page 1");
    Path published = Files.createDirectories(data.resolve("library/demo-t-3/chapter-0002"));
    Files.writeString(published.resolve("chapter.json"), "{}");
    String pending = queue.add("other", "t-4", false).job().id();

    Future.all(failureCode(vertx, Addresses.SCRAPER_JOBS_DISMISS, new JobRequest(pending).toJson()),
            failureCode(vertx, Addresses.SCRAPER_JOBS_DELETE, new JobRequest(job).toJson()),
            failureCode(vertx, Addresses.SCRAPER_JOBS_DELETE, new JobRequest("no-such-job").toJson()))
        .compose(codes -> {
          context.verify(() -> {
            assertThat(codes.<Integer>resultAt(0)).as("a pending job is not dismissed")
                .isEqualTo(ErrorCode.ILLEGAL_TRANSITION.code());
            assertThat(codes.<Integer>resultAt(1)).as("a paused job is not deleted")
                .isEqualTo(ErrorCode.ILLEGAL_TRANSITION.code());
            assertThat(codes.<Integer>resultAt(2)).isEqualTo(ErrorCode.NOT_FOUND.code());
          });
          return request(vertx, Addresses.SCRAPER_JOBS_DISMISS, new JobRequest(job).toJson());
        })
        .onComplete(context.succeeding(reply -> context.verify(() -> {
          JobReply removed = JobReply.fromJson(reply.body());
          assertThat(removed.job().id()).isEqualTo(job);
          assertThat(removed.job().state()).isEqualTo("paused");
          assertThat(queue.jobs()).extracting(j -> j.id()).containsExactly(pending);
          assertThat(staging).doesNotExist();
          assertThat(published.resolve("chapter.json")).as("published chapters are never touched").hasContent("{}");
          context.completeNow();
        })));
  }
}
