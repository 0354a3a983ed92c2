package io.mangacircus.scraper.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.scraper.ScraperConfig.ProxyConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a source's proxy is read from its configuration and the default, and every way a bad one is refused. */
class SourceProxyTest {

  private static final String SECRET = "pw-0f3c9a";
  private static final String KEY = "scraper.sources.shelf";
  private static final Function<String, String> ENV = Map.of("SHELF_PROXY_PASSWORD", SECRET)::get;

  @TempDir
  Path dir;

  private static ProxyConfig proxy(String url) {
    return new ProxyConfig(url, null, null, null, null, false);
  }

  private SourceProxy read(ProxyConfig own, ProxyConfig fallback) {
    return SourceProxy.of(KEY, own, fallback, ENV, dir);
  }

  private AbstractThrowableAssert<?, ? extends Throwable> refused(ProxyConfig own, String key) {
    return assertThatThrownBy(() -> read(own, null)).isInstanceOf(InvalidConfigException.class)
        .satisfies(e -> assertThat(((InvalidConfigException) e).key()).isEqualTo(key));
  }

  @Test
  void aSourcesOwnProxyReplacesTheDefaultAndNoneMeansDirect() {
    ProxyConfig fallback = proxy("http://10.0.0.1:3128");

    assertThat(read(null, fallback)).isEqualTo(new SourceProxy(SourceProxy.Scheme.HTTP, "10.0.0.1", 3128, null, null,
        List.of()));
    assertThat(read(proxy("socks5://127.0.0.1:1080"), fallback).scheme()).isEqualTo(SourceProxy.Scheme.SOCKS5);
    assertThat(read(ProxyConfig.none(), fallback)).isNull();
    assertThat(read(null, null)).isNull();
  }

  @Test
  void thePasswordComesFromTheEnvironmentOrAFileAndShowsInNoDescription() throws Exception {
    Files.writeString(dir.resolve("proxy-password"), SECRET + "\n");

    SourceProxy fromEnv = read(new ProxyConfig("http://127.0.0.1:3128", "reader", "SHELF_PROXY_PASSWORD", null,
        List.of("*.example.org"), false), null);
    SourceProxy fromFile = read(new ProxyConfig("socks5://127.0.0.1:1080", "reader", null, "proxy-password", null,
        false), null);

    assertThat(fromEnv.password()).isEqualTo(SECRET);
    assertThat(fromEnv.noProxy()).containsExactly("*.example.org");
    assertThat(fromFile.password()).isEqualTo(SECRET);
    assertThat(fromEnv.toString()).isEqualTo("http://127.0.0.1:3128 (with credentials), direct to [*.example.org]");
    assertThat(fromFile.toString()).doesNotContain(SECRET).doesNotContain("reader");
  }

  @Test
  void aPasswordWrittenInTheConfigurationIsRefusedWithoutBeingRepeated() throws Exception {
    SourceConfig source = new ObjectMapper().readValue("{\"type\": \"demo\", \"proxy\": {\"url\": "
        + "\"http://127.0.0.1:3128\", \"username\": \"reader\", \"password\": \"" + SECRET + "\"}}",
        SourceConfig.class);

    assertThat(source.toString()).doesNotContain(SECRET).doesNotContain("reader");
    refused(source.proxy(), KEY + ".proxy.password").hasMessageNotContaining(SECRET)
        .hasMessageContaining("passwordEnv");
  }

  @Test
  void credentialsInTheUrlAreRefusedWithoutBeingRepeated() {
    refused(proxy("http://reader:" + SECRET + "@127.0.0.1:3128"), KEY + ".proxy.url")
        .hasMessageNotContaining(SECRET).hasMessageContaining("must not carry credentials");
    assertThat(proxy("http://reader:" + SECRET + "@127.0.0.1:3128").toString()).doesNotContain(SECRET);
  }

  @Test
  void badValuesAreRefusedNamingTheirFullKey() {
    refused(proxy("https://127.0.0.1:3128"), KEY + ".proxy.url").hasMessageContaining("TLS");
    refused(proxy("ftp://127.0.0.1:21"), KEY + ".proxy.url").hasMessageContaining("socks5://host:port");
    refused(proxy("http://127.0.0.1"), KEY + ".proxy.url").hasMessageContaining("a host and a port");
    refused(proxy("http://127.0.0.1:3128/path"), KEY + ".proxy.url");
    refused(new ProxyConfig("http://127.0.0.1:3128", "reader", "UNSET_VARIABLE", null, null, false),
        KEY + ".proxy.passwordEnv").hasMessageContaining("UNSET_VARIABLE");
    refused(new ProxyConfig("http://127.0.0.1:3128", "reader", null, "missing-file", null, false),
        KEY + ".proxy.passwordFile");
    refused(new ProxyConfig("http://127.0.0.1:3128", "reader", "SHELF_PROXY_PASSWORD", "missing-file", null, false),
        KEY + ".proxy.passwordFile").hasMessageContaining("not both");
    refused(new ProxyConfig("http://127.0.0.1:3128", "reader", null, null, null, false), KEY + ".proxy.passwordEnv");
    refused(new ProxyConfig("http://127.0.0.1:3128", null, "SHELF_PROXY_PASSWORD", null, null, false),
        KEY + ".proxy.username");
    refused(new ProxyConfig("http://127.0.0.1:3128", null, null, null, List.of("ok.example.org", "not a host"), false),
        KEY + ".proxy.noProxy[1]");
    assertThatThrownBy(() -> read(null, proxy("socks4://127.0.0.1:1080"))).isInstanceOf(InvalidConfigException.class)
        .satisfies(e -> assertThat(((InvalidConfigException) e).key()).isEqualTo("scraper.proxy.url"));
  }

  @Test
  void aSourcesProxyIsResolvedWithItAndKeptInItsEffectiveSettings() {
    ResolvedSource resolved = SourceTypes.resolve("shelf", new SourceConfig("demo", "http://127.0.0.1:8090", 0, 0),
        proxy("socks5://127.0.0.1:1080"), ENV, dir);
    ResolvedSource own = SourceTypes.resolve("shelf", new SourceConfig("demo", "http://127.0.0.1:8090", 0, 0)
        .withProxy(ProxyConfig.none()), proxy("socks5://127.0.0.1:1080"), ENV, dir);

    assertThat(resolved.proxy()).isEqualTo(new SourceProxy(SourceProxy.Scheme.SOCKS5, "127.0.0.1", 1080, null, null,
        List.of()));
    assertThat(own.proxy()).isNull();
    assertThat(own.config().proxy()).isEqualTo(ProxyConfig.none());
  }
}
