package io.mangacircus.launcher.sources;

import io.mangacircus.testing.MangaDexApi;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.mangacircus.testing.TestImages;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Made-up MangaDex titles of any size on a WireMock server, in the API's documented shapes ({@code /manga/{id}},
 * the paginated {@code /manga/{id}/feed}, {@code /at-home/server/{chapterId}} and one-page chapters on a node), and
 * {@link AtHomeWindow}, a server-side at-home limit counted over a rolling window the way MangaDex documents it.
 */
final class FakeMangaDex {

  /** The node every at-home answer names. */
  static final String NODE = "node-z";

  private FakeMangaDex() {
  }

  /** A title id: a UUID made from a number. */
  static String titleId(int title) {
    return String.format(Locale.ROOT, "%08x-7777-4000-8000-000000000000", title);
  }

  /** The id of chapter {@code chapter} (1-based) of title {@code title}. */
  static String chapterId(int title, int chapter) {
    return String.format(Locale.ROOT, "%08x-7777-4000-8000-%012x", title, chapter);
  }

  static String hash(int title, int chapter) {
    return String.format(Locale.ROOT, "h%08x%08x", title, chapter);
  }

  /** The manga answer of a title. */
  static JsonObject manga(int title, String name) {
    return new JsonObject().put("result", "ok").put("response", "entity").put("data", new JsonObject()
        .put("id", titleId(title)).put("type", "manga").put("attributes", new JsonObject()
            .put("title", new JsonObject().put("en", name)).put("altTitles", new JsonArray())
            .put("availableTranslatedLanguages", new JsonArray().add("en")).put("status", "ongoing"))
        .put("relationships", new JsonArray()));
  }

  /** A feed chapter entry in the API's shape. */
  static JsonObject chapter(int title, int chapter, String language) {
    return new JsonObject().put("id", chapterId(title, chapter)).put("type", "chapter").put("attributes",
        new JsonObject().put("volume", null).put("chapter", String.valueOf(chapter)).put("title", "Chapter " + chapter)
            .put("translatedLanguage", language).put("externalUrl", null)
            .put("publishAt", "2024-01-01T10:00:00+00:00").put("readableAt", "2024-01-01T10:00:00+00:00")
            .put("createdAt", "2024-01-01T09:58:12+00:00").put("updatedAt", "2024-01-01T09:58:12+00:00")
            .put("pages", 1).put("version", 1))
        .put("relationships", new JsonArray().add(new JsonObject().put("id", titleId(title)).put("type", "manga")));
  }

  /**
   * A title of {@code chapters} English one-page chapters: its manga answer, its feed in pages of {@code pageSize}
   * (any query; none scheduled), every chapter's at-home answer (through {@code transformers}, if any) and page.
   */
  static void title(WireMockServer api, int title, String name, int chapters, int pageSize, String... transformers) {
    api.stubFor(get(urlPathEqualTo("/manga/" + titleId(title))).willReturn(json(manga(title, name))));
    MangaDexApi.stubScheduled(api, titleId(title), new JsonArray());
    for (int offset = 0; offset < Math.max(1, chapters); offset += pageSize) {
      JsonArray data = new JsonArray();
      for (int c = offset + 1; c <= Math.min(chapters, offset + pageSize); c++) {
        data.add(chapter(title, c, "en"));
      }
      api.stubFor(get(urlPathEqualTo("/manga/" + titleId(title) + "/feed"))
          .withQueryParam("offset", equalTo(String.valueOf(offset)))
          .willReturn(json(new JsonObject().put("result", "ok").put("response", "collection").put("data", data)
              .put("limit", pageSize).put("offset", offset).put("total", chapters))));
    }
    for (int c = 1; c <= chapters; c++) {
      atHome(api, title, c, transformers);
    }
  }

