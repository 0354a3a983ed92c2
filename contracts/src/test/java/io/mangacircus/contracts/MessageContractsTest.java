package io.mangacircus.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessageContractsTest {

  @Test
  void pingRequestSurvivesARoundTripWithItsVersion() {
    JsonObject json = new PingRequest("launcher").toJson();

    assertThat(json.getInteger("v")).isEqualTo(1);
    assertThat(PingRequest.fromJson(json)).isEqualTo(new PingRequest("launcher"));
  }

  @Test
  void bodyThatIsNotAnObjectIsMalformed() {
    assertThatThrownBy(() -> PingRequest.fromJson("ping"))
        .isInstanceOfSatisfying(InvalidMessageException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_MESSAGE))
        .hasMessageContaining("JSON object");
    assertThatThrownBy(() -> PingRequest.fromJson(null))
        .isInstanceOfSatisfying(InvalidMessageException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_MESSAGE));
  }

  @Test
  void missingOrMistypedFieldIsMalformedAndNamesTheField() {
    assertThatThrownBy(() -> PingRequest.fromJson(new JsonObject().put("v", 1)))
        .isInstanceOfSatisfying(InvalidMessageException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_MESSAGE))
        .hasMessageContaining("'from'");
    assertThatThrownBy(() -> PingRequest.fromJson(new JsonObject().put("v", 1).put("from", 42)))
        .hasMessageContaining("'from'");
    assertThatThrownBy(() -> PingRequest.fromJson(new JsonObject().put("from", "x")))
        .hasMessageContaining("'v'");
  }

  @Test
  void unknownVersionIsRefusedWithItsOwnCode() {
    assertThatThrownBy(() -> PingRequest.fromJson(new JsonObject().put("v", 2).put("from", "x")))
        .isInstanceOfSatisfying(InvalidMessageException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION))
        .hasMessageContaining("version 2");
  }

  @Test
  void launcherStatusSurvivesARoundTrip() {
    LauncherStatus status = new LauncherStatus("all@host:1", List.of(
        new ServiceState("reader", ServiceStatus.UP, 0, 0, null, null),
        new ServiceState("scraper", ServiceStatus.REPAIR_REQUIRED, 3, 2, "2026-11-29T10:00:00Z", "crash budget spent")));

    assertThat(LauncherStatus.fromJson(status.toJson())).isEqualTo(status);
    assertThat(status.toJson().getJsonArray("services").getJsonObject(1).getString("status"))
        .isEqualTo("repair-required");
  }

  @Test
  void shutdownRequestAndReplySurviveARoundTripAndNeedTheirFields() {
    assertThat(ShutdownRequest.fromJson(new ShutdownRequest("'admin' over HTTP").toJson()))
        .isEqualTo(new ShutdownRequest("'admin' over HTTP"));
    assertThat(ShutdownReply.fromJson(new ShutdownReply(true, "scraper@host:7").toJson()))
        .isEqualTo(new ShutdownReply(true, "scraper@host:7"));
    assertThatThrownBy(() -> ShutdownRequest.fromJson(new JsonObject().put("v", 1)))
        .hasMessageContaining("'requestedBy'");
    assertThatThrownBy(() -> ShutdownReply.fromJson(new JsonObject().put("v", 1).put("node", "n")))
        .hasMessageContaining("'stopping'");
  }

  @Test
  void launcherStatusWithAnUnknownServiceStatusIsMalformed() {
    JsonObject json = new JsonObject().put("v", 1).put("node", "n").put("services", new JsonArray()
        .add(new JsonObject().put("service", "reader").put("status", "exploded").put("failuresInWindow", 0)
            .put("restarts", 0)));

    assertThatThrownBy(() -> LauncherStatus.fromJson(json)).hasMessageContaining("exploded");
  }

  @Test
  void errorCodesAreUnique() {
    assertThat(Arrays.stream(ErrorCode.values()).map(ErrorCode::code)).doesNotHaveDuplicates();
    assertThat(ErrorCode.ofCode(4001)).contains(ErrorCode.MALFORMED_MESSAGE);
    assertThat(ErrorCode.ofCode(1)).isEmpty();
  }

  @Test
  void everyAddressIsDottedLowerCaseAndOwned() throws IllegalAccessException {
    for (var field : Addresses.class.getFields()) {
      String address = (String) field.get(null);
      assertThat(address).matches("mc\\.(reader|scraper|launcher|library)(\\.[a-z]+)+");
    }
    assertThat(Addresses.pingOf("scraper")).isEqualTo(Addresses.SCRAPER_PING);
  }

  @Test
  void aBlockedServiceAndTheLaunchersMemorySourceSurviveARoundTrip() {
    LauncherStatus status = new LauncherStatus("scraper@host:2", List.of(new ServiceState("scraper",
        ServiceStatus.BLOCKED, 0, 0, null, "corrupt state file data/scraper/queue.json: is not valid JSON")),
        "cgroup v2 limit 512 MiB: 43% used");

    assertThat(status.toJson().getJsonArray("services").getJsonObject(0).getString("status")).isEqualTo("blocked");
    assertThat(LauncherStatus.fromJson(status.toJson())).isEqualTo(status);
  }

  @Test
  void serviceStartRequestSurvivesARoundTripAndNamesAMissingService() {
    ServiceStartRequest request = new ServiceStartRequest("scraper", "admin alice");

    assertThat(ServiceStartRequest.fromJson(request.toJson())).isEqualTo(request);
    assertThat(Addresses.serviceStartOf("scraper")).isEqualTo(Addresses.SCRAPER_START);
    assertThat(Addresses.serviceStartOf("reader")).isEqualTo(Addresses.READER_START);
    assertThat(Addresses.serviceStartOf("reader@a:1", "reader")).isEqualTo("mc.launcher.reader.start.reader@a:1")
        .isNotEqualTo(Addresses.serviceStartOf("reader@b:2", "reader"));
    assertThatThrownBy(() -> ServiceStartRequest.fromJson(new JsonObject().put("v", 1).put("from", "x")))
        .hasMessageContaining("'service'");
  }

  @Test
  void aCorruptStateFileIsFoundAnywhereInACauseChainAndGivesTheBlockedReason() {
    CorruptStateFileException corrupt = new CorruptStateFileException(java.nio.file.Path.of("data/catalog.json"),
        "is not a valid catalog: Unexpected end-of-input");
    RuntimeException wrapped = new RuntimeException("deploy failed", new IllegalStateException("open", corrupt));
    RuntimeException suppressed = new RuntimeException("outer");
    suppressed.addSuppressed(corrupt);

    assertThat(CorruptStateFileException.in(wrapped)).contains(corrupt);
    assertThat(CorruptStateFileException.in(suppressed)).contains(corrupt);
    assertThat(CorruptStateFileException.in(new RuntimeException("other"))).isEmpty();
    assertThat(corrupt.blockedReason())
        .isEqualTo("corrupt state file data/catalog.json: is not a valid catalog: Unexpected end-of-input");
  }
}
