package io.mangacircus.launcher.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.VertxOptions;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.metrics.MetricsOptions;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.core.spi.metrics.ClientMetrics;
import io.vertx.core.spi.metrics.DatagramSocketMetrics;
import io.vertx.core.spi.metrics.EventBusMetrics;
import io.vertx.core.spi.metrics.HttpClientMetrics;
import io.vertx.core.spi.metrics.HttpServerMetrics;
import io.vertx.core.spi.metrics.PoolMetrics;
import io.vertx.core.spi.metrics.TCPMetrics;
import io.vertx.core.spi.metrics.VertxMetrics;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.backends.BackendRegistries;
import java.util.EnumSet;
import java.util.Set;

/**
 * vertx-micrometer's metrics, except that the HTTP servers record their requests through {@link HttpRequestSeries}:
 * the same {@code vertx_http_server_*} series, without four registry look-ups per request (docs/operations.md). Label
 * choices that series does not cover (path, route, local or remote address, custom tags) keep vertx-micrometer's own.
 */
public final class HttpMetricsFactory implements VertxMetricsFactory {

  /** The labels an HTTP server's request series may carry besides method and code; any other keeps Micrometer's. */
  private static final Set<Label> PER_REQUEST = EnumSet.of(Label.LOCAL, Label.REMOTE, Label.HTTP_PATH,
      Label.HTTP_ROUTE);

  private final MicrometerMetricsFactory micrometer = new MicrometerMetricsFactory();

  @Override
  public VertxMetrics metrics(VertxOptions options) {
    VertxMetrics metrics = micrometer.metrics(options);
    if (!(options.getMetricsOptions() instanceof MicrometerMetricsOptions micrometerOptions)
        || !coveredBySeries(micrometerOptions)) {
      return metrics;
    }
    MeterRegistry registry = BackendRegistries.getNow(micrometerOptions.getRegistryName());
    HttpRequestSeries series = new HttpRequestSeries(registry,
        micrometerOptions.getMetricsNaming().withBaseName("vertx.http.server."));
    return new WithRequestSeries(metrics, series);
  }

  @Override
  public MetricsOptions newOptions() {
    return micrometer.newOptions();
  }

  @Override
  public MetricsOptions newOptions(MetricsOptions options) {
    return micrometer.newOptions(options);
  }

  @Override
  public MetricsOptions newOptions(io.vertx.core.json.JsonObject json) {
    return micrometer.newOptions(json);
  }

  /** Whether {@link HttpRequestSeries} records exactly what vertx-micrometer would with these options. */
  static boolean coveredBySeries(MicrometerMetricsOptions options) {
    Set<Label> labels = options.getLabels();
    return labels.contains(Label.HTTP_METHOD) && labels.contains(Label.HTTP_CODE)
        && labels.stream().noneMatch(PER_REQUEST::contains) && options.getServerRequestTagsProvider() == null;
  }

  /** Micrometer's metrics for everything; each HTTP server's requests through the shared series. */
  private static final class WithRequestSeries implements VertxMetrics {

    private final VertxMetrics micrometer;
    private final HttpRequestSeries series;

    WithRequestSeries(VertxMetrics micrometer, HttpRequestSeries series) {
      this.micrometer = micrometer;
      this.series = series;
    }

    @Override
    public HttpServerMetrics<?, ?, ?> createHttpServerMetrics(HttpServerOptions options, SocketAddress localAddress) {
      HttpServerMetrics<?, ?, ?> own = micrometer.createHttpServerMetrics(options, localAddress);
      // Null: the HTTP server category is switched off, so there is nothing to record.
      return own == null ? null : new HttpServerRequestMetrics(series, own);
    }

    @Override
    public EventBusMetrics<?> createEventBusMetrics() {
      return micrometer.createEventBusMetrics();
    }

    @Override
    public ClientMetrics<?, ?, ?> createClientMetrics(SocketAddress remoteAddress, String type, String namespace) {
      return micrometer.createClientMetrics(remoteAddress, type, namespace);
    }

    @Override
    public HttpClientMetrics<?, ?, ?> createHttpClientMetrics(HttpClientOptions options) {
      return micrometer.createHttpClientMetrics(options);
    }

    @Override
    public TCPMetrics<?> createNetServerMetrics(NetServerOptions options, SocketAddress localAddress) {
      return micrometer.createNetServerMetrics(options, localAddress);
    }

    @Override
    public TCPMetrics<?> createNetClientMetrics(NetClientOptions options) {
      return micrometer.createNetClientMetrics(options);
    }

    @Override
    public DatagramSocketMetrics createDatagramSocketMetrics(DatagramSocketOptions options) {
      return micrometer.createDatagramSocketMetrics(options);
    }

    @Override
    public PoolMetrics<?, ?> createPoolMetrics(String poolType, String poolName, int maxPoolSize) {
      return micrometer.createPoolMetrics(poolType, poolName, maxPoolSize);
    }

    @Override
    public void vertxCreated(io.vertx.core.Vertx vertx) {
      micrometer.vertxCreated(vertx);
    }

    @Override
    public boolean isMetricsEnabled() {
      return micrometer.isMetricsEnabled();
    }

    @Override
    public void close() {
      micrometer.close();
    }
  }
}
