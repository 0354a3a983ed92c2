package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PasswordHasherTest {

  @Test
  void theRightPasswordVerifiesAndAWrongOneDoesNot() {
    String hash = PasswordHasher.hash("correct horse".toCharArray());

    assertThat(PasswordHasher.verify("correct horse".toCharArray(), hash)).isTrue();
    assertThat(PasswordHasher.verify("correct hors".toCharArray(), hash)).isFalse();
  }

  @Test
  void hashesAreSaltedSlowPbkdf2AndNeverContainThePassword() {
    String first = PasswordHasher.hash("hunter22".toCharArray(), PasswordHasher.ITERATIONS);
    String second = PasswordHasher.hash("hunter22".toCharArray(), PasswordHasher.ITERATIONS);

    assertThat(first).isNotEqualTo(second).startsWith("pbkdf2-sha256$210000$").doesNotContain("hunter22");
    assertThat(PasswordHasher.verify("hunter22".toCharArray(), first)).isTrue();
    assertThat(PasswordHasher.ITERATIONS).isGreaterThanOrEqualTo(210_000);
  }

  @Test
  void newHashesGetTheFullCountUnlessATestJvmAsksForFewerAndNeverFewerThanTheFloor() {
    assertThat(PasswordHasher.iterationsFor(null)).isEqualTo(210_000);
    assertThat(PasswordHasher.iterationsFor("")).isEqualTo(210_000);
    assertThat(PasswordHasher.iterationsFor("many")).isEqualTo(210_000);
    assertThat(PasswordHasher.iterationsFor("2000")).isEqualTo(2_000);
    assertThat(PasswordHasher.iterationsFor("1")).isEqualTo(1_000);
    // This suite's JVMs ask for fewer (the root pom): what they hash still verifies, and only the right password.
    String cheap = PasswordHasher.hash("hunter22".toCharArray());
    assertThat(cheap).startsWith("pbkdf2-sha256$"
        + PasswordHasher.iterationsFor(System.getProperty(PasswordHasher.TEST_ITERATIONS_PROPERTY)) + "$");
    assertThat(PasswordHasher.verify("hunter22".toCharArray(), cheap)).isTrue();
    assertThat(PasswordHasher.verify("hunter23".toCharArray(), cheap)).isFalse();
  }

  @Test
  void malformedStoredHashesNeverVerify() {
    assertThat(PasswordHasher.verify("x".toCharArray(), null)).isFalse();
    assertThat(PasswordHasher.verify("x".toCharArray(), "plain-text")).isFalse();
    assertThat(PasswordHasher.verify("x".toCharArray(), "pbkdf2-sha256$abc$$")).isFalse();
  }
}
