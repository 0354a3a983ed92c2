package io.mangacircus.launcher.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ConnectionCapTest {

  @Test
  void connectionsOverTheCapAreRefusedUntilOneCloses() {
    ConnectionCap cap = new ConnectionCap(2);
    assertThat(cap.tryOpen()).isTrue();
    assertThat(cap.tryOpen()).isTrue();
    assertThat(cap.tryOpen()).isFalse();
    assertThat(cap.open()).as("a refused connection is not counted").isEqualTo(2);
    cap.closed();
    assertThat(cap.tryOpen()).isTrue();
  }

  @Test
  void aCapBelowOneIsABug() {
    assertThatThrownBy(() -> new ConnectionCap(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
