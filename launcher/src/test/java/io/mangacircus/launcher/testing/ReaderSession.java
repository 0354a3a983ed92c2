package io.mangacircus.launcher.testing;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A logged-in reader account talking to the reader's API as the browser does (cookie plus CSRF header). */
public final class ReaderSession {

  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();

  private final int port;
  private final String cookie;
  private final String csrf;

  private ReaderSession(int port, String cookie, String csrf) {
    this.port = port;
    this.cookie = cookie;
    this.csrf = csrf;
  }

  /** Logs in; fails the test when the login is refused. */
  public static ReaderSession login(int port, String username, String password) {
    HttpResponse<String> login = send(port, "POST", "/api/login",
        new JsonObject().put("username", username).put("password", password).encode());
    if (login.statusCode() != 200) {
      throw new AssertionError("login of " + username + " answered " + login.statusCode() + ": " + login.body());
    }
    String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
    return new ReaderSession(port, setCookie.substring(0, setCookie.indexOf(';')),
        new JsonObject(login.body()).getString("csrfToken"));
  }

  /** The {@code name=value} of the session cookie. */
  public String cookie() {
    return cookie;
  }

  public HttpResponse<String> get(String path, String... headers) {
    return send(port, "GET", path, null, with(headers));
  }

  public HttpResponse<String> put(String path, JsonObject body) {
    return send(port, "PUT", path, body.encode(), with("X-CSRF-Token", csrf));
  }

  public HttpResponse<String> post(String path, JsonObject body) {
    return send(port, "POST", path, body == null ? null : body.encode(), with("X-CSRF-Token", csrf));
  }

  public HttpResponse<String> delete(String path) {
    return send(port, "DELETE", path, null, with("X-CSRF-Token", csrf));
  }

  /** A request with the session cookie and CSRF header and a raw body. */
  public HttpResponse<String> putBytes(String path, String contentType, byte[] body) {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).PUT(HttpRequest.BodyPublishers.ofByteArray(body))
        .header("Content-Type", contentType).header("Cookie", cookie).header("X-CSRF-Token", csrf).build();
    return call(request, HttpResponse.BodyHandlers.ofString());
  }

  /** A GET whose body is kept as bytes. */
  public HttpResponse<byte[]> bytes(String path, String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).GET().header("Cookie", cookie);
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return call(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /** A request with the session cookie and CSRF header plus exactly the given headers, and a raw body. */
  public HttpResponse<String> request(String method, String path, byte[] body, String... headers) {
    String[] all = new String[headers.length + 2];
    all[0] = "X-CSRF-Token";
    all[1] = csrf;
    System.arraycopy(headers, 0, all, 2, headers.length);
    return raw(port, method, path, body, with(all));
  }

  /** A request with exactly the given headers (no Content-Type unless one is given) and a raw body. */
  public static HttpResponse<String> raw(int port, String method, String path, byte[] body, String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return call(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private String[] with(String... extra) {
    String[] all = new String[extra.length + 2];
    all[0] = "Cookie";
    all[1] = cookie;
    System.arraycopy(extra, 0, all, 2, extra.length);
    return all;
  }

  /** A request without a session (or with the given headers only). */
  public static HttpResponse<String> send(int port, String method, String path, String body, String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return call(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static <T> HttpResponse<T> call(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    try {
      return HTTP.send(request, handler);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
