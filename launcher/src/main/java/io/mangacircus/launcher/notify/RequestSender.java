package io.mangacircus.launcher.notify;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.time.Duration;

/** Sends the notifier's HTTP requests; a failure (no answer, or not 2xx) says what happened without the URL or a secret. */
final class RequestSender {

  private final WebClient client;
  private final long timeoutSeconds;

  /** @param timeoutSeconds how long one request may take, s ({@code notifications.requestTimeoutSeconds}) */
  RequestSender(Vertx vertx, long timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
    this.client = WebClient.create(vertx, new WebClientOptions()
        .setConnectTimeout((int) Duration.ofSeconds(timeoutSeconds).toMillis())
        .setIdleTimeout((int) timeoutSeconds).setKeepAlive(false)
        .setUserAgent("MangaCircus-notifications").setFollowRedirects(false));
  }

  /** Sends one request; fails with a message that names no URL, token or topic. */
  Future<HttpResponse<Buffer>> send(OutgoingRequest request) {
    HttpRequest<Buffer> http = client.requestAbs(HttpMethod.valueOf(request.method()), request.url())
        .timeout(Duration.ofSeconds(timeoutSeconds).toMillis());
    request.headers().forEach(http::putHeader);
    Future<HttpResponse<Buffer>> sent = request.body() == null ? http.send()
        : http.sendBuffer(Buffer.buffer(request.body()));
    return sent.transform(ar -> {
      if (ar.failed()) {
        return Future.failedFuture(new IllegalStateException(describe(ar.cause())));
      }
      int status = ar.result().statusCode();
      if (status / 100 != 2) {
        return Future.failedFuture(new IllegalStateException("answered HTTP " + status));
      }
      return Future.succeededFuture(ar.result());
    });
  }

  /** What went wrong with a request, in words that carry no URL, token or topic. */
  String describe(Throwable t) {
    String type = t.getClass().getSimpleName();
    if (t instanceof java.util.concurrent.TimeoutException || type.contains("Timeout")) {
      return "no answer within " + timeoutSeconds + " s";
    }
    if (t instanceof java.net.ConnectException) {
      return "connection refused";
    }
    if (t instanceof java.net.UnknownHostException) {
      return "unknown host";
    }
    return "request failed (" + type + ")";
  }

  void close() {
    client.close();
  }
}
