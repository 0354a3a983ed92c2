package io.mangacircus.launcher.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Finds loopback TCP ports nobody listens on. */
public final class FreePorts {

  private FreePorts() {
  }

  public static int next() {
    try (ServerSocket socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
