package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.BindException;
import org.junit.jupiter.api.Test;

class ListenFailureTest {

  @Test
  void aPortInUseIsNamedWithItsAddressAndTheOptionThatChangesIt() {
    Throwable failure = new java.util.concurrent.ExecutionException(new BindException("Address already in use"));

    assertThat(ListenFailure.explain(failure, "127.0.0.1", 8080, "--port")).contains("port 8080 on 127.0.0.1 is "
        + "already in use (another MangaCircus or another program?); choose another with --port or stop the other "
        + "process");
  }

  @Test
  void anAddressThatIsNotThisMachinesSaysToCheckBind() {
    Throwable failure = new BindException("Cannot assign requested address");

    assertThat(ListenFailure.explain(failure, "10.9.9.9", 8081, "--health-port")).hasValueSatisfying(text ->
        assertThat(text).contains("port 8081 on 10.9.9.9", "Cannot assign requested address", "--bind",
            "--health-port"));
  }

  @Test
  void anyOtherFailureIsNotExplainedAsAPortProblem() {
    assertThat(ListenFailure.explain(new IllegalStateException("boom"), "127.0.0.1", 8080, "--port")).isEmpty();
  }
}
