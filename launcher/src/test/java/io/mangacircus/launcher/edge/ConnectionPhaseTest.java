package io.mangacircus.launcher.edge;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.edge.ConnectionPhase.Deadline;
import org.junit.jupiter.api.Test;

class ConnectionPhaseTest {

  private final ConnectionPhase phase = new ConnectionPhase();

  @Test
  void aNewConnectionIsIdleUntilItsFirstByteThenReadsAHeadAgainstTheHeaderDeadline() {
    assertThat(phase.opened()).isEqualTo(Deadline.IDLE);
    assertThat(phase.bytes()).isEqualTo(Deadline.HEADERS);
    assertThat(phase.bytes()).as("more bytes of the same head do not extend it").isEqualTo(Deadline.KEEP);
    assertThat(phase.head()).isEqualTo(Deadline.NONE);
  }

  @Test
  void neitherABodyNorAnAnswerInProgressIsTimedAndTheConnectionIsIdleAfterTheAnswer() {
    phase.opened();
    phase.bytes();
    phase.head();
    assertThat(phase.bytes()).as("body bytes").isEqualTo(Deadline.KEEP);
    assertThat(phase.bodyEnd()).as("the answer is still to come").isEqualTo(Deadline.KEEP);
    assertThat(phase.answered()).isEqualTo(Deadline.IDLE);
  }

  @Test
  void anAnswerBeforeTheBodyEndsLeavesTheConnectionUntimedUntilTheBodyEnds() {
    phase.opened();
    phase.bytes();
    phase.head();
    assertThat(phase.answered()).as("a refusal answered while the body still comes").isEqualTo(Deadline.KEEP);
    assertThat(phase.bodyEnd()).isEqualTo(Deadline.IDLE);
  }

  @Test
  void aPipelinedHeadIsTimedFromTheEndOfTheAnswerBeforeIt() {
    phase.opened();
    phase.bytes();
    phase.head();
    phase.bodyEnd();
    assertThat(phase.bytes()).as("the next head arrives during the answer").isEqualTo(Deadline.KEEP);
    assertThat(phase.answered()).isEqualTo(Deadline.HEADERS);
  }

  @Test
  void aWebSocketIsNeverTimed() {
    phase.opened();
    phase.bytes();
    phase.head();
    assertThat(phase.upgraded()).isEqualTo(Deadline.NONE);
    phase.bodyEnd();
    assertThat(phase.answered()).isEqualTo(Deadline.KEEP);
    assertThat(phase.bytes()).as("frames").isEqualTo(Deadline.KEEP);
  }
}
