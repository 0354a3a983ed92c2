package io.mangacircus.launcher.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.HttpProbe.Answer;
import io.mangacircus.launcher.testing.LauncherHarness;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The standard launcher in {@code all} mode: health answers and the metrics endpoint's guard. */
class HealthAndMetricsIT {

  @TempDir
  Path data;

  @Test
  void readinessReportsReaderScraperAndSupervisorUp() {
    try (LauncherHarness h = new LauncherHarness(data, "{}").startStandard(Mode.ALL)) {
      Answer ready = HttpProbe.get(h.port(), "/health/ready");

      assertThat(ready.status()).isEqualTo(200);
      assertThat(ready.check("reader")).isEqualTo("UP");
      assertThat(ready.check("scraper")).isEqualTo("UP");
      assertThat(ready.check("supervisor")).isEqualTo("UP");
      assertThat(HttpProbe.get(h.port(), "/health/live").status()).isEqualTo(200);
    }
  }

  @Test
  void metricsAreNotServedWithoutAToken() {
    try (LauncherHarness h = new LauncherHarness(data, "{}").startStandard(Mode.ALL)) {
      assertThat(HttpProbe.get(h.port(), "/metrics").status()).isEqualTo(404);
      assertThat(HttpProbe.get(h.port(), "/metrics", "anything").status()).isEqualTo(404);
    }
  }

  @Test
  void metricsNeedTheBearerTokenAndIncludeSupervisionGauges() {
    try (LauncherHarness h = new LauncherHarness(data, "{\"metrics\": {\"token\": \"s3cret-metrics-012345678\"}}")
        .startStandard(Mode.ALL)) {
      assertThat(HttpProbe.get(h.port(), "/metrics").status()).isEqualTo(401);
      assertThat(HttpProbe.get(h.port(), "/metrics", "wrong-token").status()).isEqualTo(401);

      Answer metrics = HttpProbe.get(h.port(), "/metrics", "s3cret-metrics-012345678");
      assertThat(metrics.status()).isEqualTo(200);
      assertThat(metrics.body())
          .contains("mc_service_up{service=\"reader\"} 1.0", "mc_service_up{service=\"scraper\"} 1.0")
          .contains("mc_supervisor_restarts_total{service=\"scraper\"} 0.0")
          .contains("mc_supervisor_parked{service=\"reader\"} 0.0")
          .contains("vertx_http_server_requests_total", "jvm_memory_used_bytes");
    }
  }

  @Test
  void apiRoutesAnswerJsonAndNeedASessionWhileHealthDoesNot() {
    try (LauncherHarness h = new LauncherHarness(data, "{}").startStandard(Mode.ALL)) {
      Answer answer = HttpProbe.get(h.port(), "/api/does-not-exist");

      assertThat(answer.status()).isEqualTo(401);
      assertThat(answer.json().getString("error")).isEqualTo("unauthorized");
      assertThat(HttpProbe.get(h.port(), "/health/live").status()).isEqualTo(200);
    }
  }
}
