package io.mangacircus.launcher.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.testing.FreePorts;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import io.vertx.micrometer.backends.BackendRegistries;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The HTTP servers' request series: what vertx-micrometer itself records, series for series and count for count. */
class HttpMetricsFactoryTest {

  private static MicrometerMetricsOptions options(String registry) {
    return new MicrometerMetricsOptions().setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true))
        .setRegistryName(registry).setEnabled(true);
  }

  /**
   * The {@code vertx_http_server_*} lines of a Vert.x built with {@code factory} after two HTTP servers on one port
   * answered the same requests: 200s, a 404 and a POST with a body; timings (sum, max) left out, counts kept.
   */
  private static List<String> serverSeriesAfterRequests(io.vertx.core.spi.VertxMetricsFactory factory,
      MicrometerMetricsOptions options) {
    return afterRequests(factory, options, List.of("/page", "/page", "/page", "/missing"), registry -> {
    });
  }

  /**
   * The Prometheus lines of the HTTP server series after GETs of {@code paths} and one POST; {@code before} is given
   * the registry first.
   */
  private static List<String> afterRequests(io.vertx.core.spi.VertxMetricsFactory factory,
      MicrometerMetricsOptions options, List<String> paths, java.util.function.Consumer<MeterRegistry> before) {
    Vertx vertx = Vertx.builder().with(new VertxOptions().setMetricsOptions(options)).withMetrics(factory).build();
    try {
      int port = FreePorts.next();
      vertx.deployVerticle(() -> new VerticleBase() {
        @Override
        public Future<?> start() {
          return vertx.createHttpServer().requestHandler(request -> {
            if (request.method() == HttpMethod.POST) {
              request.body().onSuccess(body -> request.response().setStatusCode(201).end("stored " + body.length()));
            } else if (request.path().equals("/page")) {
              request.response().end("a page of forty bytes, more or less.....");
            } else {
              request.response().setStatusCode(404).end();
            }
          }).listen(port, "127.0.0.1");
        }
      }, new DeploymentOptions().setInstances(2)).await();
      before.accept(BackendRegistries.getNow(options.getRegistryName()));
      HttpClient client = vertx.createHttpClient();
      for (String path : paths) {
        int at = port;
        client.request(HttpMethod.GET, at, "127.0.0.1", path).compose(r -> r.send().compose(a -> a.body())).await();
      }
      int at = port;
      client.request(HttpMethod.POST, at, "127.0.0.1", "/store")
          .compose(r -> r.send(Buffer.buffer("twelve bytes")).compose(a -> a.body())).await();
      client.close().await();
      PrometheusMeterRegistry registry = (PrometheusMeterRegistry) BackendRegistries.getNow(options.getRegistryName());
      return registry.scrape().lines()
          .filter(line -> line.contains("vertx_http_server_"))
          .filter(line -> !line.contains("response_time_seconds_sum") && !line.contains("response_time_seconds_max"))
          // Connections close at their own pace after the client has gone.
          .filter(line -> !line.contains("active_connections") && !line.contains("bytes_read_total")
              && !line.contains("bytes_written_total"))
          .sorted().collect(Collectors.toList());
    } finally {
      vertx.close().await();
    }
  }

  @Test
  void answersAreCountedInTheSameSeriesAsVertxMicrometerCountsThem() {
    List<String> micrometers = serverSeriesAfterRequests(new MicrometerMetricsFactory(),
        options("micrometer-" + UUID.randomUUID()));
    List<String> kept = serverSeriesAfterRequests(new HttpMetricsFactory(), options("kept-" + UUID.randomUUID()));

    assertThat(micrometers).contains(
        "vertx_http_server_requests_total{code=\"200\",method=\"GET\"} 3.0",
        "vertx_http_server_requests_total{code=\"404\",method=\"GET\"} 1.0",
        "vertx_http_server_requests_total{code=\"201\",method=\"POST\"} 1.0",
        "vertx_http_server_request_bytes_sum{method=\"POST\"} 12.0",
        "vertx_http_server_response_time_seconds_count{code=\"200\",method=\"GET\"} 3");
    assertThat(kept).containsExactlyElementsOf(micrometers);
  }

  /**
   * How often the registry is asked for the answers' counter during 20 answers. A filter that denies it is asked on
   * every look-up (Micrometer keeps no denied meter), so it counts the look-ups.
   */
  private static int counterLookUps(io.vertx.core.spi.VertxMetricsFactory factory) {
    java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
    afterRequests(factory, options("look-ups-" + UUID.randomUUID()), java.util.Collections.nCopies(20, "/page"),
        registry -> registry.config().meterFilter(new MeterFilter() {
          @Override
          public MeterFilterReply accept(Meter.Id id) {
            if (id.getName().equals("vertx.http.server.requests")) {
              asked.incrementAndGet();
              return MeterFilterReply.DENY;
            }
            return MeterFilterReply.NEUTRAL;
          }
        }));
    return asked.get();
  }

  @Test
  void theRegistryIsAskedForAnAnswersCounterOncePerMethodAndCodeNotOncePerAnswer() {
    assertThat(counterLookUps(new MicrometerMetricsFactory())).as("vertx-micrometer's own").isGreaterThanOrEqualTo(20);
    assertThat(counterLookUps(new HttpMetricsFactory())).isEqualTo(2);
  }

  @Test
  void withARouteOrPathLabelVertxMicrometerRecordsTheRequestsItself() {
    assertThat(HttpMetricsFactory.coveredBySeries(new MicrometerMetricsOptions())).isTrue();
    assertThat(HttpMetricsFactory.coveredBySeries(new MicrometerMetricsOptions().addLabels(Label.HTTP_ROUTE)))
        .isFalse();
    assertThat(HttpMetricsFactory.coveredBySeries(new MicrometerMetricsOptions().addLabels(Label.HTTP_PATH)))
        .isFalse();
    assertThat(HttpMetricsFactory.coveredBySeries(new MicrometerMetricsOptions()
        .setServerRequestTagsProvider(request -> List.of()))).isFalse();

    String registry = "route-" + UUID.randomUUID();
    List<String> series = serverSeriesAfterRequests(new HttpMetricsFactory(),
        options(registry).addLabels(Label.HTTP_ROUTE));
    assertThat(series).contains("vertx_http_server_requests_total{code=\"200\",method=\"GET\",route=\"\"} 3.0");
  }
}
