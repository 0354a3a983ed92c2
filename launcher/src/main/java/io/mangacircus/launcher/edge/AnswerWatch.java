package io.mangacircus.launcher.edge;

import io.mangacircus.reader.http.SecurityHeaders;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Sees every answer of a connection just before it is encoded: gives those written below the router (the HTTP layer's
 * own 400, 414, 431, 501) the security headers too, and tells the {@link ConnectionWatch} when an answer has left in
 * full (so that its deadlines never run while a slow client is still receiving one) or the connection became a
 * WebSocket.
 */
final class AnswerWatch extends ChannelOutboundHandlerAdapter {

  private final ConnectionWatch watch;

  AnswerWatch(ConnectionWatch watch) {
    this.watch = watch;
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) throws Exception {
    if (message instanceof HttpResponse response) {
      SecurityHeaders.applyIfMissing(response.headers());
      if (response.status().code() == HttpResponseStatus.SWITCHING_PROTOCOLS.code()) {
        watch.upgraded();
      }
    }
    if (message instanceof LastHttpContent) {
      ChannelPromise written = promise.unvoid();
      written.addListener(f -> watch.answered());
      ctx.write(message, written);
      return;
    }
    ctx.write(message, promise);
  }
}
