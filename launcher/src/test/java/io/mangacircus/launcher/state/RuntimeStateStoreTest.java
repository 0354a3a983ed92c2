package io.mangacircus.launcher.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.contracts.ServiceStatus;
import io.mangacircus.launcher.state.RuntimeStateStore.RuntimeFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuntimeStateStoreTest {

  @TempDir
  Path dir;

  private final RuntimeStateStore store = new RuntimeStateStore();

  @Test
  void savedStateReadsBackTheSame() throws Exception {
    Path file = dir.resolve("scraper/runtime.json");
    ServiceRuntime runtime = new ServiceRuntime(ServiceStatus.REPAIR_REQUIRED,
        List.of(Instant.parse("2026-11-29T10:00:00Z"), Instant.parse("2026-11-29T10:10:00Z")),
        Instant.parse("2026-11-29T10:10:00Z"), 2, "crash budget spent");
    ProcessInfo process = new ProcessInfo(42, "scraper", "http://127.0.0.1:8081/health/ready",
        Instant.parse("2026-11-29T09:00:00Z"));

    store.save(file, new RuntimeFile(Map.of("scraper", runtime), process));

    RuntimeFile loaded = store.load(file).orElseThrow();
    assertThat(loaded.services()).containsEntry("scraper", runtime);
    assertThat(loaded.process()).isEqualTo(process);
    assertThat(Files.readString(file)).contains("\"status\" : \"repair-required\"", "\"schema\" : 1");
  }

  @Test
  void aMissingFileIsAFreshStart() {
    assertThat(store.load(dir.resolve("nothing.json"))).isEmpty();
  }

  @Test
  void writesLeaveNoTemporaryFilesBehind() throws Exception {
    Path file = dir.resolve("runtime-reader.json");
    for (int i = 0; i < 3; i++) {
      store.save(file, new RuntimeFile(Map.of("reader", ServiceRuntime.fresh()), null));
    }

    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("runtime-reader.json");
    }
  }

  @Test
  void aFileThatFailsToParseIsReportedByNameAndLeftUntouched() throws Exception {
    Path file = dir.resolve("runtime-reader.json");
    String garbage = "{\"schema\": 1, \"services\": {\"reader\": {\"status\": \"up\", ";
    Files.writeString(file, garbage);

    assertThatThrownBy(() -> store.load(file))
        .isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("not valid JSON");
    assertThat(Files.readString(file)).isEqualTo(garbage);
  }

  @Test
  void aFileFromAnUnknownSchemaIsRefused() throws Exception {
    Path file = dir.resolve("runtime-reader.json");
    Files.writeString(file, "{\"schema\": 7, \"services\": {}}");

    assertThatThrownBy(() -> store.load(file)).hasMessageContaining("schema 7");
  }

  @Test
  void badTimestampsAndStatusesAreReportedWithTheirPlace() throws Exception {
    Path file = dir.resolve("runtime.json");
    Files.writeString(file, "{\"schema\":1,\"services\":{\"scraper\":{\"status\":\"up\",\"failures\":[\"yesterday\"],"
        + "\"restarts\":0}}}");
    assertThatThrownBy(() -> store.load(file)).hasMessageContaining("services.scraper").hasMessageContaining("yesterday");

    Files.writeString(file, "{\"schema\":1,\"services\":{\"scraper\":{\"status\":\"dancing\",\"failures\":[],"
        + "\"restarts\":0}}}");
    assertThatThrownBy(() -> store.load(file)).hasMessageContaining("dancing");
  }
}
