package io.mangacircus.reader.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.epoll.EpollSocketChannelConfig;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * TCP_CORK around one file answer on a native epoll connection, as nginx's {@code tcp_nopush}: the headers (written
 * with {@code write}) and the file (sent with {@code sendfile}) leave in full segments together instead of the headers
 * in a segment of their own; uncorked when the answer is written, so nothing waits for the kernel's 200 ms cork limit.
 * On NIO (no TCP_CORK in Java) and HTTP/2 it does nothing.
 */
public final class SendCork {

  private final EpollSocketChannelConfig config;

  private SendCork(EpollSocketChannelConfig config) {
    this.config = config;
  }

  /** Corks {@code connection} now; {@link #release} uncorks it. */
  public static SendCork hold(HttpConnection connection) {
    if (!(connection instanceof ConnectionBase base)) {
      return new SendCork(null);
    }
    Channel channel = base.channel();
    if (!(channel.config() instanceof EpollSocketChannelConfig epoll)) {
      return new SendCork(null);
    }
    try {
      epoll.setTcpCork(true);
      return new SendCork(epoll);
    } catch (ChannelException e) {
      // The connection is closing: the send fails on its own.
      return new SendCork(null);
    }
  }

  /** Whether the connection was corked. */
  public boolean corked() {
    return config != null;
  }

  /** Uncorks: whatever is left of the answer goes out at once. */
  public void release() {
    if (config == null) {
      return;
    }
    try {
      config.setTcpCork(false);
    } catch (ChannelException e) {
      // closed meanwhile: nothing left to push
    }
  }
}
