package io.mangacircus.launcher.notify;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Optional;

/**
 * Which IP addresses are public, and what any other one is: loopback, unspecified, link-local, private (RFC 1918,
 * IPv6 unique-local and site-local), shared carrier-grade NAT, multicast, reserved or broadcast; an IPv6 address
 * that embeds an IPv4 one (IPv4-mapped, IPv4-compatible, NAT64, 6to4) is what its IPv4 address is. Does no name lookup.
 */
public final class PublicAddresses {

  private PublicAddresses() {
  }

  /** Whether {@code address} is public, that is reachable on the internet and nothing of this host or its network. */
  public static boolean isPublic(InetAddress address) {
    return internalKind(address).isEmpty();
  }

  /** What kind of internal address {@code address} is ("a loopback address", ...), or empty when it is public. */
  public static Optional<String> internalKind(InetAddress address) {
    byte[] bytes = address.getAddress();
    if (address instanceof Inet4Address) {
      return ipv4(bytes);
    }
    if (address instanceof Inet6Address) {
      return ipv6(bytes);
    }
    return Optional.of("an address of an unknown family");
  }

  private static Optional<String> ipv4(byte[] b) {
    int first = b[0] & 0xff;
    int second = b[1] & 0xff;
    if (first == 0) {
      // Linux connects 0.0.0.0 (and the rest of "this network") to the host itself.
      return Optional.of("an unspecified address (0.0.0.0/8)");
    }
    if (first == 127) {
      return Optional.of("a loopback address");
    }
    if (first == 10 || first == 172 && second >= 16 && second <= 31 || first == 192 && second == 168) {
      return Optional.of("a private address (RFC 1918)");
    }
    if (first == 100 && second >= 64 && second <= 127) {
      return Optional.of("a shared carrier-grade NAT address (100.64.0.0/10)");
    }
    if (first == 169 && second == 254) {
      // Cloud metadata services (169.254.169.254) answer there.
      return Optional.of("a link-local address");
    }
    if (first >= 224 && first <= 239) {
      return Optional.of("a multicast address");
    }
    if (first >= 240) {
      return Optional.of("a reserved or broadcast address");
    }
    return Optional.empty();
  }

  private static Optional<String> ipv6(byte[] b) {
    if (zeros(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
      return embedded(b, 12, "IPv4-mapped");
    }
    if (zeros(b, 0, 12)) {
      if (zeros(b, 12, 15) && b[15] == 0) {
        return Optional.of("the unspecified address (::)");
      }
      if (zeros(b, 12, 15) && b[15] == 1) {
        return Optional.of("a loopback address");
      }
      // The deprecated IPv4-compatible form ::a.b.c.d is nowhere public.
      return embedded(b, 12, "IPv4-compatible").or(() -> Optional.of("a deprecated IPv4-compatible address"));
    }
    if (b[0] == 0 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b && zeros(b, 4, 12)) {
      // NAT64 (64:ff9b::/96): the gateway connects to the embedded IPv4 address.
      return embedded(b, 12, "NAT64");
    }
    if (b[0] == 0x20 && b[1] == 0x02) {
      // 6to4 (2002::/16): relays carry it to the IPv4 address in bytes 2-5.
      return embedded(b, 2, "6to4");
    }
    int first = b[0] & 0xff;
    int second = b[1] & 0xff;
    if (first == 0xff) {
      return Optional.of("a multicast address");
    }
    if (first == 0xfe && (second & 0xc0) == 0x80) {
      return Optional.of("a link-local address");
    }
    if (first == 0xfe && (second & 0xc0) == 0xc0) {
      return Optional.of("a site-local address (fec0::/10)");
    }
    if ((first & 0xfe) == 0xfc) {
      return Optional.of("a unique-local address (fc00::/7)");
    }
    return Optional.empty();
  }

  private static Optional<String> embedded(byte[] b, int at, String form) {
    byte[] v4 = {b[at], b[at + 1], b[at + 2], b[at + 3]};
    return ipv4(v4).map(kind -> kind + " in " + form + " form");
  }

  private static boolean zeros(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
