package io.mangacircus.launcher;

import io.vertx.core.transport.Transport;

/**
 * Which network transport this process's Vert.x uses: Netty's native one (epoll on Linux) where it loads and the
 * operator did not turn it off ({@code http.nativeTransport}), else Java's NIO, with the reason in words for the log.
 */
public final class NetworkTransport {

  private NetworkTransport() {
  }

  /** The transport to build Vert.x with, and why (one log line, no secrets). */
  public record Choice(Transport transport, String reason) {

    /** Whether the choice is a native transport. */
    public boolean isNative() {
      return transport != Transport.NIO;
    }
  }

  /** Picks the native transport of this OS when wanted and available, else NIO. */
  public static Choice choose(boolean nativeWanted) {
    return choose(nativeWanted, Transport.nativeTransport());
  }

  /**
   * @param nativeTransport the OS's native transport as Vert.x offers it (null: none for this OS, or its classes are
   *     not on the class path)
   */
  static Choice choose(boolean nativeWanted, Transport nativeTransport) {
    if (!nativeWanted) {
      return new Choice(Transport.NIO, "http.nativeTransport is false");
    }
    if (nativeTransport == null) {
      return new Choice(Transport.NIO, "no native transport for " + System.getProperty("os.name") + "/"
          + System.getProperty("os.arch"));
    }
    if (!nativeTransport.available()) {
      Throwable cause = nativeTransport.unavailabilityCause();
      return new Choice(Transport.NIO, "native " + nativeTransport.name() + " is unavailable: "
          + (cause == null ? "no reason given" : rootMessage(cause)));
    }
    return new Choice(nativeTransport, "native, http.nativeTransport is true");
  }

  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
  }
}
