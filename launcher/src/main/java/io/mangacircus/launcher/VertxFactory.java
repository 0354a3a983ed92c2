package io.mangacircus.launcher;

import io.mangacircus.launcher.cluster.ClusterSetup;
import io.mangacircus.launcher.config.MangaCircusConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import java.util.UUID;

/** Builds this process's Vert.x: Prometheus metrics always on, clustered over Hazelcast when asked. */
public final class VertxFactory {

  private VertxFactory() {
  }

  /** A Vert.x instance and the name of its metrics registry. */
  public record ProcessVertx(Vertx vertx, String metricsRegistryName) {
  }

  /** Creates Vert.x; clustered start-up joins the configured members first. */
  public static Future<ProcessVertx> create(MangaCircusConfig config, boolean clustered) {
    String registry = "mangacircus-" + UUID.randomUUID();
    VertxOptions options = new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions()
        .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true))
        .setJvmMetricsEnabled(true)
        .setRegistryName(registry)
        .setEnabled(true));
    if (!clustered) {
      return Future.succeededFuture(new ProcessVertx(Vertx.builder().with(options).build(), registry));
    }
    options.setEventBusOptions(ClusterSetup.eventBus(config));
    return Vertx.builder().with(options).withClusterManager(ClusterSetup.clusterManager(config)).buildClustered()
        .map(vertx -> new ProcessVertx(vertx, registry));
  }
}
