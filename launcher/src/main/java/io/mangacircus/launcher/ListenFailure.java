package io.mangacircus.launcher;

import java.net.BindException;
import java.util.Optional;

/** Says in one sentence why the HTTP port could not be opened, naming the port, the address and the option to change. */
final class ListenFailure {

  private ListenFailure() {
  }

  /**
   * The sentence for a failed start whose causes include a {@link BindException}, or the native transport's bind
   * failure ({@code io.netty.channel.unix.Errors$NativeIoException}, "bind(..) failed with error(-98): Address already
   * in use"); empty for any other failure.
   *
   * @param option the command-line option that sets this port ({@code --port} or {@code --health-port})
   */
  static Optional<String> explain(Throwable failure, String bind, int port, String option) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof BindException || nativeBindFailure(t)) {
        String message = t.getMessage() == null ? "" : t.getMessage();
        if (message.toLowerCase(java.util.Locale.ROOT).contains("in use")) {
          return Optional.of("port " + port + " on " + bind + " is already in use (another MangaCircus or another "
              + "program?); choose another with " + option + " or stop the other process");
        }
        if (message.toLowerCase(java.util.Locale.ROOT).contains("permission")) {
          return Optional.of("port " + port + " on " + bind + " may not be opened by this user (" + message
              + "); choose one above 1023 with " + option);
        }
        return Optional.of("cannot listen on port " + port + " on " + bind + ": " + message
            + "; check --bind (an address of this machine) and " + option);
      }
    }
    return Optional.empty();
  }

  /** Netty's epoll transport reports a failed bind(2) with its own exception, not a {@link BindException}. */
  private static boolean nativeBindFailure(Throwable t) {
    return t.getClass().getName().equals("io.netty.channel.unix.Errors$NativeIoException")
        && t.getMessage() != null && t.getMessage().startsWith("bind(");
  }
}
