package io.mangacircus.scraper.source;

import io.vertx.core.Vertx;
import io.vertx.core.net.ProxyOptions;
import io.vertx.core.net.ProxyType;
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
    return client(vertx, null);
  }

  /**
   * As above, every request going through {@code proxy} (null: direct) but those to its {@code noProxy} hosts. A
   * proxy's failures (refused, timed out, credentials refused) are transport failures of the requests through it, so
   * they count for the circuit of the source that uses it and no other's.
   */
  public static WebClient client(Vertx vertx, SourceProxy proxy) {
    WebClientOptions options = new WebClientOptions().setUserAgent(USER_AGENT)
        .setConnectTimeout(10_000).setFollowRedirects(true);
    if (proxy != null) {
      options.setProxyOptions(new ProxyOptions()
          .setType(proxy.scheme() == SourceProxy.Scheme.SOCKS5 ? ProxyType.SOCKS5 : ProxyType.HTTP)
          .setHost(proxy.host()).setPort(proxy.port())
          .setUsername(proxy.username()).setPassword(proxy.password()));
      if (!proxy.noProxy().isEmpty()) {
        options.setNonProxyHosts(proxy.noProxy());
      }
    }
    WebClient client = WebClient.create(vertx, options);
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
