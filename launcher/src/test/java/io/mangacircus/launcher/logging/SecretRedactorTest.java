package io.mangacircus.launcher.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SecretRedactorTest {

  @Test
  void passwordsAreMaskedInEveryCommonShape() {
    assertThat(SecretRedactor.redact("login failed for bob password=hunter2 from 10.0.0.1"))
        .isEqualTo("login failed for bob password=*** from 10.0.0.1");
    assertThat(SecretRedactor.redact("{\"username\":\"bob\",\"password\":\"hunter2\"}"))
        .isEqualTo("{\"username\":\"bob\",\"password\":\"***\"}");
    assertThat(SecretRedactor.redact("passwd: hunter2")).isEqualTo("passwd: ***");
  }

  @Test
  void bearerAndBasicCredentialsAreMasked() {
    assertThat(SecretRedactor.redact("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def"))
        .doesNotContain("eyJhbGciOiJIUzI1NiJ9").startsWith("Authorization: ***");
    assertThat(SecretRedactor.redact("retrying with bearer abcdef0123456789"))
        .isEqualTo("retrying with bearer ***");
    assertThat(SecretRedactor.redact("header Authorization=Basic Ym9iOmh1bnRlcjI="))
        .doesNotContain("Ym9iOmh1bnRlcjI=");
  }

  @Test
  void cookiesAreMasked() {
    assertThat(SecretRedactor.redact("Cookie: mc_session=abcdef123456; theme=dark"))
        .isEqualTo("Cookie: ***");
    assertThat(SecretRedactor.redact("Set-Cookie: mc_session=abcdef; HttpOnly\nnext line"))
        .isEqualTo("Set-Cookie: ***\nnext line");
  }

  @Test
  void signedQueryStringsKeepTheirUrlButLoseTheSecrets() {
    String url = "GET https://cdn.example/data/abc/1.jpg?X-Amz-Algorithm=AWS4&X-Amz-Credential=AKIA123"
        + "&X-Amz-Signature=0f9e8d7c&token=tok123&signature=sig456&page=3";

    String redacted = SecretRedactor.redact(url);

    assertThat(redacted).doesNotContain("AKIA123", "0f9e8d7c", "tok123", "sig456");
    assertThat(redacted).contains("https://cdn.example/data/abc/1.jpg", "X-Amz-Algorithm=AWS4", "page=3",
        "X-Amz-Signature=***", "token=***", "signature=***");
  }

  @Test
  void everySecretKeyIsMaskedWhateverItsCaseSoTheQuickCheckSkipsNone() {
    for (String key : java.util.List.of("password", "passwd", "pwd", "pass", "secret", "client_secret", "token",
        "access_token", "refresh_token", "api_key", "api-key", "apikey", "session", "sessionid", "signature", "sig",
        "x-amz-signature", "x-amz-credential", "x-amz-security-token", "x-goog-signature", "authorization")) {
      for (String shaped : java.util.List.of(key, key.toUpperCase(java.util.Locale.ROOT),
          Character.toUpperCase(key.charAt(0)) + key.substring(1))) {
        assertThat(SecretRedactor.redact("retrying https://cdn.example/p?" + shaped + "=v4lue9 now"))
            .as(shaped).isEqualTo("retrying https://cdn.example/p?" + shaped + "=*** now");
      }
    }
    assertThat(SecretRedactor.redact("BEARER abcdef0123456789")).isEqualTo("BEARER ***");
    assertThat(SecretRedactor.redact("BaSiC Ym9iOmh1bnRlcjI=")).isEqualTo("BaSiC ***");
    assertThat(SecretRedactor.redact("SET-COOKIE: a=b")).isEqualTo("SET-COOKIE: ***");
  }

  @Test
  void ordinaryTextIsLeftAlone() {
    String text = "scraper started (instance 1234) listening on http://127.0.0.1:8080/health/ready";

    assertThat(SecretRedactor.redact(text)).isEqualTo(text);
    assertThat(SecretRedactor.redact(null)).isNull();
  }
}
