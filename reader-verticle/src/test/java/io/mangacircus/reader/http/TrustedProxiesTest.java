package io.mangacircus.reader.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TrustedProxiesTest {

  private final TrustedProxies proxies = TrustedProxies.of(List.of("127.0.0.1", "172.16.0.0/12", "::1"));

  @Test
  void aPeerThatIsNoTrustedProxyIsTheClientWhateverItForwards() {
    assertThat(proxies.client("203.0.113.9", List.of("198.51.100.1"))).isEqualTo("203.0.113.9");
    assertThat(TrustedProxies.none().client("127.0.0.1", List.of("198.51.100.1"))).isEqualTo("127.0.0.1");
  }

  @Test
  void behindATrustedProxyTheClientIsTheNearestHopThatIsNoTrustedProxy() {
    assertThat(proxies.client("127.0.0.1", List.of("198.51.100.1"))).isEqualTo("198.51.100.1");
    assertThat(proxies.client("127.0.0.1", List.of("6.6.6.6, 198.51.100.1, 172.20.0.3")))
        .as("what the client claimed before the proxies is ignored").isEqualTo("198.51.100.1");
    assertThat(proxies.client("127.0.0.1", List.of("6.6.6.6", "198.51.100.1"))).isEqualTo("198.51.100.1");
    assertThat(proxies.client("0:0:0:0:0:0:0:1", List.of("2001:db8::7"))).isEqualTo("2001:db8:0:0:0:0:0:7");
  }

  @Test
  void aMalformedHopStopsTheWalkAtTheHopBeforeIt() {
    assertThat(proxies.client("127.0.0.1", List.of("198.51.100.1, evil.example, 172.20.0.3")))
        .isEqualTo("172.20.0.3");
    assertThat(proxies.client("127.0.0.1", List.of())).as("no header: the proxy itself").isEqualTo("127.0.0.1");
  }

  @Test
  void onlyIpAddressesAndRangesAreAccepted() {
    assertThatThrownBy(() -> TrustedProxies.of(List.of("proxy.example.org"))).hasMessageContaining("proxy.example.org")
        .hasMessageContaining("host names are not accepted");
    assertThatThrownBy(() -> TrustedProxies.of(List.of("10.0.0.0/33"))).hasMessageContaining("between 0 and 32");
    assertThat(TrustedProxies.of(List.of("10.0.0.0/8")).trusts("10.200.3.4")).isTrue();
    assertThat(TrustedProxies.of(List.of("10.0.0.0/8")).trusts("11.0.0.1")).isFalse();
  }
}
