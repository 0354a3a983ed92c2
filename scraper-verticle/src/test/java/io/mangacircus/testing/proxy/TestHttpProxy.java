package io.mangacircus.testing.proxy;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.NetClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A small forward HTTP proxy on loopback for tests: absolute-URI requests ({@code GET http://host/path}) are forwarded
 * and their answers copied back, CONNECT opens a tunnel; with a user set, anything without the right
 * {@code Proxy-Authorization: Basic} gets 407. Records every request it saw.
 */
public final class TestHttpProxy {

  /** One request as the proxy saw it: {@code GET http://…} or {@code CONNECT host:port}, and its authorization. */
  public record Seen(String line, String authorization) {
  }

  private static final Set<String> HOP_BY_HOP = Set.of("connection", "proxy-connection", "proxy-authorization",
      "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length");

  private final String expected;
  private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
  private HttpServer server;
  private HttpClient client;
  private NetClient net;

  private TestHttpProxy(String username, String password) {
    this.expected = username == null ? null : "Basic " + Base64.getEncoder()
        .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /** Starts on {@code 127.0.0.1} and a free port; {@code username} null: no authentication asked. */
  public static Future<TestHttpProxy> start(Vertx vertx, String username, String password) {
    TestHttpProxy proxy = new TestHttpProxy(username, password);
    proxy.client = vertx.createHttpClient();
    proxy.net = vertx.createNetClient();
    return vertx.createHttpServer().requestHandler(proxy::handle).listen(0, "127.0.0.1").map(server -> {
      proxy.server = server;
      return proxy;
    });
  }

  public int port() {
    return server.actualPort();
  }

  /** Every request seen so far, in order. */
  public List<Seen> seen() {
    synchronized (seen) {
      return List.copyOf(seen);
    }
  }

  public Future<Void> close() {
    return server.close().compose(v -> client.close()).compose(v -> net.close());
  }

  private void handle(HttpServerRequest request) {
    String authorization = request.getHeader("Proxy-Authorization");
    boolean connect = request.method() == HttpMethod.CONNECT;
    seen.add(new Seen((connect ? "CONNECT " : request.method().name() + " ") + request.uri(), authorization));
    if (expected != null && !expected.equals(authorization)) {
      request.response().setStatusCode(407).putHeader("Proxy-Authenticate", "Basic realm=\"test\"").end();
      return;
    }
    if (connect) {
      tunnel(request);
    } else {
      forward(request);
    }
  }

  private void tunnel(HttpServerRequest request) {
    String target = request.uri();
    int colon = target.lastIndexOf(':');
    String host = target.substring(0, colon);
    int port = Integer.parseInt(target.substring(colon + 1));
    request.pause();
    net.connect(port, host).onComplete(connected -> {
      if (connected.failed()) {
        request.response().setStatusCode(502).end();
        return;
      }
      request.toNetSocket().onSuccess(socket -> {
        socket.pipeTo(connected.result());
        connected.result().pipeTo(socket);
      }).onFailure(error -> connected.result().close());
    });
  }

  private void forward(HttpServerRequest request) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    request.headers().forEach(header -> {
      if (!HOP_BY_HOP.contains(header.getKey().toLowerCase(Locale.ROOT))) {
        headers.add(header.getKey(), header.getValue());
      }
    });
    RequestOptions options = new RequestOptions().setMethod(request.method()).setAbsoluteURI(request.uri())
        .setHeaders(headers);
    request.body()
        .compose(body -> client.request(options).compose(out -> out.send(body)))
        .compose(answer -> answer.body().map(body -> {
          copy(answer, request);
          request.response().end(body);
          return null;
        }))
        .onFailure(error -> {
          if (!request.response().ended()) {
            request.response().setStatusCode(502).end();
          }
        });
  }

  private static void copy(HttpClientResponse answer, HttpServerRequest request) {
    request.response().setStatusCode(answer.statusCode());
    answer.headers().forEach(header -> {
      if (!HOP_BY_HOP.contains(header.getKey().toLowerCase(Locale.ROOT))) {
        request.response().headers().add(header.getKey(), header.getValue());
      }
    });
  }
}
