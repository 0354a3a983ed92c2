package io.mangacircus.launcher.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.AddTitleRequest;
import io.mangacircus.contracts.Addresses;
import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.JobRequest;
import io.mangacircus.contracts.PingReply;
import io.mangacircus.contracts.PingRequest;
import io.mangacircus.contracts.ScraperRequests;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.LauncherHarness;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** Bad messages to the real services get a coded failure reply at once and change nothing. */
class MalformedMessageIT {

  @TempDir
  Path data;

  private static ReplyException failureOf(Future<Message<Object>> request) throws Exception {
    try {
      request.toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return (ReplyException) e.getCause();
    }
    throw new AssertionError("the request was answered instead of refused");
  }

  @ParameterizedTest
  @ValueSource(strings = {Addresses.READER_PING, Addresses.SCRAPER_PING})
  void malformedAndUnknownVersionMessagesAreRefusedWithCodes(String address) throws Exception {
    try (LauncherHarness h = new LauncherHarness(data, "{}").startStandard(Mode.ALL)) {
      DeliveryOptions options = new DeliveryOptions().setSendTimeout(2000);
      var bus = h.vertx().eventBus();

      ReplyException notAnObject = failureOf(bus.request(address, "ping", options));
      ReplyException missingField = failureOf(bus.request(address, new JsonObject().put("v", 1), options));
      ReplyException futureVersion = failureOf(bus.request(address,
          new JsonObject().put("v", 99).put("from", "test"), options));

      assertThat(notAnObject.failureType()).isEqualTo(ReplyFailure.RECIPIENT_FAILURE);
      assertThat(notAnObject.failureCode()).isEqualTo(ErrorCode.MALFORMED_MESSAGE.code());
      assertThat(missingField.failureCode()).isEqualTo(ErrorCode.MALFORMED_MESSAGE.code());
      assertThat(missingField.getMessage()).contains("'from'");
      assertThat(futureVersion.failureCode()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION.code());

      Message<Object> stillAlive = LauncherHarness.await(bus.request(address, new PingRequest("test").toJson(), options));
      assertThat(PingReply.fromJson(stillAlive.body()).service()).isEqualTo(address.split("\\.")[1]);
    }
  }

  @Test
  void anAddTitleRequestThatBypassesHttpWithControlCharactersIsRefusedAndQueuesNothing() throws Exception {
    String config = new JsonObject().put("scraper", new JsonObject().put("sources", new JsonObject().put("demo",
        new JsonObject().put("type", "demo").put("baseUrl", "http://127.0.0.1:9")))).encode();
    try (LauncherHarness h = new LauncherHarness(data, config).startStandard(Mode.ALL)) {
      DeliveryOptions options = new DeliveryOptions().setSendTimeout(2000);
      var bus = h.vertx().eventBus();

      // Written as raw bodies: the records refuse such values when Java code builds them, a sender elsewhere need not.
      ReplyException refused = failureOf(bus.request(Addresses.SCRAPER_JOBS_ADD, new JsonObject()
          .put("v", AddTitleRequest.VERSION).put("source", "demo")
          .put("title", "a\u0000b\u001b[31mred\nINJECTED LOG LINE").put("autoConfirm", true), options));
      ReplyException bidiJob = failureOf(bus.request(Addresses.SCRAPER_JOBS_PAUSE,
          new JsonObject().put("v", JobRequest.VERSION).put("jobId", "j-1\u202e"), options));

      assertThat(refused.failureCode()).isEqualTo(ErrorCode.MALFORMED_MESSAGE.code());
      assertThat(refused.getMessage()).isEqualTo("AddTitleRequest: field 'title' contains a control character (U+0000)");
      assertThat(bidiJob.failureCode()).isEqualTo(ErrorCode.MALFORMED_MESSAGE.code());
      assertThat(bidiJob.getMessage()).contains("'jobId'", "U+202E");
      JsonObject jobs = (JsonObject) LauncherHarness.await(bus.request(Addresses.SCRAPER_JOBS_LIST,
          ScraperRequests.list(), options)).body();
      assertThat(jobs.getJsonArray("jobs")).isEmpty();
    }
  }
}
