package io.mangacircus.scraper.source;

import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.client.impl.WebClientInternal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What every source shares: the honest User-Agent and the HTTP client adapters are built on. */
public final class Sources {

  /** The User-Agent every source request carries: honest, never spoofed. */
  public static final String USER_AGENT = "MangaCircus/0.1 (self-hosted manga reader)";

  private Sources() {
  }

  /**
   * An HTTP client for the sources' adapters; {@link SourceHttp} reads its answers' {@code Content-Length} before their
   * bodies.
   */
  public static WebClient client(Vertx vertx) {
    WebClient client = WebClient.create(vertx, new WebClientOptions().setUserAgent(USER_AGENT)
        .setConnectTimeout(10_000).setFollowRedirects(true));
    ((WebClientInternal) client).addInterceptor(SourceHttp::declaredLength);
    return client;
  }

  /** The series-folder prefixes of resolved sources, by source name (sources without one left out). */
  public static Map<String, String> seriesFolderPrefixes(List<ResolvedSource> sources) {
    Map<String, String> prefixes = new LinkedHashMap<>();
    sources.stream().filter(s -> !s.seriesFolderPrefix().isEmpty())
        .forEach(s -> prefixes.put(s.name(), s.seriesFolderPrefix()));
    return prefixes;
  }
}
