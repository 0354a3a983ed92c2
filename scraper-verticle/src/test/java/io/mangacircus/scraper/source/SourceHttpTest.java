package io.mangacircus.scraper.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.NetServer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SourceHttpTest {

  private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
  private static final List<String> MARKERS = List.of("just a moment...", "cf-chl-");

  private Vertx vertx;
  private HttpServer server;
  private WebClient client;
  private SourceHttp http;
  private final Map<String, Answer> answers = new HashMap<>();

  private record Answer(int status, String contentType, Map<String, String> headers, byte[] body) {
  }

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    server = completed(vertx.createHttpServer().requestHandler(request -> {
      Answer answer = answers.get(request.path());
      if (answer == null) {
        request.response().setStatusCode(404).end("no such page");
        return;
      }
      answer.headers().forEach(request.response()::putHeader);
      request.response().setStatusCode(answer.status()).putHeader("Content-Type", answer.contentType())
          .end(Buffer.buffer(answer.body()));
    }).listen(0, "127.0.0.1"));
    client = Sources.client(vertx);
    http = new SourceHttp(client, InstantSource.fixed(NOW), MARKERS);
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    completed(vertx.close());
  }

  private static <T> T completed(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private void answer(String path, int status, String contentType, String body, Map<String, String> headers) {
    answers.put(path, new Answer(status, contentType, headers, body.getBytes()));
  }

  private FetchOutcome<HttpResponse<Buffer>> get(String path, long maxBytes, boolean document) throws Exception {
    return completed(http.get(http.request("http://127.0.0.1:" + server.actualPort() + path, 10_000), maxBytes,
        "page 1", document));
  }

  private static String epoch(long secondsFromNow) {
    return String.valueOf(NOW.getEpochSecond() + secondsFromNow);
  }

  // ---- status → outcome -----------------------------------------------------------------------------------------

  @Test
  void eachStatusMapsToItsOutcome() throws Exception {
    answer("/gone", 410, "text/plain", "gone", Map.of());
    answer("/denied", 401, "text/plain", "who are you", Map.of());
    answer("/busy", 503, "text/plain", "down", Map.of());
    answer("/teapot", 418, "text/plain", "tea", Map.of());
    answer("/fine", 200, "image/png", "png", Map.of());

    assertThat(get("/missing", 1000, false)).isInstanceOf(FetchOutcome.NotFound.class);
    assertThat(get("/gone", 1000, false)).isInstanceOf(FetchOutcome.NotFound.class);
    assertThat(get("/denied", 1000, false)).isEqualTo(new FetchOutcome.AccessDenied<>(401, "page 1 answered 401"));
    assertThat(get("/busy", 1000, false)).isEqualTo(new FetchOutcome.ServerError<>(503, "page 1 answered 503", null));
    assertThat(get("/teapot", 1000, false)).isEqualTo(new FetchOutcome.ParseError<>("page 1 answered 418 "
        + "(unexpected status)"));
    assertThat(get("/fine", 1000, false).value().bodyAsString()).isEqualTo("png");
  }

  @Test
  void aRateLimitWaitsWhatRetryAfterSaysInSecondsOrAsAnHttpDateAgainstTheClock() throws Exception {
    answer("/seconds", 429, "text/plain", "slow down", Map.of("Retry-After", "12"));
    answer("/date", 429, "text/plain", "slow down", Map.of("Retry-After", "Sun, 29 Nov 2026 10:01:30 GMT"));
    answer("/none", 429, "text/plain", "slow down", Map.of());
    answer("/maintenance", 503, "text/plain", "later", Map.of("Retry-After", "Sun, 29 Nov 2026 10:00:07 GMT"));

    assertThat(get("/seconds", 1000, false)).isEqualTo(new FetchOutcome.RateLimited<>(Duration.ofSeconds(12),
        "page 1 answered 429"));
    assertThat(get("/date", 1000, false)).as("90 s after the injected clock's now")
        .isEqualTo(new FetchOutcome.RateLimited<>(Duration.ofSeconds(90), "page 1 answered 429"));
    assertThat(get("/none", 1000, false)).isEqualTo(new FetchOutcome.RateLimited<>(SourceHttp.DEFAULT_RETRY_AFTER,
        "page 1 answered 429"));
    assertThat(get("/maintenance", 1000, false)).isEqualTo(new FetchOutcome.ServerError<>(503,
        "page 1 answered 503", Duration.ofSeconds(7)));
  }

  @Test
  void anErrorBodysDetailGoesIntoTheMessageWhenTheSourceReadsOne() {
    SourceHttp withDetail = new SourceHttp(client, InstantSource.fixed(NOW), MARKERS, body -> "the API said no");

    assertThat(withDetail.<Void>statusFailure(404, header -> null, "title x", "the API said no"))
        .isEqualTo(new FetchOutcome.NotFound<>("title x (the API said no)"));
    assertThat(withDetail.<Void>statusFailure(204, header -> null, "title x", "")).isNull();
  }

  @Test
  void aProxysRefusalOfItsCredentialsIsANetworkFailureOfTheSource() {
    assertThat(http.<Void>statusFailure(407, header -> null, "title x", ""))
        .isEqualTo(new FetchOutcome.NetworkError<>("title x was refused by the proxy (407: its credentials were not "
            + "accepted)"));
  }

  // ---- challenge pages ------------------------------------------------------------------------------------------

  @Test
  void aChallengePageIsAnAccessRefusalWhateverItsStatus() throws Exception {
    String challenge = "<html><title>Just a moment...</title></html>";
    answer("/ok", 200, "text/html", challenge, Map.of());
    answer("/forbidden", 403, "text/html; charset=utf-8", challenge, Map.of());
    answer("/unavailable", 503, "text/html", challenge, Map.of());

    assertThat(get("/ok", 1000, true)).isEqualTo(new FetchOutcome.AccessDenied<>(200,
        "page 1 answered a challenge page (marker 'just a moment...')"));
    assertThat(get("/forbidden", 1000, false)).isEqualTo(new FetchOutcome.AccessDenied<>(403,
        "page 1 answered a challenge page (marker 'just a moment...')"));
    assertThat(get("/unavailable", 1000, false)).isInstanceOf(FetchOutcome.AccessDenied.class);
  }

  @Test
  void onlyDocumentsAreSearchedForMarkersWhenTheyAreNotServedAsHtml() throws Exception {
    answer("/image", 200, "image/png", "cf-chl- happens to be in the bytes", Map.of());

    assertThat(get("/image", 1000, false).ok()).as("an image is not a challenge page").isTrue();
    assertThat(get("/image", 1000, true)).isInstanceOf(FetchOutcome.AccessDenied.class);
  }

  // ---- body cap -------------------------------------------------------------------------------------------------

  @Test
  void aBodyLongerThanTheCapIsAParserFailureAndNotRead() throws Exception {
    answer("/big", 200, "image/png", "x".repeat(3 * 1024 * 1024), Map.of());
    answer("/small", 200, "image/png", "x".repeat(1024), Map.of());

    assertThat(get("/big", 1024 * 1024, false)).isEqualTo(new FetchOutcome.ParseError<>("page 1 is larger than 1 "
        + "MiB; it was not read further"));
    assertThat(get("/small", 1024, false).value().body().length()).isEqualTo(1024);
  }

  @Test
  void aChunkedBodyWithoutContentLengthIsCappedToo() throws Exception {
    HttpServer chunked = completed(vertx.createHttpServer().requestHandler(request -> {
      int pieces = Integer.parseInt(request.getParam("pieces"));
      request.response().setChunked(true).putHeader("Content-Type", "image/png");
      for (int i = 0; i < pieces; i++) {
        request.response().write(Buffer.buffer(new byte[64 * 1024]).setByte(0, (byte) i));
      }
      request.response().end();
    }).listen(0, "127.0.0.1"));
    String base = "http://127.0.0.1:" + chunked.actualPort() + "/?pieces=";

    FetchOutcome<HttpResponse<Buffer>> tooLong = completed(http.get(http.request(base + 20, 10_000), 1024 * 1024,
        "page 1", false));
    FetchOutcome<HttpResponse<Buffer>> fits = completed(http.get(http.request(base + 16, 10_000), 1024 * 1024,
        "page 1", false));

    assertThat(tooLong).isEqualTo(new FetchOutcome.ParseError<>("page 1 is larger than 1 MiB; it was not read further"));
    assertThat(fits.value().getHeader("Content-Length")).isNull();
    byte[] body = SourceHttp.bytes(fits.value());
    assertThat(body).hasSize(16 * 64 * 1024);
    assertThat(body[15 * 64 * 1024]).isEqualTo((byte) 15);
    completed(chunked.close());
  }

  @Test
  void aContentLengthOverTheCapIsRefusedBeforeTheBodyIsWaitedFor() throws Exception {
    // Declares 10 MiB, sends 10 bytes and then nothing: only the declared length can refuse it in time.
    NetServer liar = completed(vertx.createNetServer().connectHandler(socket -> socket.handler(request -> socket.write(
        "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: 10485760\r\n\r\n0123456789")))
        .listen(0, "127.0.0.1"));

    FetchOutcome<HttpResponse<Buffer>> outcome = completed(http.get(http.request("http://127.0.0.1:"
        + liar.actualPort() + "/page.jpg", 8_000), 1024 * 1024, "page 1", false));

    assertThat(outcome).isEqualTo(new FetchOutcome.ParseError<>("page 1 is larger than 1 MiB; it was not read further"));
    completed(liar.close());
  }

  @Test
  void bodiesComeWholeAndByteForByteWithAndWithoutContentLength() throws Exception {
    byte[] image = new byte[300 * 1024 + 17];
    new java.util.Random(7).nextBytes(image);
    answers.put("/page.jpg", new Answer(200, "image/jpeg", Map.of(), image));
    HttpServer chunked = completed(vertx.createHttpServer().requestHandler(request -> {
      request.response().setChunked(true).putHeader("Content-Type", "image/jpeg");
      for (int at = 0; at < image.length; at += 50_000) {
        request.response().write(Buffer.buffer(java.util.Arrays.copyOfRange(image, at, Math.min(image.length,
            at + 50_000))));
      }
      request.response().end();
    }).listen(0, "127.0.0.1"));

    FetchOutcome<HttpResponse<Buffer>> declared = get("/page.jpg", SourceHttp.MAX_IMAGE_BYTES, false);
    FetchOutcome<HttpResponse<Buffer>> streamed = completed(http.get(http.request("http://127.0.0.1:"
        + chunked.actualPort() + "/", 10_000), SourceHttp.MAX_IMAGE_BYTES, "page 1", false));

    assertThat(declared.value().getHeader("Content-Length")).isEqualTo(String.valueOf(image.length));
    assertThat(SourceHttp.bytes(declared.value())).isEqualTo(image);
    assertThat(SourceHttp.bytes(streamed.value())).isEqualTo(image);
    assertThat(declared.value().body().getBytes()).isEqualTo(image);
    completed(chunked.close());
  }

  @Test
  void aWorkerContextsExchangeRunsOnAnEventLoopAndAnswersOnTheWorkerContext() throws Exception {
    answer("/page.png", 200, "image/png", "x".repeat(200 * 1024), Map.of());
    List<Boolean> receivedOnEventLoop = new java.util.concurrent.CopyOnWriteArrayList<>();
    ((io.vertx.ext.web.client.impl.WebClientInternal) client).addInterceptor(context -> {
      if (context.phase() == io.vertx.ext.web.client.impl.ClientPhase.RECEIVE_RESPONSE) {
        receivedOnEventLoop.add(io.vertx.core.Context.isOnEventLoopThread());
      }
      context.next();
    });
    io.vertx.core.Context lane = ((io.vertx.core.internal.VertxInternal) vertx).createWorkerContext();
    java.util.concurrent.CompletableFuture<Boolean> answeredOnLane = new java.util.concurrent.CompletableFuture<>();
    java.util.concurrent.CompletableFuture<Integer> length = new java.util.concurrent.CompletableFuture<>();

    lane.runOnContext(v -> get(http, "/page.png").onComplete(ar -> {
      answeredOnLane.complete(io.vertx.core.Vertx.currentContext() == lane && io.vertx.core.Context.isOnWorkerThread());
      length.complete(ar.result().value().body().length());
    }));

    assertThat(answeredOnLane.get(10, TimeUnit.SECONDS)).as("the answer is handed to the lane's context").isTrue();
    assertThat(length.get(10, TimeUnit.SECONDS)).isEqualTo(200 * 1024);
    assertThat(receivedOnEventLoop).as("the response is read on an event loop, not chunk by chunk on the worker pool")
        .containsExactly(true);
  }

  private Future<FetchOutcome<HttpResponse<Buffer>>> get(SourceHttp on, String path) {
    return on.get(on.request("http://127.0.0.1:" + server.actualPort() + path, 10_000), SourceHttp.MAX_IMAGE_BYTES,
        "page 1", false);
  }

  @Test
  void noAnswerIsANetworkError() throws Exception {
    FetchOutcome<HttpResponse<Buffer>> outcome = completed(http.get(http.request("http://127.0.0.1:1/", 2_000), 1000,
        "page 1", false));

    assertThat(outcome).isInstanceOf(FetchOutcome.NetworkError.class);
    assertThat(outcome.describe()).startsWith("network error: page 1 failed");
  }

  // ---- Retry-After parsing --------------------------------------------------------------------------------------

  @Test
  void retryAfterInSecondsIsTaken() {
    assertThat(SourceHttp.retryAfter(" 12 ", null, NOW)).contains(Duration.ofSeconds(12));
  }

  @Test
  void retryAfterAsAnHttpDateIsTaken() {
    assertThat(SourceHttp.retryAfter("Sun, 29 Nov 2026 10:01:30 GMT", null, NOW)).contains(Duration.ofSeconds(90));
  }

  @Test
  void mangaDexsEpochSecondsAreTaken() {
    assertThat(SourceHttp.retryAfter(null, epoch(45), NOW)).contains(Duration.ofSeconds(45));
  }

  @Test
  void whenBothAreThereTheLongerWins() {
    assertThat(SourceHttp.retryAfter("5", epoch(120), NOW)).contains(Duration.ofSeconds(120));
    assertThat(SourceHttp.retryAfter("300", epoch(120), NOW)).contains(Duration.ofSeconds(300));
  }

  @Test
  void aTimeAlreadyPassedStillWaitsOneSecond() {
    assertThat(SourceHttp.retryAfter(null, epoch(-30), NOW)).contains(Duration.ofSeconds(1));
    assertThat(SourceHttp.retryAfter("0", null, NOW)).contains(Duration.ofSeconds(1));
  }

  @Test
  void noOrUnreadableHeadersNameNoWait() {
    assertThat(SourceHttp.retryAfter(null, null, NOW)).isEmpty();
    assertThat(SourceHttp.retryAfter("soon", "tomorrow", NOW)).isEmpty();
  }
}
