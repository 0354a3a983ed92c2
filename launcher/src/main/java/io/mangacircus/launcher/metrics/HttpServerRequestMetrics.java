package io.mangacircus.launcher.metrics;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.metrics.HttpServerMetrics;
import io.vertx.core.spi.observability.HttpRequest;
import io.vertx.core.spi.observability.HttpResponse;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP server's metrics: its requests and answers counted in {@link HttpRequestSeries} (what vertx-micrometer
 * records per request, with meters kept instead of looked up), its connections, bytes, errors and WebSockets left to
 * vertx-micrometer's own HTTP server metrics.
 */
final class HttpServerRequestMetrics implements HttpServerMetrics<HttpServerRequestMetrics.Request, Object, Object> {

  private final HttpRequestSeries series;
  private final HttpServerMetrics<Object, Object, Object> connections;

  @SuppressWarnings("unchecked")
  HttpServerRequestMetrics(HttpRequestSeries series, HttpServerMetrics<?, ?, ?> micrometer) {
    this.series = series;
    this.connections = (HttpServerMetrics<Object, Object, Object>) micrometer;
  }

  @Override
  public Request requestBegin(Object socketMetric, HttpRequest request) {
    return new Request(series.of(request.method()));
  }

  @Override
  public Request responsePushed(Object socketMetric, HttpMethod method, String uri, HttpResponse response) {
    return new Request(series.of(method));
  }

  @Override
  public void requestEnd(Request request, HttpRequest httpRequest, long bytesRead) {
    request.meters.requestBytes.record(bytesRead);
    request.requestEnded = true;
    if (!request.reset && request.responseEnded) {
      request.meters.active.decrement();
    }
  }

  @Override
  public void requestReset(Request request) {
    request.meters.reset();
    request.meters.active.decrement();
    request.reset = true;
  }

  @Override
  public void responseEnd(Request request, HttpResponse response, long bytesWritten) {
    HttpRequestSeries.ByMethod.ByCode answered = request.meters.answered(response.statusCode());
    answered.requests.increment();
    answered.responseTime.record(System.nanoTime() - request.began, TimeUnit.NANOSECONDS);
    answered.responseBytes.record(bytesWritten);
    request.responseEnded = true;
    if (!request.reset && request.requestEnded) {
      request.meters.active.decrement();
    }
  }

  @Override
  public Object connected(SocketAddress remoteAddress, String remoteName) {
    return connections.connected(remoteAddress, remoteName);
  }

  @Override
  public void disconnected(Object socketMetric, SocketAddress remoteAddress) {
    connections.disconnected(socketMetric, remoteAddress);
  }

  @Override
  public void bytesRead(Object socketMetric, SocketAddress remoteAddress, long numberOfBytes) {
    connections.bytesRead(socketMetric, remoteAddress, numberOfBytes);
  }

  @Override
  public void bytesWritten(Object socketMetric, SocketAddress remoteAddress, long numberOfBytes) {
    connections.bytesWritten(socketMetric, remoteAddress, numberOfBytes);
  }

  @Override
  public void exceptionOccurred(Object socketMetric, SocketAddress remoteAddress, Throwable t) {
    connections.exceptionOccurred(socketMetric, remoteAddress, t);
  }

  @Override
  public Object connected(Object socketMetric, Request request, ServerWebSocket webSocket) {
    return connections.connected(socketMetric, null, webSocket);
  }

  @Override
  public void disconnected(Object webSocketMetric) {
    connections.disconnected(webSocketMetric);
  }

  @Override
  public void close() {
    connections.close();
  }

  /** One request in flight: its method's meters and when it began. */
  static final class Request {

    final HttpRequestSeries.ByMethod meters;
    final long began = System.nanoTime();
    boolean requestEnded;
    boolean responseEnded;
    boolean reset;

    Request(HttpRequestSeries.ByMethod meters) {
      this.meters = meters;
      meters.active.increment();
    }
  }
}
