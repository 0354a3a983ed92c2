package io.mangacircus.testing;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A MangaDex on WireMock that ITs of every module share: answers shaped like the real API's (the files under
 * {@code mangadex/} beside this class), MangaDex@Home "nodes" serving real PNG and JPEG bytes ({@link TestImages}), and
 * the numbers the tests check in WireMock's request journal.
 */
public final class MangaDexApi {

  public static final String TITLE_ID = "8f3e1818-a015-491d-bd81-3addc4d7d56a";
  /** English chapter 1 (3 PNG pages). */
  public static final String CH1 = "2b5a7c2e-1111-4c1a-9a51-000000000001";
  /** English chapter 2 (3 JPEG pages); a second English chapter 2 from another group follows it in the feed. */
  public static final String CH2 = "2b5a7c2e-1111-4c1a-9a51-000000000005";

  /** What an at-home answer lists for a chapter. */
  public record AtHome(String chapterId, String hash, List<String> data, List<String> dataSaver, String fixture) {
  }

  public static final AtHome AT_HOME_1 = atHomeOf(CH1, "at-home-chapter-1.json");
  public static final AtHome AT_HOME_2 = atHomeOf(CH2, "at-home-chapter-5.json");

  private MangaDexApi() {
  }

  public static String resource(String name) {
    try (InputStream in = MangaDexApi.class.getResourceAsStream("/mangadex/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static AtHome atHomeOf(String chapterId, String fixture) {
    JsonObject chapter = new JsonObject(resource(fixture)).getJsonObject("chapter");
    return new AtHome(chapterId, chapter.getString("hash"), chapter.getJsonArray("data").stream()
        .map(String.class::cast).toList(), chapter.getJsonArray("dataSaver").stream().map(String.class::cast).toList(),
        fixture);
  }

  public static ResponseDefinitionBuilder json(int status, String body) {
    return aResponse().withStatus(status).withHeader("Content-Type", "application/json").withBody(body);
  }

  public static ResponseDefinitionBuilder fixture(String name) {
    return json(200, resource(name));
  }

  /** The at-home answer for a chapter, pointing at {@code node} (e.g. {@code http://127.0.0.1:1234/node-a}). */
  public static ResponseDefinitionBuilder atHome(AtHome atHome, String node) {
    return json(200, resource(atHome.fixture()).replace("{{node}}", node));
  }

  /**
   * {@code /manga/{id}} and its two-page English feed (the answers carry other languages too, and chapter 1.5 is
   * hosted elsewhere), with no chapter scheduled ({@link #stubScheduled}).
   */
  public static void stubTitle(WireMockServer api) {
    api.stubFor(get(urlPathEqualTo("/manga/" + TITLE_ID)).willReturn(fixture("manga.json")));
    stubScheduled(api, TITLE_ID, new JsonArray());
    for (int offset : new int[] {0, 4}) {
      api.stubFor(get(urlPathEqualTo("/manga/" + TITLE_ID + "/feed"))
          .withQueryParam("translatedLanguage[]", equalTo("en"))
          .withQueryParam("order[chapter]", equalTo("asc"))
          .withQueryParam("limit", equalTo("4"))
          .withQueryParam("offset", equalTo(String.valueOf(offset)))
          .willReturn(fixture("feed-offset-" + offset + ".json")));
    }
  }

  /**
   * What the feed of {@code titleId} answers for chapters released later ({@code includeFuturePublishAt=1}, which the
   * real API answers with future chapters only); ahead of the title's other feed stubs.
   */
  public static void stubScheduled(WireMockServer api, String titleId, JsonArray chapters) {
    api.stubFor(get(urlPathEqualTo("/manga/" + titleId + "/feed")).atPriority(1)
        .withQueryParam("includeFuturePublishAt", equalTo("1"))
        .willReturn(json(200, new JsonObject().put("result", "ok").put("response", "collection").put("data", chapters)
            .put("limit", 100).put("offset", 0).put("total", chapters.size()).encode())));
  }

  /** The page files of a chapter on a node, each served as real image bytes; returns what each file serves. */
  public static Map<String, byte[]> stubPages(WireMockServer api, String node, AtHome atHome, boolean dataSaver) {
    Map<String, byte[]> served = new LinkedHashMap<>();
    List<String> files = dataSaver ? atHome.dataSaver() : atHome.data();
    for (int i = 0; i < files.size(); i++) {
      String file = files.get(i);
      boolean png = file.endsWith(".png");
      byte[] bytes = TestImages.image(png ? "png" : "jpg", atHome.hash().hashCode() + i);
      served.put(file, bytes);
      api.stubFor(get(urlPathEqualTo(pagePath(node, atHome, file, dataSaver))).atPriority(1)
          .willReturn(aResponse().withStatus(200).withHeader("Content-Type", png ? "image/png" : "image/jpeg")
              .withBody(bytes)));
    }
    return served;
  }

  public static String pagePath(String node, AtHome atHome, String file, boolean dataSaver) {
    return "/" + node + (dataSaver ? "/data-saver/" : "/data/") + atHome.hash() + "/" + file;
  }

  // ---- the journal --------------------------------------------------------------------------------------------

  /** Every request WireMock received, oldest first. */
  public static List<LoggedRequest> journal(WireMockServer api) {
    List<LoggedRequest> requests = new ArrayList<>(api.getAllServeEvents().stream().map(ServeEvent::getRequest)
        .toList());
    requests.sort(Comparator.comparing(LoggedRequest::getLoggedDate));
    return requests;
  }

  /** A request's path without its query. */
  public static String path(LoggedRequest request) {
    String url = request.getUrl();
    int query = url.indexOf('?');
    return query < 0 ? url : url.substring(0, query);
  }

  /**
   * How requests were spread out in time.
   *
   * @param requests how many
   * @param minGapMs the shortest time between two consecutive requests
   * @param averageGapMs the mean time between two consecutive requests
   * @param mostInOneSecond the most requests that arrived within any one second
   */
  public record Spacing(int requests, long minGapMs, double averageGapMs, int mostInOneSecond) {
    @Override
    public String toString() {
      return String.format(java.util.Locale.ROOT, "%d requests, gaps min %d ms / average %.0f ms, at most %d in any 1 s",
          requests, minGapMs, averageGapMs, mostInOneSecond);
    }
  }

  public static Spacing spacing(List<LoggedRequest> requests) {
    List<Long> times = requests.stream().map(r -> r.getLoggedDate().getTime()).sorted().toList();
    long min = Long.MAX_VALUE;
    for (int i = 1; i < times.size(); i++) {
      min = Math.min(min, times.get(i) - times.get(i - 1));
    }
    double average = times.size() < 2 ? 0 : (times.get(times.size() - 1) - times.get(0)) / (double) (times.size() - 1);
    return new Spacing(times.size(), min, average, mostWithin(times, 1_000));
  }

  /** The most of {@code times} (ms, in any order) within any window of {@code windowMs}. */
  public static int mostWithin(List<Long> times, long windowMs) {
    List<Long> sorted = times.stream().sorted().toList();
    int most = 0;
    for (int i = 0; i < sorted.size(); i++) {
      int count = 0;
      for (int j = i; j < sorted.size() && sorted.get(j) < sorted.get(i) + windowMs; j++) {
        count++;
      }
      most = Math.max(most, count);
    }
    return most;
  }
}
