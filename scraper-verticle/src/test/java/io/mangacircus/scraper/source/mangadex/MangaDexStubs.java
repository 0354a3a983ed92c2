package io.mangacircus.scraper.source.mangadex;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.mangacircus.testing.MangaDexApi.json;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.mangacircus.testing.TestImages;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What the adapter's own ITs add to the shared fake MangaDex ({@link io.mangacircus.testing.MangaDexApi}): made-up
 * numbered titles whose at-home answers name {@link #NODE}, and a wait for the adapter's futures.
 */
final class MangaDexStubs {

  /** The node every at-home answer of a numbered title names. */
  static final String NODE = "node-z";

  private MangaDexStubs() {
  }

  /** The future's result, waiting at most 60 s. */
  static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("operation did not complete: " + e, e);
    }
  }

  // ---- numbered titles ----------------------------------------------------------------------------------------

  /** A title id: a UUID made from a number. */
  static String titleId(int title) {
    return String.format(Locale.ROOT, "%08x-7777-4000-8000-000000000000", title);
  }

  /** The id of chapter {@code chapter} (1-based) of title {@code title}. */
  static String chapterId(int title, int chapter) {
    return String.format(Locale.ROOT, "%08x-7777-4000-8000-%012x", title, chapter);
  }

  private static String hash(int title, int chapter) {
    return String.format(Locale.ROOT, "h%08x%08x", title, chapter);
  }

  /** Chapter {@code chapter}'s at-home answer (naming {@link #NODE}) and its one page. */
  static void atHome(WireMockServer api, int title, int chapter) {
    String file = "1-" + hash(title, chapter) + ".png";
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + chapterId(title, chapter)))
        .willReturn(json(200, new JsonObject().put("result", "ok").put("baseUrl", api.baseUrl() + "/" + NODE)
            .put("chapter", new JsonObject().put("hash", hash(title, chapter)).put("data", new JsonArray().add(file))
                .put("dataSaver", new JsonArray().add(file))).encode())));
    api.stubFor(get(urlPathEqualTo("/" + NODE + "/data/" + hash(title, chapter) + "/" + file))
        .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "image/png")
            .withBody(TestImages.image("png", title * 10_000 + chapter))));
  }
}
