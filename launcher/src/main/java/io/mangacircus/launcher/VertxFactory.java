package io.mangacircus.launcher;

import io.mangacircus.launcher.cluster.ClusterSetup;
import io.mangacircus.launcher.config.MangaCircusConfig;
import io.mangacircus.launcher.metrics.HttpMetricsFactory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds this process's Vert.x: Prometheus metrics always on, Netty's native transport where it loads (else NIO),
 * clustered over Hazelcast when asked.
 */
public final class VertxFactory {

  private static final Logger LOG = LoggerFactory.getLogger(VertxFactory.class);

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
        // The JVM's meters are bound by the launcher once its services started (metrics/JvmMetrics).
        .setJvmMetricsEnabled(false)
        .setRegistryName(registry)
        .setEnabled(true));
    NetworkTransport.Choice transport = NetworkTransport.choose(config.http().nativeTransport());
    if (!clustered) {
      Vertx vertx = builder(options, transport).build();
      logTransport(vertx, transport);
      return Future.succeededFuture(new ProcessVertx(vertx, registry));
    }
    options.setEventBusOptions(ClusterSetup.eventBus(config));
    return builder(options, transport).withClusterManager(ClusterSetup.clusterManager(config)).buildClustered()
        .onSuccess(vertx -> logTransport(vertx, transport))
        .map(vertx -> new ProcessVertx(vertx, registry));
  }

  private static VertxBuilder builder(VertxOptions options, NetworkTransport.Choice transport) {
    // vertx-micrometer's metrics, with the HTTP servers' request series kept rather than looked up per request.
    return Vertx.builder().with(options).withMetrics(new HttpMetricsFactory()).withTransport(transport.transport());
  }

  /** What Vert.x actually runs on (it falls back to NIO by itself when a transport fails to start). */
  private static void logTransport(Vertx vertx, NetworkTransport.Choice transport) {
    if (vertx.isNativeTransportEnabled()) {
      LOG.info("[HTTP] network transport: {} ({})", transport.transport().name(), transport.reason());
    } else if (transport.isNative()) {
      Throwable cause = vertx.unavailableNativeTransportCause();
      LOG.warn("[HTTP] network transport: nio (native {} did not start: {})", transport.transport().name(),
          cause == null ? "no reason given" : cause.toString());
    } else {
      LOG.info("[HTTP] network transport: nio ({})", transport.reason());
    }
  }
}
