package io.mangacircus.launcher.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.HexFormat;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which addresses count as public: every internal range by IPv4 and IPv6, and IPv4 hidden inside IPv6. */
class PublicAddressesTest {

  private static Optional<String> kind(String literal) throws Exception {
    return PublicAddresses.internalKind(InetAddress.getByName(literal));
  }

  /** An IPv6 address kept as IPv6 when it embeds IPv4 (the JVM turns {@code ::ffff:a.b.c.d} literals into IPv4). */
  private static Optional<String> kind6(String hex) throws Exception {
    return PublicAddresses.internalKind(Inet6Address.getByAddress(null, HexFormat.of().parseHex(hex), -1));
  }

  @Test
  void everyInternalIpv4RangeIsNamedAndItsNeighboursArePublic() throws Exception {
    assertThat(kind("127.0.0.1")).contains("a loopback address");
    assertThat(kind("127.255.255.254")).contains("a loopback address");
    assertThat(kind("0.0.0.0")).contains("an unspecified address (0.0.0.0/8)");
    assertThat(kind("0.1.2.3")).contains("an unspecified address (0.0.0.0/8)");
    assertThat(kind("10.0.0.1")).contains("a private address (RFC 1918)");
    assertThat(kind("172.16.0.1")).contains("a private address (RFC 1918)");
    assertThat(kind("172.31.255.255")).contains("a private address (RFC 1918)");
    assertThat(kind("192.168.1.10")).contains("a private address (RFC 1918)");
    assertThat(kind("100.64.0.1")).contains("a shared carrier-grade NAT address (100.64.0.0/10)");
    assertThat(kind("100.127.255.255")).contains("a shared carrier-grade NAT address (100.64.0.0/10)");
    assertThat(kind("169.254.169.254")).contains("a link-local address");
    assertThat(kind("224.0.0.1")).contains("a multicast address");
    assertThat(kind("239.255.255.250")).contains("a multicast address");
    assertThat(kind("240.0.0.1")).contains("a reserved or broadcast address");
    assertThat(kind("255.255.255.255")).contains("a reserved or broadcast address");

    for (String neighbour : new String[] {"1.1.1.1", "8.8.8.8", "9.255.255.255", "11.0.0.0", "172.15.255.255",
        "172.32.0.0", "192.167.255.255", "192.169.0.0", "100.63.255.255", "100.128.0.0", "169.253.255.255",
        "169.255.0.0", "126.255.255.255", "128.0.0.0", "223.255.255.255"}) {
      assertThat(kind(neighbour)).as(neighbour).isEmpty();
      assertThat(PublicAddresses.isPublic(InetAddress.getByName(neighbour))).as(neighbour).isTrue();
    }
  }

  @Test
  void everyInternalIpv6RangeIsNamedAndGlobalUnicastIsPublic() throws Exception {
    assertThat(kind("::1")).contains("a loopback address");
    assertThat(kind("::")).contains("the unspecified address (::)");
    assertThat(kind("fe80::1")).contains("a link-local address");
    assertThat(kind("febf:ffff::1")).contains("a link-local address");
    assertThat(kind("fec0::1")).contains("a site-local address (fec0::/10)");
    assertThat(kind("fc00::1")).contains("a unique-local address (fc00::/7)");
    assertThat(kind("fd12:3456:789a::1")).contains("a unique-local address (fc00::/7)");
    assertThat(kind("ff02::1")).contains("a multicast address");
    assertThat(kind("ff05::1:3")).contains("a multicast address");

    assertThat(kind("2606:4700:4700::1111")).isEmpty();
    assertThat(kind("2001:db8::1")).as("documentation range: not internal, never routed").isEmpty();
    assertThat(kind("fbff::1")).isEmpty();
    assertThat(kind("fe00::1")).isEmpty();
  }

  @Test
  void anIpv6AddressThatCarriesAnInternalIpv4AddressIsWhatItCarries() throws Exception {
    assertThat(kind("::ffff:127.0.0.1")).as("the JVM reads this literal as IPv4").contains("a loopback address");
    assertThat(kind6("00000000000000000000ffff7f000001")).contains("a loopback address in IPv4-mapped form");
    assertThat(kind6("00000000000000000000ffffa9fea9fe")).contains("a link-local address in IPv4-mapped form");
    assertThat(kind6("00000000000000000000ffff0a000001")).contains("a private address (RFC 1918) in IPv4-mapped form");
    assertThat(kind6("00000000000000000000ffff08080808")).as("::ffff:8.8.8.8").isEmpty();
    assertThat(kind6("0000000000000000000000000a000001")).contains("a private address (RFC 1918) in IPv4-compatible "
        + "form");
    assertThat(kind6("00000000000000000000000008080808")).contains("a deprecated IPv4-compatible address");
    assertThat(kind6("0064ff9b0000000000000000c0a80001")).contains("a private address (RFC 1918) in NAT64 form");
    assertThat(kind6("0064ff9b000000000000000008080808")).as("64:ff9b::8.8.8.8").isEmpty();
    assertThat(kind6("20027f00000100000000000000000000")).contains("a loopback address in 6to4 form");
    assertThat(kind6("20020808080800000000000000000000")).as("6to4 of 8.8.8.8").isEmpty();
  }
}
