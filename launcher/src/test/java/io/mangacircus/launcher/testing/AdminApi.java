package io.mangacircus.launcher.testing;

import io.vertx.core.json.JsonObject;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The reader's admin API as a test (or a script) calls it: bearer token, JSON in and out. */
public final class AdminApi {

  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();

  private final int port;
  private final String token;

  public AdminApi(int port, String token) {
    this.port = port;
    this.token = token;
  }

  public HttpProbe.Answer get(String path) {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  public HttpProbe.Answer post(String path, JsonObject body) {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body == null ? "" : body.encode())));
  }

  public HttpProbe.Answer put(String path, JsonObject body) {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(body.encode())));
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private HttpProbe.Answer send(HttpRequest.Builder request) {
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    try {
      HttpResponse<String> response = CLIENT.sendAsync(request.timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString()).get(15, TimeUnit.SECONDS);
      return new HttpProbe.Answer(response.statusCode(), response.body());
    } catch (ExecutionException | TimeoutException e) {
      return new HttpProbe.Answer(-1, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new HttpProbe.Answer(-1, "interrupted");
    }
  }
}
