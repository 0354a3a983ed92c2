package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.transport.Transport;
import org.junit.jupiter.api.Test;

/** Which transport the process runs on: native epoll on this Linux machine unless turned off or unavailable. */
class NetworkTransportTest {

  /** A native transport that does not load, as on a machine without the native library. */
  private static Transport unavailable(Throwable cause) {
    return new Transport() {
      @Override
      public String name() {
        return "epoll";
      }

      @Override
      public boolean available() {
        return false;
      }

      @Override
      public Throwable unavailabilityCause() {
        return cause;
      }

      @Override
      public io.vertx.core.spi.transport.Transport implementation() {
        throw new UnsupportedOperationException("never built");
      }
    };
  }

  @Test
  void onThisLinuxMachineVertxRunsOnNativeEpollWhenWanted() {
    NetworkTransport.Choice choice = NetworkTransport.choose(true);
    assertThat(choice.transport()).isSameAs(Transport.EPOLL);
    assertThat(choice.isNative()).isTrue();
    Vertx vertx = Vertx.builder().withTransport(choice.transport()).build();
    try {
      assertThat(vertx.isNativeTransportEnabled()).as(String.valueOf(vertx.unavailableNativeTransportCause()))
          .isTrue();
    } finally {
      vertx.close().await();
    }
  }

  @Test
  void turnedOffByConfigVertxRunsOnNioAndSaysWhy() {
    NetworkTransport.Choice choice = NetworkTransport.choose(false);
    assertThat(choice.transport()).isSameAs(Transport.NIO);
    assertThat(choice.reason()).isEqualTo("http.nativeTransport is false");
    Vertx vertx = Vertx.builder().withTransport(choice.transport()).build();
    try {
      assertThat(vertx.isNativeTransportEnabled()).isFalse();
    } finally {
      vertx.close().await();
    }
  }

  @Test
  void aNativeTransportThatDoesNotLoadFallsBackToNioWithItsRootCause() {
    NetworkTransport.Choice choice = NetworkTransport.choose(true,
        unavailable(new IllegalStateException("failed", new UnsatisfiedLinkError("no libnetty_transport_native_epoll"))));
    assertThat(choice.transport()).isSameAs(Transport.NIO);
    assertThat(choice.reason())
        .isEqualTo("native epoll is unavailable: UnsatisfiedLinkError: no libnetty_transport_native_epoll");
  }

  @Test
  void anOperatingSystemWithoutANativeTransportRunsOnNio() {
    NetworkTransport.Choice choice = NetworkTransport.choose(true, null);
    assertThat(choice.transport()).isSameAs(Transport.NIO);
    assertThat(choice.reason()).startsWith("no native transport for ");
  }
}
