package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.store.AppScope;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AppSessionsTest {

  private static final Instant NOW = Instant.parse("2026-12-04T08:00:00Z");
  private static final AppPasswords.Access ACCESS = new AppPasswords.Access(7, 3, "ivy", AppScope.READ_PROGRESS);

  @Test
  void aSessionLastsWhileUsedAndEndsAfterItsIdleTime() {
    AppSessions sessions = new AppSessions();
    String token = sessions.open(ACCESS, NOW);

    Instant later = NOW.plus(AppSessions.IDLE).minusSeconds(1);
    assertThat(sessions.find(token, later)).contains(ACCESS);
    assertThat(sessions.find(token, later.plus(AppSessions.IDLE).minusSeconds(1))).as("each use extends it")
        .contains(ACCESS);
    assertThat(sessions.find(token, later.plus(AppSessions.IDLE).plus(AppSessions.IDLE))).isEmpty();
    assertThat(sessions.size()).isZero();
  }

  @Test
  void forgetAllEndsEverySessionAndTheOldestGoFirstPastTheLimit() {
    AppSessions sessions = new AppSessions();
    String first = sessions.open(ACCESS, NOW);
    for (int i = 0; i < AppSessions.MAX; i++) {
      sessions.open(ACCESS, NOW);
    }
    assertThat(sessions.size()).isEqualTo(AppSessions.MAX);
    assertThat(sessions.find(first, NOW)).isEmpty();

    String kept = sessions.open(ACCESS, NOW);
    sessions.forgetAll();
    assertThat(sessions.find(kept, NOW)).isEmpty();
  }
}
