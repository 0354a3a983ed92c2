package io.mangacircus.scraper.source;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.mangacircus.scraper.ScraperConfig;
import io.mangacircus.scraper.ScraperConfig.ProxyConfig;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.demosite.DemoFaults;
import io.mangacircus.scraper.demosite.DemoSite;
import io.mangacircus.scraper.demosite.SharedDemoCatalog;
import io.mangacircus.testing.proxy.TestHttpProxy;
import io.mangacircus.testing.proxy.TestSocks5Proxy;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Sources behind real proxies on loopback (an HTTP proxy with CONNECT, a SOCKS5 proxy with username and password) in
 * front of the demo site: requests go through the source's own proxy with its credentials, a proxy's failure is a
 * network failure of that source alone, and the password shows nowhere.
 */
class SourceProxyIT {

  private static final String USER = "reader";
  private static final String HTTP_PASSWORD = "http-pw-5c81e07a";
  private static final String SOCKS_PASSWORD = "socks-pw-93d4b6f2";
  private static final String TITLE = "circus-nights";

  @TempDir
  static Path folder;

  private static Vertx vertx;
  private static DemoSite site;
  private static TestHttpProxy http;
  private static TestSocks5Proxy socks;
  private static Path httpPasswordFile;
  private static Path socksPasswordFile;

  private final List<SourceSet> started = new ArrayList<>();
  private final List<Circuits> circuits = new ArrayList<>();

  @BeforeAll
  static void startSiteAndProxies() throws Exception {
    vertx = Vertx.vertx();
    site = await(DemoSite.start(vertx, "127.0.0.1", 0, SharedDemoCatalog.CATALOG, new DemoFaults()));
    http = await(TestHttpProxy.start(vertx, USER, HTTP_PASSWORD));
    socks = TestSocks5Proxy.start(USER, SOCKS_PASSWORD);
    httpPasswordFile = Files.writeString(folder.resolve("http-proxy-password"), HTTP_PASSWORD + "\n");
    socksPasswordFile = Files.writeString(folder.resolve("socks-proxy-password"), SOCKS_PASSWORD + "\n");
  }

  @AfterAll
  static void stopAll() throws Exception {
    socks.close();
    await(http.close());
    await(site.close());
    await(vertx.close());
  }

