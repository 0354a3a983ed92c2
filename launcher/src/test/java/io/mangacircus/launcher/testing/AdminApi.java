package io.mangacircus.launcher.testing;

import io.vertx.core.json.JsonObject;
import org.awaitility.Awaitility;
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

  public HttpProbe.Answer delete(String path) {
    return send(HttpRequest.newBuilder(uri(path)).DELETE());
  }

  /** The job with this id, as {@code GET /api/admin/jobs} lists it. */
  public JsonObject job(String id) {
    return get("/api/admin/jobs").json().getJsonArray("jobs").stream().map(JsonObject.class::cast)
        .filter(j -> j.getString("id").equals(id)).findFirst().orElseThrow();
  }

  /** Polls (up to 90 s) until the job is in {@code state}, and returns it as then listed. */
  public JsonObject awaitJobState(String id, String state) {
    Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50))
        .until(() -> state.equals(job(id).getString("state")));
    return job(id);
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