  /** Chapter {@code chapter}'s at-home answer (naming {@link #NODE}) and its one page. */
  static void atHome(WireMockServer api, int title, int chapter, String... transformers) {
    String file = "1-" + hash(title, chapter) + ".png";
    api.stubFor(get(urlPathEqualTo("/at-home/server/" + chapterId(title, chapter)))
        .willReturn(json(new JsonObject().put("result", "ok").put("baseUrl", api.baseUrl() + "/" + NODE)
            .put("chapter", new JsonObject().put("hash", hash(title, chapter)).put("data", new JsonArray().add(file))
                .put("dataSaver", new JsonArray().add(file)))).withTransformers(transformers)));
    api.stubFor(get(urlPathEqualTo("/" + NODE + "/data/" + hash(title, chapter) + "/" + file))
        .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "image/png")
            .withBody(TestImages.image("png", title * 10_000 + chapter))));
  }

  /** Every page under the node fails with a connection reset (a hanging image server). */
  static void nodeDown(WireMockServer api) {
    api.stubFor(get(urlPathMatching("/" + NODE + "/.*")).atPriority(1).willReturn(aResponse()
        .withFault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER)));
  }

  static ResponseDefinitionBuilder json(JsonObject body) {
    return aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(body.encode());
  }

  /**
   * MangaDex's at-home limit as a server enforces it: at most {@code limit} look-ups arrive within any rolling
   * {@code windowMs}; the one that reaches the limit is answered with {@code X-RateLimit-Remaining: 0} and
   * {@code X-RateLimit-Retry-After} (epoch seconds when the oldest leaves the window), one beyond it with 429.
   */
  static final class AtHomeWindow implements ResponseDefinitionTransformerV2 {

    static final String NAME = "at-home-window";

    private final int limit;
    private final long windowMs;
    private final Deque<Long> arrivals = new ArrayDeque<>();
    private final AtomicInteger refused = new AtomicInteger();

    AtHomeWindow(int limit, long windowMs) {
      this.limit = limit;
      this.windowMs = windowMs;
    }

    @Override
    public String getName() {
      return NAME;
    }

    @Override
    public boolean applyGlobally() {
      return false;
    }

    /** Look-ups answered 429 so far. */
    int refused() {
      return refused.get();
    }

    @Override
    public synchronized ResponseDefinition transform(ServeEvent event) {
      long now = event.getRequest().getLoggedDate().getTime();
      while (!arrivals.isEmpty() && arrivals.peekFirst() <= now - windowMs) {
        arrivals.removeFirst();
      }
      if (arrivals.size() >= limit) {
        refused.incrementAndGet();
        long free = arrivals.peekFirst() + windowMs;
        return ResponseDefinitionBuilder.responseDefinition().withStatus(429)
            .withHeader("Content-Type", "application/json")
            .withHeader("Retry-After", String.valueOf(Math.max(1, (free - now + 999) / 1000)))
            .withHeader("X-RateLimit-Limit", String.valueOf(limit)).withHeader("X-RateLimit-Remaining", "0")
            .withHeader("X-RateLimit-Retry-After", String.valueOf((free + 999) / 1000))
            .withBody(MangaDexApi.resource("error-429.json")).build();
      }
      arrivals.addLast(now);
      int remaining = limit - arrivals.size();
      ResponseDefinitionBuilder answer = ResponseDefinitionBuilder.like(event.getResponseDefinition())
          .withHeader("X-RateLimit-Limit", String.valueOf(limit))
          .withHeader("X-RateLimit-Remaining", String.valueOf(remaining));
      if (remaining == 0) {
        answer.withHeader("X-RateLimit-Retry-After", String.valueOf((arrivals.peekFirst() + windowMs + 999) / 1000));
      }
      return answer.build();
    }
  }

  /**
   * A server that refuses with 429 ({@code Retry-After: 1}) any request beyond {@code limit} within a rolling
   * {@code windowMs}, whatever the path: a limit stricter than the published one.
   */
  static final class StricterLimit implements ResponseDefinitionTransformerV2 {

    private final int limit;
    private final long windowMs;
    private final Deque<Long> arrivals = new ArrayDeque<>();
    private final java.util.List<Long> refusals = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    StricterLimit(int limit, long windowMs) {
      this.limit = limit;
      this.windowMs = windowMs;
    }

    @Override
    public String getName() {
      return "stricter-limit";
    }

    @Override
    public boolean applyGlobally() {
      return true;
    }

    /** When requests were refused (ms). */
    java.util.List<Long> refusals() {
      return java.util.List.copyOf(refusals);
    }

    @Override
    public synchronized ResponseDefinition transform(ServeEvent event) {
      long now = event.getRequest().getLoggedDate().getTime();
      while (!arrivals.isEmpty() && arrivals.peekFirst() <= now - windowMs) {
        arrivals.removeFirst();
      }
      if (arrivals.size() >= limit) {
        refusals.add(now);
        return ResponseDefinitionBuilder.responseDefinition().withStatus(429)
            .withHeader("Content-Type", "application/json").withHeader("Retry-After", "1")
            .withBody(MangaDexApi.resource("error-429.json")).build();
      }
      arrivals.addLast(now);
      return event.getResponseDefinition();
    }
  }

  /** The most of {@code times} (ms) within any window of {@code windowMs}. */
  static int mostWithin(List<Long> times, long windowMs) {
    return MangaDexApi.mostWithin(times.stream().sorted().toList(), windowMs);
  }
}
