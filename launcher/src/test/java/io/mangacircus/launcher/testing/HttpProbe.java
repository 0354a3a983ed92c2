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

/** Blocking HTTP GETs against a server on loopback, for tests. */
public final class HttpProbe {

  /** A status and body; status -1 when nothing answered. */
  public record Answer(int status, String body) {
    public JsonObject json() {
      return new JsonObject(body);
    }

    /** The {@code status} of the health check with this id in a health JSON body, or null. */
    public String check(String id) {
      if (status < 0) {
        return null;
      }
      return json().getJsonArray("checks").stream().map(JsonObject.class::cast)
          .filter(c -> id.equals(c.getString("id"))).map(c -> c.getString("status")).findFirst().orElse(null);
    }

    /** The {@code data} of the health check with this id. */
    public JsonObject checkData(String id) {
      return json().getJsonArray("checks").stream().map(JsonObject.class::cast)
          .filter(c -> id.equals(c.getString("id"))).map(c -> c.getJsonObject("data")).findFirst().orElse(null);
    }
  }

  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();

  private HttpProbe() {
  }

  /** Waits (up to a minute, for a jar process starting on a loaded machine) until {@code /health/ready} says 200. */
  public static void awaitReady(int port) {
    Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> get(port, "/health/ready").status() == 200);
  }

  public static Answer get(int port, String path) {
    return get(port, path, null);
  }

  public static Answer get(int port, String path, String bearer) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).GET();
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    try {
      // The request timeout alone has been seen not to fire; a hard cap keeps a test from hanging.
      HttpResponse<String> response = CLIENT.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
          .get(15, TimeUnit.SECONDS);
      return new Answer(response.statusCode(), response.body());
    } catch (ExecutionException | TimeoutException e) {
      return new Answer(-1, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Answer(-1, "interrupted");
    }
  }
}
