package io.mangacircus.launcher.edge;

import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs one connection's deadline as its {@link ConnectionPhase} says, on the connection's event loop; closes it when due. */
final class ConnectionWatch {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectionWatch.class);

  private final Channel channel;
  private final ConnectionPhase phase = new ConnectionPhase();
  private final long headerTimeoutMs;
  private final long idleTimeoutMs;
  private ScheduledFuture<?> due;

  ConnectionWatch(Channel channel, long headerTimeoutMs, long idleTimeoutMs) {
    this.channel = channel;
    this.headerTimeoutMs = headerTimeoutMs;
    this.idleTimeoutMs = idleTimeoutMs;
    apply(phase.opened());
    channel.closeFuture().addListener(f -> apply(ConnectionPhase.Deadline.NONE));
  }

  void bytes() {
    apply(phase.bytes());
  }

  void head() {
    apply(phase.head());
  }

  void bodyEnd() {
    apply(phase.bodyEnd());
  }

  void answered() {
    apply(phase.answered());
  }

  void upgraded() {
    apply(phase.upgraded());
  }

  private void apply(ConnectionPhase.Deadline deadline) {
    if (deadline == ConnectionPhase.Deadline.KEEP) {
      return;
    }
    if (due != null) {
      due.cancel(false);
      due = null;
    }
    if (deadline == ConnectionPhase.Deadline.NONE || !channel.isOpen()) {
      return;
    }
    boolean head = deadline == ConnectionPhase.Deadline.HEADERS;
    long ms = head ? headerTimeoutMs : idleTimeoutMs;
    due = channel.eventLoop().schedule(() -> {
      LOG.debug("[HTTP] closing a connection from {}: {} for {} ms", channel.remoteAddress(),
          head ? "a request head incomplete" : "idle", ms);
      channel.close();
    }, ms, TimeUnit.MILLISECONDS);
  }
}
