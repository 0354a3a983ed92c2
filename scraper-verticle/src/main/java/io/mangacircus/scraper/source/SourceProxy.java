package io.mangacircus.scraper.source;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.scraper.ScraperConfig.ProxyConfig;
import io.mangacircus.support.config.ConfigSecrets;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The outbound proxy one source's requests go through, read and checked from its configuration (docs/sources.md,
 * "Outbound proxy"): a source's own {@code proxy} replaces {@code scraper.proxy}; the password comes from the
 * environment or a file only. Never changed while running. Its password is in no message and no {@link #toString}.
 *
 * @param scheme how the proxy is spoken to
 * @param username the proxy user; null without authentication
 * @param password the proxy password; null without authentication
 * @param noProxy hosts reached directly (exact names or {@code *} patterns)
 */
public record SourceProxy(Scheme scheme, String host, int port, String username, String password,
    List<String> noProxy) {

  /** The proxy protocols this version speaks. */
  public enum Scheme {
    /** An HTTP proxy: plain {@code http://} requests forwarded whole, {@code https://} ones tunnelled by CONNECT. */
    HTTP,
    /** A SOCKS5 proxy (RFC 1928), with username and password authentication (RFC 1929) when a user is set. */
    SOCKS5
  }

  public SourceProxy {
    noProxy = List.copyOf(noProxy);
  }

  /**
   * The proxy of one source: its own when it names one ({@code "url": "none"}: none at all), else the default.
   *
   * @param sourceKey the source's key, e.g. {@code scraper.sources.shelf}
   * @param environment the process environment, by variable name
   * @param workingDir where a relative {@code passwordFile} starts
   * @return null when the source uses no proxy
   * @throws InvalidConfigException naming the full key of the value that is wrong (never its secret)
   */
  public static SourceProxy of(String sourceKey, ProxyConfig own, ProxyConfig fallback,
      Function<String, String> environment, Path workingDir) {
    if (own != null) {
      return of(sourceKey + ".proxy", own, environment, workingDir);
    }
    return fallback == null ? null : of("scraper.proxy", fallback, environment, workingDir);
  }

  /**
   * One configured proxy, read and checked.
   *
   * @param key the proxy's own key, e.g. {@code scraper.proxy}
   * @return null for {@code "url": "none"}
   * @throws InvalidConfigException naming {@code <key>.<field>}
   */
  public static SourceProxy of(String key, ProxyConfig config, Function<String, String> environment, Path workingDir) {
    if (config.passwordInline()) {
      throw new InvalidConfigException(key + ".password", "a proxy password is never written in the configuration: "
          + "put it in an environment variable named by passwordEnv, or in a file named by passwordFile");
    }
    String url = config.url() == null ? "" : config.url().trim();
    if (config.saysNone()) {
      return null;
    }
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new InvalidConfigException(key + ".url", "must be http://host:port or socks5://host:port (or \""
          + ProxyConfig.NONE + "\" on a source for no proxy)" + (url.contains("@") ? "" : ", got \"" + url + "\""));
    }
    if (uri.getRawUserInfo() != null || url.contains("@")) {
      throw new InvalidConfigException(key + ".url", "must not carry credentials (user:password@): give the user as "
          + "username and the password through passwordEnv or passwordFile");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    Scheme kind = switch (scheme) {
      case "http" -> Scheme.HTTP;
      case "socks5" -> Scheme.SOCKS5;
      case "https" -> throw new InvalidConfigException(key + ".url", "a proxy reached over TLS (https://) is not "
          + "supported by this version's HTTP client; use http:// (https:// sites are still tunnelled end to end "
          + "through it with CONNECT) or socks5://");
      default -> throw new InvalidConfigException(key + ".url", "must be http://host:port or socks5://host:port (or \""
          + ProxyConfig.NONE + "\" on a source for no proxy), got \"" + url + "\"");
    };
    if (uri.getHost() == null || uri.getPort() < 1 || uri.getPort() > 65_535) {
      throw new InvalidConfigException(key + ".url", "must name a host and a port, e.g. " + scheme
          + "://127.0.0.1:" + (kind == Scheme.HTTP ? "3128" : "1080") + ", got \"" + url + "\"");
    }
    if ((uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !"/".equals(uri.getRawPath()))
        || uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw new InvalidConfigException(key + ".url", "must be only scheme, host and port, got \"" + url + "\"");
    }
    String username = config.username();
    String password = password(key, config, environment, workingDir);
    if (username != null && username.isBlank()) {
      throw new InvalidConfigException(key + ".username", "must not be empty (leave it out for no authentication)");
    }
    if (username == null && password != null) {
      throw new InvalidConfigException(key + ".username", "is required when a password is given");
    }
    if (username != null && password == null) {
      throw new InvalidConfigException(key + ".passwordEnv", "or passwordFile is required with a username");
    }
    List<String> noProxy = config.noProxy();
    for (int i = 0; i < noProxy.size(); i++) {
      String host = noProxy.get(i);
      if (host == null || !host.matches("[A-Za-z0-9*._:\\[\\]-]+")) {
        throw new InvalidConfigException(key + ".noProxy[" + i + "]", "must be a host name, an address or a pattern "
            + "with * such as *.example.org, got \"" + host + "\"");
      }
    }
    return new SourceProxy(kind, uri.getHost(), uri.getPort(), username, password, noProxy);
  }

  private static String password(String key, ProxyConfig config, Function<String, String> environment,
      Path workingDir) {
    return ConfigSecrets.read(key + ".passwordEnv", config.passwordEnv(), key + ".passwordFile", config.passwordFile(),
        workingDir, environment).orElse(null);
  }

  /** Whether requests carry proxy credentials. */
  public boolean authenticated() {
    return username != null;
  }

  /** Scheme, host and port, and whether credentials are sent: never the user or the password. */
  @Override
  public String toString() {
    return scheme.name().toLowerCase(Locale.ROOT) + "://" + host + ":" + port
        + (authenticated() ? " (with credentials)" : "") + (noProxy.isEmpty() ? "" : ", direct to " + noProxy);
  }
}
