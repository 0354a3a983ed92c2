package io.mangacircus.launcher.edge;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import java.util.List;

/**
 * Vert.x's request decoder, stricter about framing: a request with both {@code Content-Length} and
 * {@code Transfer-Encoding}, or with more than one {@code Host} or {@code Content-Length}, is marked invalid (Netty would
 * drop the length and read it chunked), so that two servers in a row cannot read its end differently (request
 * smuggling); {@link HttpEdge} answers it 400 and closes the connection. It also tells the connection's
 * {@link ConnectionWatch} when bytes come and heads and bodies end.
 */
final class StrictRequestDecoder extends VertxHttpRequestDecoder {

  /** Why a request's framing is refused. */
  static final class RefusedFraming extends IllegalArgumentException {
    RefusedFraming(String message) {
      super(message);
    }
  }

  private final ConnectionWatch watch;

  StrictRequestDecoder(HttpServerOptions options, ConnectionWatch watch) {
    super(options);
    this.watch = watch;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
    if (buffer.isReadable()) {
      watch.bytes();
    }
    int from = out.size();
    super.decode(ctx, buffer, out);
    for (int i = from; i < out.size(); i++) {
      Object message = out.get(i);
      if (message instanceof HttpRequest request) {
        check(request);
        watch.head();
      }
      if (message instanceof LastHttpContent) {
        watch.bodyEnd();
      }
    }
  }

  @Override
  protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
    super.handleTransferEncodingChunkedWithContentLength(message);
    refuse(message, "a request may not have both Content-Length and Transfer-Encoding");
  }

  private static void check(HttpRequest request) {
    if (!request.decoderResult().isSuccess()) {
      return;
    }
    HttpHeaders headers = request.headers();
    if (headers.contains(HttpHeaderNames.CONTENT_LENGTH) && headers.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
      refuse(request, "a request may not have both Content-Length and Transfer-Encoding");
    } else if (headers.getAll(HttpHeaderNames.HOST).size() > 1) {
      refuse(request, "a request may have one Host header only");
    } else if (headers.getAll(HttpHeaderNames.CONTENT_LENGTH).size() > 1) {
      refuse(request, "a request may have one Content-Length header only");
    }
  }

  private static void refuse(HttpMessage message, String reason) {
    if (message.decoderResult().isSuccess()) {
      message.setDecoderResult(DecoderResult.failure(new RefusedFraming(reason)));
    }
  }
}
