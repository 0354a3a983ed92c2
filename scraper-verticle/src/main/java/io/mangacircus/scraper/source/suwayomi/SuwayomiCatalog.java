package io.mangacircus.scraper.source.suwayomi;

import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.SourceHttp;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

/**
 * The sources a Suwayomi server has installed (one per installed extension and language, plus its Local source), read
 * with its {@code sources} query through the same transport, credentials and error reading as the bridge
 * ({@link SuwayomiServer}), so an operator can pick the {@code sourceId} of a {@code suwayomi} source. Reads nothing
 * else and changes nothing on the server.
 */
public final class SuwayomiCatalog {

  /**
   * One installed source as the {@code sources} query answers it ({@code graphql/types/SourceType.kt}).
   *
   * @param id the source id ({@code LongString}: digits, sent as a JSON string)
   * @param lang the language its chapters are in, as Suwayomi writes it ({@code en}, {@code pt-BR}, {@code all})
   * @param displayName Suwayomi's own label, usually {@code "Name (lang)"}
   * @param nsfw Suwayomi's {@code isNsfw}
   * @param extensionPkgName the package of the extension that provides it; null for the Local source
   */
  public record InstalledSource(String id, String name, String lang, String displayName, boolean nsfw,
      String extensionPkgName) {
  }

  private SuwayomiCatalog() {
  }

  /**
   * Every installed source, in the server's order.
   *
   * @param baseUrl the server's address, its {@code webUISubpath} included; a trailing slash is ignored
   * @param credentials how to authenticate ({@link SuwayomiOptions#credentials}); its {@code sourceId} is not used
   * @param timeout for the one request
   * @return the sources, or the failure: {@link FetchOutcome.NetworkError} when the server cannot be reached,
   *     {@link FetchOutcome.AccessDenied} (401) for missing or wrong credentials, {@link FetchOutcome.NotFound} or
   *     {@link FetchOutcome.ParseError} when the address answers but not as a Suwayomi server does
   */
  public static Future<FetchOutcome<List<InstalledSource>>> installedSources(WebClient client, String baseUrl,
      SuwayomiOptions credentials, Duration timeout) {
    SourceHttp http = new SourceHttp(client, InstantSource.system(), SourceConfig.DEFAULT_CHALLENGE_MARKERS);
    SuwayomiServer server = new SuwayomiServer("suwayomi-sources", SuwayomiServer.withoutTrailingSlash(baseUrl),
        credentials, http, timeout.toMillis(), timeout.toMillis());
    String what = "the list of installed sources of the Suwayomi server";
    return server.graphql("InstalledSources", SuwayomiOperations.INSTALLED_SOURCES, new JsonObject(), what)
        .map(outcome -> outcome.ok() ? read(outcome.value(), what) : outcome.failure());
  }

  /** {@code data.sources.nodes[]}; a node without a string id of digits is not Suwayomi's answer. */
  static FetchOutcome<List<InstalledSource>> read(JsonObject data, String what) {
    FetchOutcome<JsonObject> sources = SuwayomiJson.object(data, "sources", what);
    if (!sources.ok()) {
      return sources.failure();
    }
    FetchOutcome<JsonArray> nodes = SuwayomiJson.array(sources.value(), "nodes", what);
    if (!nodes.ok()) {
      return nodes.failure();
    }
    List<InstalledSource> installed = new ArrayList<>();
    for (Object node : nodes.value()) {
      if (!(node instanceof JsonObject source) || !(source.getValue("id") instanceof String id)
          || !id.matches("-?\\d{1,19}")) {
        return new FetchOutcome.ParseError<>(what + ": a source of the answer has no id of digits");
      }
      Object extension = source.getValue("extension");
      installed.add(new InstalledSource(id, source.getString("name", ""), source.getString("lang", ""),
          source.getString("displayName", ""), Boolean.TRUE.equals(source.getValue("isNsfw")),
          extension instanceof JsonObject e ? e.getString("pkgName") : null));
    }
    return new FetchOutcome.Ok<>(installed);
  }
}
