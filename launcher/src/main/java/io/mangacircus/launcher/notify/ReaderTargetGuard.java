package io.mangacircus.launcher.notify;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Decides whether a reader's alert target may be reached, and at which address: its host must be one the admin allows
 * ({@code notifications.readerAlertAllowedHosts}), or every address it resolves to must be public
 * ({@link PublicAddresses}). The answer names the address that was checked, so that the request connects there and a
 * name that resolves differently a moment later (DNS rebinding) cannot move it. Resolves names (blocking): call it off
 * the event loop. The operator's own destinations are not its business. Reasons name no host or address, so that they
 * may be logged.
 */
public final class ReaderTargetGuard {

  /** Looks a host name up; a literal IP address resolves to itself. */
  @FunctionalInterface
  public interface HostResolver {

    /** Every address of {@code host}; throws when it has none. */
    List<InetAddress> resolve(String host) throws UnknownHostException;

    /** The JVM's resolver ({@code /etc/hosts}, then DNS). */
    static HostResolver system() {
      return host -> List.of(InetAddress.getAllByName(host));
    }
  }

  /** What the guard decided about one URL. */
  public sealed interface Verdict permits Refused, Reach {
  }

  /** Not to be reached; {@code reason} says why in words that name no host or address. */
  public record Refused(String reason) implements Verdict {
  }

  /**
   * Reach the target by connecting to {@code address} (an IP address, checked) on {@code port}, asking for
   * {@code requestUri}.
   *
   * @param virtualHost the URL's host, for the {@code Host} header and TLS's server name (an IPv6 address in
   *     brackets), or null when it is a dotted IPv4 address, the same as {@code address}
   */
  public record Reach(boolean ssl, String address, int port, String requestUri, String virtualHost)
      implements Verdict {
  }

  private final Set<String> allowedHosts;
  private final HostResolver resolver;

  /** @param allowedHosts hosts a reader's target may name whatever they resolve to, as written in URLs */
  public ReaderTargetGuard(Collection<String> allowedHosts, HostResolver resolver) {
    this.allowedHosts = allowedHosts.stream().map(ReaderTargetGuard::normalised)
        .collect(Collectors.toUnmodifiableSet());
    this.resolver = resolver;
  }

  /** The host as compared with the allowed ones: lower case, without IPv6 brackets or a final dot. */
  public static String normalised(String host) {
    String h = host.strip().toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
  }

  /** Whether and where {@code url} may be reached; resolves its host. */
  public Verdict check(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      return new Refused("the address is not a valid URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      return new Refused("the address must start with http:// or https://");
    }
    if (uri.getHost() == null || uri.getRawAuthority() == null) {
      return new Refused("the address names no host");
    }
    if (uri.getRawUserInfo() != null) {
      return new Refused("the address must not carry a user name or password before its host");
    }
    String host = normalised(uri.getHost());
    boolean ssl = scheme.equals("https");
    int port = uri.getPort() >= 0 ? uri.getPort() : ssl ? 443 : 80;
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    String requestUri = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    List<InetAddress> addresses;
    try {
      addresses = resolver.resolve(host);
    } catch (UnknownHostException e) {
      return new Refused("its host does not resolve to any address");
    }
    if (addresses.isEmpty()) {
      return new Refused("its host does not resolve to any address");
    }
    if (!allowedHosts.contains(host)) {
      for (InetAddress address : addresses) {
        Optional<String> kind = PublicAddresses.internalKind(address);
        if (kind.isPresent()) {
          return new Refused("its host is " + kind.get() + " or resolves to one; alerts go only to public "
              + "addresses unless the server's admin allows the host (notifications.readerAlertAllowedHosts)");
        }
      }
    }
    return new Reach(ssl, addresses.get(0).getHostAddress(), port, requestUri, virtualHost(host));
  }

  /** The {@code Host} header's host: a name as it is, an IPv6 address in brackets, none for a dotted IPv4 address. */
  private static String virtualHost(String host) {
    if (host.contains(":")) {
      return "[" + host + "]";
    }
    return host.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}") ? null : host;
  }
}
