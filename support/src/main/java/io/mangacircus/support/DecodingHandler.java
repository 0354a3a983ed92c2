package io.mangacircus.support;

import io.mangacircus.contracts.ErrorCode;
import io.mangacircus.contracts.InvalidMessageException;
import io.vertx.core.Handler;
import io.vertx.core.eventbus.Message;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wraps a request handler so a malformed body gets a coded failure reply and a bug in the handler
 * gets {@link ErrorCode#INTERNAL_ERROR}: nothing thrown here ever leaves a requester waiting.
 */
public final class DecodingHandler<T> implements Handler<Message<Object>> {

  private static final Logger LOG = LoggerFactory.getLogger(DecodingHandler.class);

  private final Function<Object, T> decoder;
  private final BiConsumer<Message<Object>, T> handler;

  private DecodingHandler(Function<Object, T> decoder, BiConsumer<Message<Object>, T> handler) {
    this.decoder = decoder;
    this.handler = handler;
  }

  /** A consumer handler that decodes with {@code decoder} (a record's {@code fromJson}) before {@code handler}. */
  public static <T> DecodingHandler<T> of(Function<Object, T> decoder, BiConsumer<Message<Object>, T> handler) {
    return new DecodingHandler<>(decoder, handler);
  }

  @Override
  public void handle(Message<Object> message) {
    T request;
    try {
      request = decoder.apply(message.body());
    } catch (InvalidMessageException e) {
      LOG.warn("rejected message on {}: {} ({})", message.address(), e.getMessage(), e.code());
      message.fail(e.code().code(), e.getMessage());
      return;
    }
    try {
      handler.accept(message, request);
    } catch (RuntimeException e) {
      LOG.error("handler for {} failed on a well-formed request", message.address(), e);
      message.fail(ErrorCode.INTERNAL_ERROR.code(), "internal error on " + message.address() + ": " + e);
    }
  }
}
