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
    String first = PasswordHasher.hash("hunter22".toCharArray());
    String second = PasswordHasher.hash("hunter22".toCharArray());

    assertThat(first).isNotEqualTo(second).startsWith("pbkdf2-sha256$210000$").doesNotContain("hunter22");
    assertThat(PasswordHasher.ITERATIONS).isGreaterThanOrEqualTo(210_000);
  }

  @Test
  void malformedStoredHashesNeverVerify() {
    assertThat(PasswordHasher.verify("x".toCharArray(), null)).isFalse();
    assertThat(PasswordHasher.verify("x".toCharArray(), "plain-text")).isFalse();
    assertThat(PasswordHasher.verify("x".toCharArray(), "pbkdf2-sha256$abc$$")).isFalse();
  }
}
