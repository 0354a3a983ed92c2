package io.mangacircus.scraper.source.suwayomi;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.source.FetchOutcome;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SuwayomiErrorsTest {

  private static final Instant NOW = Instant.parse("2026-12-04T22:00:00Z");
  private static final String ID = "2499283573021220255";

  /** An error message as Suwayomi's handler writes it: the message, a blank line, the stack trace. */
  private static String suwayomi(String field, String message) {
    return "Exception while fetching data (/" + field + ") : " + message + "\r\n\r\njava.io.IOException: " + message
        + "\n\tat eu.kanade.tachiyomi.network.SecretFrame(Secret.kt:1)\n";
  }

  private static FetchOutcome<Object> outcome(String message) {
    return SuwayomiErrors.outcome(message, "search for 'x'", ID, NOW);
  }

  @Test
  void onlyTheMessageBeforeTheStackTraceIsKeptWithoutGraphqlsPrefix() {
    assertThat(SuwayomiErrors.firstPart(suwayomi("fetchManga", "Something odd"))).isEqualTo("Something odd");
    FetchOutcome<Object> outcome = outcome(suwayomi("fetchManga", "Something odd"));
    assertThat(outcome).isInstanceOf(FetchOutcome.ParseError.class);
    assertThat(outcome.describe()).contains("Something odd").doesNotContain("SecretFrame").doesNotContain("\r\n");
  }

  @Test
  void aCloudflareChallengeOrA403OfTheSiteIsAnAccessRefusal() {
    assertThat(outcome(suwayomi("fetchSourceManga", "Cloudflare bypass currently disabled")))
        .isInstanceOfSatisfying(FetchOutcome.AccessDenied.class, a -> {
          assertThat(a.status()).isEqualTo(403);
          assertThat(a.message()).contains("Cloudflare").doesNotContain("SecretFrame");
        });
    assertThat(outcome(suwayomi("fetchChapters", "HTTP error 403"))).isInstanceOf(FetchOutcome.AccessDenied.class);
  }

  @Test
  void aServerErrorOfTheSiteIsAServerErrorAndA429ARateLimit() {
    assertThat(outcome(suwayomi("fetchChapters", "HTTP error 503")))
        .isInstanceOfSatisfying(FetchOutcome.ServerError.class, s -> assertThat(s.status()).isEqualTo(503));
    assertThat(outcome(suwayomi("fetchChapters", "HTTP error 429")))
        .isInstanceOfSatisfying(FetchOutcome.RateLimited.class,
            r -> assertThat(r.retryAfter()).isEqualTo(SuwayomiErrors.SITE_RATE_LIMIT_WAIT));
  }

  @Test
  void anUnknownSourcesNullPointerMessageHoldsTheSourceAsNotInstalled() {
    assertThat(outcome(suwayomi("fetchSourceManga", "null")))
        .isInstanceOfSatisfying(FetchOutcome.Held.class, h -> {
          assertThat(h.reason()).isEqualTo("source " + ID + " is not installed on the Suwayomi server");
          assertThat(h.until()).isEqualTo(NOW.plus(SuwayomiErrors.NOT_INSTALLED_RECHECK));
        });
  }

  @Test
  void anUnauthorizedErrorIsAnAccessRefusalOfTheServer() {
    assertThat(outcome(suwayomi("fetchSourceManga", "Unauthorized")))
        .isInstanceOfSatisfying(FetchOutcome.AccessDenied.class, a -> assertThat(a.status()).isEqualTo(401));
  }

  @Test
  void aLongMessageIsCut() {
    assertThat(SuwayomiErrors.firstPart("x".repeat(1000))).hasSizeLessThan(310);
  }

  @Test
  void anErrorOfACallAboutTheWholeServerNamesTheServerAndHoldsNoSource() {
    FetchOutcome<Object> outcome = SuwayomiErrors.outcome(suwayomi("sources", "null"), "the source list", null, NOW);

    assertThat(outcome).isInstanceOf(FetchOutcome.ParseError.class);
    assertThat(outcome.describe()).contains("the Suwayomi server failed").doesNotContain("source null")
        .doesNotContain("SecretFrame");
  }
}
