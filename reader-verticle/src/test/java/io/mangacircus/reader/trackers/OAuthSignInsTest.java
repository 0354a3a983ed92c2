package io.mangacircus.reader.trackers;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.http.JsonCookie;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pending tracker sign-in travels in a cookie signed with the tracker key: any holder of the same key file finishes
 * it, within ten minutes, for its own tracker and state only; anything altered, foreign or unreadable is refused.
 */
class OAuthSignInsTest {

  private static final Instant NOW = Instant.parse("2026-12-05T01:00:00Z");

  @TempDir
  Path keys;

  private final AtomicReference<Instant> now = new AtomicReference<>(NOW);
  private final InstantSource clock = now::get;

  private OAuthSignIns signIns() {
    return new OAuthSignIns(clock, new TrackerTokenVault(keys));
  }

  @Test
  void aSignInStartedOnOneReaderFinishesOnAnotherWithTheSameKeyFile() {
    OAuthSignIns.Started started = signIns().start(42, "anilist");

    now.set(NOW.plusSeconds(599));
    var finished = signIns().finish(started.cookie(), started.state(), "anilist");

    assertThat(finished).hasValueSatisfying(pending -> {
      assertThat(pending.userId()).isEqualTo(42);
      assertThat(pending.verifier()).isEqualTo(started.verifier());
    });
  }

  @Test
  void anotherStateOrAnotherTrackerIsRefused() {
    OAuthSignIns signIns = signIns();
    OAuthSignIns.Started started = signIns.start(42, "anilist");
    OAuthSignIns.Started other = signIns.start(42, "anilist");

    assertThat(signIns.finish(started.cookie(), other.state(), "anilist")).isEmpty();
    assertThat(signIns.finish(started.cookie(), null, "anilist")).isEmpty();
    assertThat(signIns.finish(started.cookie(), started.state(), "myanimelist")).isEmpty();
  }

  @Test
  void aSignInOlderThanTenMinutesOrFromTooFarAheadIsRefused() {
    OAuthSignIns signIns = signIns();
    OAuthSignIns.Started started = signIns.start(42, "anilist");

    now.set(NOW.plus(OAuthSignIns.LIFETIME));
    assertThat(signIns.finish(started.cookie(), started.state(), "anilist")).isEmpty();
    now.set(NOW.minus(OAuthSignIns.CLOCK_SKEW).minusSeconds(1));
    assertThat(signIns.finish(started.cookie(), started.state(), "anilist")).as("started in the future").isEmpty();
  }

  @Test
  void aCookieAlteredOrSignedWithAnotherKeyIsRefused(@TempDir Path otherKeys) {
    OAuthSignIns.Started started = signIns().start(42, "anilist");
    String signature = started.cookie().substring(started.cookie().lastIndexOf('.'));
    String otherUser = JsonCookie.encode(new OAuthSignIns.Pending(7, "anilist", started.state(), started.verifier(),
        NOW.getEpochSecond()));
    OAuthSignIns foreign = new OAuthSignIns(clock, new TrackerTokenVault(otherKeys));

    assertThat(signIns().finish(otherUser + signature, started.state(), "anilist")).as("user changed").isEmpty();
    assertThat(foreign.finish(started.cookie(), started.state(), "anilist")).as("another key").isEmpty();
    assertThat(signIns().finish(started.cookie() + "x", started.state(), "anilist")).isEmpty();
  }

  @Test
  void garbageIsRefusedWithoutAnError() {
    OAuthSignIns signIns = signIns();
    OAuthSignIns.Started started = signIns.start(42, "anilist");
    String payload = started.cookie().substring(0, started.cookie().lastIndexOf('.'));
    TrackerTokenVault vault = new TrackerTokenVault(keys);
    String signedNull = JsonCookie.encode(null);
    String signedEmpty = JsonCookie.encode(java.util.Map.of("userId", 1));

    for (String cookie : new String[] {"", ".", "no-dot", "!!!." + vault.cookieSignature("!!!"), payload + ".",
        signedNull + "." + vault.cookieSignature(signedNull), signedEmpty + "." + vault.cookieSignature(signedEmpty),
        "a".repeat(5000) + "." + vault.cookieSignature("a".repeat(5000))}) {
      assertThat(signIns.finish(cookie, started.state(), "anilist")).as(cookie).isEmpty();
    }
  }

  @Test
  void neitherRecordShowsItsSecrets() {
    OAuthSignIns.Started started = signIns().start(42, "anilist");
    OAuthSignIns.Pending pending = signIns().finish(started.cookie(), started.state(), "anilist").orElseThrow();

    assertThat(started.toString() + pending).doesNotContain(started.state()).doesNotContain(started.verifier())
        .doesNotContain(started.cookie());
  }
}
