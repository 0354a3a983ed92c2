package io.mangacircus.scraper.failure;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.source.FetchOutcome;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FailureClassifierTest {

  @Test
  void eachOutcomeMapsToItsKind() {
    assertThat(FailureClassifier.classify(new FetchOutcome.NetworkError<>("reset")).kind()).isEqualTo(FailureKind.NETWORK);
    Failure server = FailureClassifier.classify(new FetchOutcome.ServerError<>(503, "busy"));
    assertThat(server.kind()).isEqualTo(FailureKind.NETWORK);
    assertThat(server.httpStatus()).isEqualTo(503);
    Failure rateLimited = FailureClassifier.classify(new FetchOutcome.RateLimited<>(Duration.ofSeconds(30), "429"));
    assertThat(rateLimited.kind()).isEqualTo(FailureKind.ACCESS);
    assertThat(rateLimited.httpStatus()).isEqualTo(429);
    assertThat(FailureClassifier.classify(new FetchOutcome.AccessDenied<>(403, "forbidden")).kind())
        .isEqualTo(FailureKind.ACCESS);
    assertThat(FailureClassifier.classify(new FetchOutcome.AccessDenied<>(200, "challenge page")).httpStatus())
        .isEqualTo(200);
    assertThat(FailureClassifier.classify(new FetchOutcome.NotFound<>("title")).kind())
        .isEqualTo(FailureKind.UNAVAILABLE);
    assertThat(FailureClassifier.classify(new FetchOutcome.ParseError<>("selector")).kind())
        .isEqualTo(FailureKind.PARSER);
  }

  @Test
  void diskRefusalsAreStorageAndOtherIoErrorsAreUnknown() {
    assertThat(FailureClassifier.classify(new AccessDeniedException("/data/library/x")).kind())
        .isEqualTo(FailureKind.STORAGE);
    assertThat(FailureClassifier.classify(new FileSystemException("/data", null, "Read-only file system")).kind())
        .isEqualTo(FailureKind.STORAGE);
    assertThat(FailureClassifier.classify(new IOException("No space left on device")).kind())
        .isEqualTo(FailureKind.STORAGE);
    assertThat(FailureClassifier.classify(new IOException("stream closed")).kind()).isEqualTo(FailureKind.UNKNOWN);
  }

  @Test
  void networkFailuresGetOneJobLevelRetryThenQuarantine() {
    Failure network = new Failure(FailureKind.NETWORK, 502, "bad gateway");

    assertThat(FailureClassifier.action(network, 0, 0)).isEqualTo(FailureAction.RETRY_LATER);
    assertThat(FailureClassifier.action(network, 1, 0)).isEqualTo(FailureAction.QUARANTINE);
  }

  @Test
  void aStallIsRequeuedOnceThenQuarantined() {
    Failure stall = new Failure(FailureKind.STALL, null, "no progress");

    assertThat(FailureClassifier.action(stall, 0, 0)).isEqualTo(FailureAction.REQUEUE);
    assertThat(FailureClassifier.action(stall, 0, 1)).isEqualTo(FailureAction.QUARANTINE);
  }

  @Test
  void everyOtherKindHasTheTablesAction() {
    assertThat(FailureClassifier.action(new Failure(FailureKind.UNAVAILABLE, 404, "x"), 0, 0))
        .isEqualTo(FailureAction.MARK_UNAVAILABLE);
    assertThat(FailureClassifier.action(new Failure(FailureKind.PARSER, null, "x"), 0, 0))
        .isEqualTo(FailureAction.QUARANTINE);
    assertThat(FailureClassifier.action(new Failure(FailureKind.STORAGE, null, "x"), 0, 0))
        .isEqualTo(FailureAction.PAUSE_ALL);
    assertThat(FailureClassifier.action(new Failure(FailureKind.ACCESS, 403, "x"), 0, 0))
        .isEqualTo(FailureAction.PAUSE_LANE);
    assertThat(FailureClassifier.action(new Failure(FailureKind.UNKNOWN, null, "x"), 0, 0))
        .isEqualTo(FailureAction.PAUSE_JOB);
  }
}