  @AfterEach
  void closeSources() {
    started.forEach(SourceSet::close);
    circuits.forEach(Circuits::close);
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private static SourceConfig demo(String baseUrl, ProxyConfig proxy) {
    return new SourceConfig("demo", baseUrl, 0, 0).withProxy(proxy);
  }

  private static ProxyConfig proxy(String url, Path passwordFile, List<String> noProxy) {
    return new ProxyConfig(url, USER, null, passwordFile.toString(), noProxy, false);
  }

  private static ProxyConfig viaHttp() {
    return proxy("http://127.0.0.1:" + http.port(), httpPasswordFile, null);
  }

  /** The sources started as the scraper starts them, each behind its circuit (two failed requests open it). */
  private SourceSet start(Map<String, SourceConfig> sources, ProxyConfig defaultProxy) {
    ScraperConfig config = new ScraperConfig(0, true, 120, 50, 10, 10, new ScraperConfig.Recovery(50, 0),
        new ScraperConfig.Demo(false, 0, TITLE), sources, new ScraperConfig.Failures(300, 0, 1, 2, 300, 2, 60),
        new ScraperConfig.Stall(30, 900, 180), null, defaultProxy);
    Circuits breakers = new Circuits(vertx, sources.keySet(), config.failures());
    circuits.add(breakers);
    SourceSet set = SourceSet.resolve(sources, defaultProxy);
    set.startAdapters(vertx, InstantSource.system(), config, breakers::of);
    started.add(set);
    return set;
  }

  private static String basic(String password) {
    return "Basic " + Base64.getEncoder().encodeToString((USER + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aSourcesRequestsGoThroughItsHttpProxyWithItsCredentials() throws Exception {
    SourceSet sources = start(Map.of("behind-http", demo(site.baseUrl(), viaHttp())), null);
    int before = http.seen().size();

    FetchOutcome<TitleInfo> title = await(sources.metadata("behind-http").title(TITLE));

    assertThat(title.ok()).as(title.describe()).isTrue();
    assertThat(title.value().chapters()).isNotEmpty();
    assertThat(http.seen().subList(before, http.seen().size())).containsExactly(
        new TestHttpProxy.Seen("GET " + site.baseUrl() + "/series/" + TITLE, basic(HTTP_PASSWORD)));
  }

  @Test
  void anHttpsSiteIsTunnelledThroughTheHttpProxyWithItsCredentials() throws Exception {
    // The demo site speaks no TLS: the tunnel is made, the handshake inside it then fails.
    String https = "https://127.0.0.1:" + site.port();
    SourceSet sources = start(Map.of("behind-http", demo(https, viaHttp())), null);
    int before = http.seen().size();

    FetchOutcome<TitleInfo> title = await(sources.adapter("behind-http").title(TITLE));

    assertThat(title).isInstanceOf(FetchOutcome.NetworkError.class);
    assertThat(http.seen().subList(before, http.seen().size())).contains(
        new TestHttpProxy.Seen("CONNECT 127.0.0.1:" + site.port(), basic(HTTP_PASSWORD)));
  }

  @Test
  void aSourcesRequestsGoThroughItsSocks5ProxyWithItsCredentials() throws Exception {
    SourceSet sources = start(Map.of("behind-socks",
        demo(site.baseUrl(), proxy("socks5://127.0.0.1:" + socks.port(), socksPasswordFile, null))), null);
    int users = socks.users().size();
    int targets = socks.targets().size();
    long seriesRequests = site.requests("/series/" + TITLE);

    FetchOutcome<TitleInfo> title = await(sources.metadata("behind-socks").title(TITLE));

    assertThat(title.ok()).as(title.describe()).isTrue();
    assertThat(socks.users().subList(users, socks.users().size())).containsOnly(USER).isNotEmpty();
    assertThat(socks.targets().subList(targets, socks.targets().size())).containsOnly("127.0.0.1:" + site.port())
        .isNotEmpty();
    assertThat(site.requests("/series/" + TITLE)).isEqualTo(seriesRequests + 1);
  }

  @Test
  void wrongProxyCredentialsAreANetworkFailureAndNoPageIsFetched() throws Exception {
    Path wrong = Files.writeString(folder.resolve("wrong-password"), "not-the-password");
    Map<String, SourceConfig> configs = new LinkedHashMap<>();
    configs.put("wrong-http", demo(site.baseUrl(), proxy("http://127.0.0.1:" + http.port(), wrong, null)));
    configs.put("wrong-socks", demo(site.baseUrl(), proxy("socks5://127.0.0.1:" + socks.port(), wrong, null)));
    SourceSet sources = start(configs, null);
    long images = site.imageRequests();
    PageRef page = new PageRef(1, "001.jpg", site.baseUrl() + "/img/" + TITLE + "/c1/001.jpg");

    for (String name : configs.keySet()) {
      FetchOutcome<PageBytes> fetched = await(sources.adapter(name).page(page));
      assertThat(fetched).as(name + ": " + fetched.describe()).isInstanceOf(FetchOutcome.NetworkError.class);
    }
    assertThat(site.imageRequests()).as("no page request reached the site").isEqualTo(images);
  }

  @Test
  void aDeadProxyOpensOnlyTheCircuitOfTheSourceBehindIt() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    Map<String, SourceConfig> configs = new LinkedHashMap<>();
    configs.put("behind-dead", demo(site.baseUrl(), proxy("http://127.0.0.1:" + closedPort, httpPasswordFile, null)));
    configs.put("direct", demo(site.baseUrl(), null));
    SourceSet sources = start(configs, null);
    Circuits breakers = circuits.get(circuits.size() - 1);

    // circuitMaxFailures is 2: the circuit opens after two or three refused connections, whichever its count says.
    for (int i = 0; i < 3 && !"open".equals(breakers.state("behind-dead")); i++) {
      FetchOutcome<TitleInfo> refused = await(sources.metadata("behind-dead").title(TITLE));
      assertThat(refused).as(refused.describe()).isInstanceOf(FetchOutcome.NetworkError.class);
    }
    FetchOutcome<TitleInfo> direct = await(sources.metadata("direct").title(TITLE));

    assertThat(breakers.state("behind-dead")).isEqualTo("open");
    assertThat(await(sources.metadata("behind-dead").title(TITLE))).isInstanceOf(FetchOutcome.CircuitOpen.class);
    assertThat(direct.ok()).as(direct.describe()).isTrue();
    assertThat(breakers.state("direct")).isEqualTo("closed");
  }

  @Test
  void theDefaultProxyServesEverySourceButThoseThatSayNoneOrListTheHostInNoProxy() throws Exception {
    Map<String, SourceConfig> configs = new LinkedHashMap<>();
    configs.put("defaulted", demo(site.baseUrl(), null));
    configs.put("none", demo(site.baseUrl(), ProxyConfig.none()));
    configs.put("bypassed", demo(site.baseUrl(), proxy("socks5://127.0.0.1:" + socks.port(), socksPasswordFile,
        List.of("127.0.0.1"))));
    SourceSet sources = start(configs, viaHttp());
    int before = http.seen().size();
    int socksTargets = socks.targets().size();

    for (String name : configs.keySet()) {
      FetchOutcome<TitleInfo> title = await(sources.metadata(name).title(TITLE));
      assertThat(title.ok()).as(name + ": " + title.describe()).isTrue();
    }

    assertThat(http.seen().subList(before, http.seen().size())).as("only the source without a proxy of its own")
        .containsExactly(new TestHttpProxy.Seen("GET " + site.baseUrl() + "/series/" + TITLE, basic(HTTP_PASSWORD)));
    assertThat(socks.targets()).as("127.0.0.1 is in its noProxy list").hasSize(socksTargets);
  }

  @Test
  void proxyPasswordsAppearInNoLogLineAndNoOutcome() throws Exception {
    ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(
        org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    root.addAppender(lines);
    List<String> said = new ArrayList<>();
    try {
      Map<String, SourceConfig> configs = new LinkedHashMap<>();
      configs.put("good-http", demo(site.baseUrl(), viaHttp()));
      configs.put("good-socks", demo(site.baseUrl(), proxy("socks5://127.0.0.1:" + socks.port(), socksPasswordFile,
          null)));
      configs.put("bad-http", demo(site.baseUrl(), proxy("http://127.0.0.1:" + http.port(), socksPasswordFile, null)));
      configs.put("bad-socks", demo(site.baseUrl(), proxy("socks5://127.0.0.1:" + socks.port(), httpPasswordFile,
          null)));
      SourceSet sources = start(configs, null);
      for (String name : configs.keySet()) {
        said.add(await(sources.metadata(name).title(TITLE)).describe());
        said.add(await(sources.adapter(name).title(TITLE)).describe());
      }
      configs.values().forEach(config -> said.add(config.toString()));
      said.add(SourceProxy.of("scraper.sources.good-http", viaHttp(), null, System::getenv, folder).toString());
    } finally {
      root.detachAppender(lines);
    }
    lines.list.forEach(line -> {
      said.add(line.getFormattedMessage());
      if (line.getThrowableProxy() != null) {
        said.add(ThrowableProxyUtil.asString(line.getThrowableProxy()));
      }
    });

    assertThat(said).anyMatch(text -> text.contains("proxy"));
    assertThat(String.join("\n", said)).doesNotContain(HTTP_PASSWORD).doesNotContain(SOCKS_PASSWORD)
        .doesNotContain(basic(HTTP_PASSWORD).substring("Basic ".length()));
  }
}
