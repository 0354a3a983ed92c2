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

/**
 * Sends the notifier's HTTP requests; a failure (no answer, or not 2xx) says what happened without the URL or a secret.
 * A reader's alert goes only where {@link ReaderTargetGuard} allows, to the address it checked.
 */
final class RequestSender {

  private final Vertx vertx;
  private final WebClient client;
  private final long timeoutSeconds;
  private final ReaderTargetGuard guard;

  /** A sender whose readers' alerts go to public addresses only. */
  RequestSender(Vertx vertx, long timeoutSeconds) {
    this(vertx, timeoutSeconds, new ReaderTargetGuard(java.util.List.of(), ReaderTargetGuard.HostResolver.system()));
  }

  /**
   * @param timeoutSeconds how long one request may take, s ({@code notifications.requestTimeoutSeconds})
   * @param guard where readers' alerts may go
   */
  RequestSender(Vertx vertx, long timeoutSeconds, ReaderTargetGuard guard) {
    this.vertx = vertx;
    this.timeoutSeconds = timeoutSeconds;
    this.guard = guard;
    this.client = WebClient.create(vertx, new WebClientOptions()
        .setConnectTimeout((int) Duration.ofSeconds(timeoutSeconds).toMillis())
        .setIdleTimeout((int) timeoutSeconds).setKeepAlive(false)
        .setUserAgent("MangaCircus-notifications").setFollowRedirects(false));
  }

  /**
   * Sends one of the operator's requests (a destination, the heartbeat), wherever it points; fails with a message that
   * names no URL, token or topic.
   */
  Future<HttpResponse<Buffer>> send(OutgoingRequest request) {
    return send(request, client.requestAbs(HttpMethod.valueOf(request.method()), request.url()));
  }

  /**
   * Sends a reader's alert: its host is resolved and checked off the event loop, and the request connects to the
   * checked address (keeping the host name for the {@code Host} header and TLS), so that a second lookup cannot lead it
   * elsewhere. A refused target fails with the guard's reason.
   */
  Future<HttpResponse<Buffer>> sendReaderAlert(OutgoingRequest request) {
    return vertx.executeBlocking(() -> guard.check(request.url()), false)
        .recover(t -> Future.failedFuture(new IllegalStateException(describe(t)))).compose(verdict -> {
      if (verdict instanceof ReaderTargetGuard.Reach reach) {
        HttpRequest<Buffer> http = client.request(HttpMethod.valueOf(request.method()), reach.port(), reach.address(),
            reach.requestUri()).ssl(reach.ssl());
        if (reach.virtualHost() != null) {
          http.virtualHost(reach.virtualHost());
        }
        return send(request, http);
      }
      return Future.failedFuture(new IllegalStateException("refused: "
          + ((ReaderTargetGuard.Refused) verdict).reason()));
    });
  }

  private Future<HttpResponse<Buffer>> send(OutgoingRequest request, HttpRequest<Buffer> http) {
    http.timeout(Duration.ofSeconds(timeoutSeconds).toMillis());
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
