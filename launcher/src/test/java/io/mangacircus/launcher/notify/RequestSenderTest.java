package io.mangacircus.launcher.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A failed request is described without its URL, token or topic. */
class RequestSenderTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void failuresAreDescribedInWordsThatCarryNoAddressOrSecret() {
    RequestSender sender = new RequestSender(vertx, 7);

    assertThat(sender.describe(new TimeoutException("https://ntfy.example.org/secret-topic")))
        .isEqualTo("no answer within 7 s");
    assertThat(sender.describe(new ConnectException("Connection refused: hooks.example.org/tk_secret")))
        .isEqualTo("connection refused");
    assertThat(sender.describe(new UnknownHostException("hooks.example.org"))).isEqualTo("unknown host");
    assertThat(sender.describe(new IllegalStateException("https://x/tk_secret")))
        .isEqualTo("request failed (IllegalStateException)");
    sender.close();
  }
}
