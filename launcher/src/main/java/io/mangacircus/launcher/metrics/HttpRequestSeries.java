package io.mangacircus.launcher.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.http.HttpMethod;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MetricsNaming;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@code vertx_http_server_*} request series (the names, labels and descriptions of vertx-micrometer's own), each
 * meter looked up in the registry once per method and status code and kept, so that an answer costs no registry
 * look-up (vertx-micrometer 5.0 looks up four meters per request). Shared by every HTTP server of one Vert.x.
 */
final class HttpRequestSeries {

  private static final String METHOD = Label.HTTP_METHOD.toString();
  private static final String CODE = Label.HTTP_CODE.toString();
  private static final int FIRST_CODE = 100;
  private static final int LAST_CODE = 599;

  private final MeterRegistry registry;
  private final MetricsNaming names;
  private final ConcurrentMap<HttpMethod, ByMethod> byMethod = new ConcurrentHashMap<>();
  private volatile ByMethod get;

  /** @param names vertx-micrometer's naming with the HTTP server's base name ({@code vertx.http.server.}) */
  HttpRequestSeries(MeterRegistry registry, MetricsNaming names) {
    this.registry = registry;
    this.names = names;
  }

  /** The series of requests with {@code method}. */
  ByMethod of(HttpMethod method) {
    if (method == HttpMethod.GET) {
      // Most requests: no map look-up (HttpMethod's hash code hashes its name again each time).
      ByMethod known = get;
      if (known == null) {
        known = byMethod.computeIfAbsent(method, ByMethod::new);
        get = known;
      }
      return known;
    }
    ByMethod known = byMethod.get(method);
    return known != null ? known : byMethod.computeIfAbsent(method, ByMethod::new);
  }

  /** The meters of one method: in flight, request sizes, resets, and those of its answers by status code. */
  final class ByMethod {

    final Tags tags;
    final LongAdder active = new LongAdder();
    final DistributionSummary requestBytes;
    private final AtomicReferenceArray<ByCode> byCode = new AtomicReferenceArray<>(LAST_CODE - FIRST_CODE + 1);
    private final ConcurrentMap<Integer, ByCode> otherCodes = new ConcurrentHashMap<>();

    private ByMethod(HttpMethod method) {
      tags = Tags.of(METHOD, method.toString());
      Gauge.builder(names.getHttpActiveRequests(), active, LongAdder::doubleValue)
          .description("Number of requests being processed").tags(tags).register(registry);
      requestBytes = DistributionSummary.builder(names.getHttpRequestBytes())
          .description("Size of requests in bytes").tags(tags).register(registry);
    }

    /** Counts a reset request; looked up when one happens (rare), so the series appears with the first, as before. */
    void reset() {
      Counter.builder(names.getHttpRequestResetsCount()).description("Number of request resets").tags(tags)
          .register(registry).increment();
    }

    /** The meters of this method's answers with {@code status}. */
    ByCode answered(int status) {
      if (status < FIRST_CODE || status > LAST_CODE) {
        return otherCodes.computeIfAbsent(status, ByCode::new);
      }
      ByCode known = byCode.get(status - FIRST_CODE);
      if (known == null) {
        // Two threads may both build it: the registry hands both the same meters.
        known = new ByCode(status);
        byCode.set(status - FIRST_CODE, known);
      }
      return known;
    }

    /** The answers of one method and status code: how many, how long, how large. */
    final class ByCode {

      final Counter requests;
      final Timer responseTime;
      final DistributionSummary responseBytes;

      private ByCode(int status) {
        Tags answerTags = tags.and(CODE, String.valueOf(status));
        requests = Counter.builder(names.getHttpRequestsCount())
            .description("Number of processed requests").tags(answerTags).register(registry);
        responseTime = Timer.builder(names.getHttpResponseTime())
            .description("Request processing time").tags(answerTags).register(registry);
        responseBytes = DistributionSummary.builder(names.getHttpResponseBytes())
            .description("Size of responses in bytes").tags(answerTags).register(registry);
      }
    }
  }
}
