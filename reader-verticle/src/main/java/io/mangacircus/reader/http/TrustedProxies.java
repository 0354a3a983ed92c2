package io.mangacircus.reader.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The reverse proxies whose {@code X-Forwarded-*} headers are believed ({@code reader.trustProxy}: addresses or CIDR
 * ranges), and the client address behind them: the nearest {@code X-Forwarded-For} hop that is not itself a trusted
 * proxy. A peer that is not a trusted proxy is the client, whatever it sends, so nobody picks the address that the
 * login throttle counts against. IP literals only: a host name would mean a DNS look-up per request.
 */
public final class TrustedProxies {

  private static final Pattern IP_LITERAL = Pattern.compile("[0-9A-Fa-f:.]+");

  private record Range(byte[] address, int bits) {
    boolean contains(byte[] other) {
      if (other.length != address.length) {
        return false;
      }
      for (int bit = 0; bit < bits; bit++) {
        int mask = 0x80 >>> (bit % 8);
        if ((address[bit / 8] & mask) != (other[bit / 8] & mask)) {
          return false;
        }
      }
      return true;
    }
  }

  private final List<Range> ranges;

  private TrustedProxies(List<Range> ranges) {
    this.ranges = List.copyOf(ranges);
  }

  /** Trusts nobody: the socket's peer is always the client. */
  public static TrustedProxies none() {
    return new TrustedProxies(List.of());
  }

  /**
   * The proxies {@code entries} name: IPv4 or IPv6 addresses ({@code 127.0.0.1}, {@code ::1}) or ranges
   * ({@code 172.16.0.0/12}, {@code fd00::/8}).
   *
   * @throws IllegalArgumentException naming the entry that is neither
   */
  public static TrustedProxies of(List<String> entries) {
    List<Range> ranges = new ArrayList<>();
    for (String entry : entries) {
      String text = entry == null ? "" : entry.trim();
      int slash = text.indexOf('/');
      byte[] address = slash < 0 ? parse(text) : parse(text.substring(0, slash));
      if (address == null) {
        throw new IllegalArgumentException("\"" + entry + "\" is not an IP address or a range such as 172.16.0.0/12 "
            + "(host names are not accepted)");
      }
      int bits = address.length * 8;
      if (slash >= 0) {
        try {
          bits = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
          bits = -1;
        }
        if (bits < 0 || bits > address.length * 8) {
          throw new IllegalArgumentException("\"" + entry + "\": the prefix length must be between 0 and "
              + address.length * 8);
        }
      }
      ranges.add(new Range(address, bits));
    }
    return new TrustedProxies(ranges);
  }

  /** Whether any proxy is trusted at all. */
  public boolean any() {
    return !ranges.isEmpty();
  }

  /** Whether {@code peer} (an IP literal) is a trusted proxy. */
  public boolean trusts(String peer) {
    byte[] address = parse(peer);
    return address != null && ranges.stream().anyMatch(range -> range.contains(address));
  }

  /**
   * The client's address: {@code peer} itself unless it is a trusted proxy; then, walking {@code forwardedFor} (every
   * {@code X-Forwarded-For} header, in order) from the nearest hop back, the first hop that is not a trusted proxy.
   * A malformed hop stops the walk at the hop before it (the client cannot be told apart from its own claims there).
   */
  public String client(String peer, List<String> forwardedFor) {
    if (!trusts(peer)) {
      return peer;
    }
    List<String> hops = new ArrayList<>();
    for (String header : forwardedFor) {
      for (String hop : header.split(",")) {
        hops.add(hop.trim());
      }
    }
    String nearest = peer;
    for (int i = hops.size() - 1; i >= 0; i--) {
      byte[] address = parse(hops.get(i));
      if (address == null) {
        return nearest;
      }
      nearest = normalized(address);
      if (!trusts(nearest)) {
        return nearest;
      }
    }
    return nearest;
  }

  /** The bytes of an IP literal (IPv6 possibly in brackets), or null when it is not one. */
  private static byte[] parse(String text) {
    if (text == null) {
      return null;
    }
    String literal = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
    boolean v4 = literal.indexOf(':') < 0;
    if (literal.isEmpty() || !IP_LITERAL.matcher(literal).matches()
        || v4 && !literal.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
      return null;
    }
    try {
      // An IP literal is parsed without any name look-up.
      return InetAddress.getByName(literal).getAddress();
    } catch (UnknownHostException e) {
      return null;
    }
  }

  private static String normalized(byte[] address) {
    try {
      return InetAddress.getByAddress(address).getHostAddress();
    } catch (UnknownHostException e) {
      throw new IllegalStateException("a parsed address has 4 or 16 bytes", e);
    }
  }
}
