package io.mangacircus.reader.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SecretAnswersTest {

  @Test
  void sessionsAppPasswordsUsersAndTargetsCarrySecrets() {
    for (String path : new String[] {"/api/login", "/api/logout", "/api/me", "/api/me/app-passwords",
        "/api/me/app-passwords/12", "/api/me/alerts", "/api/me/alerts/target", "/api/admin/users",
        "/api/admin/users/ana/password", "/api/admin/notifications/destinations/phone"}) {
      assertThat(SecretAnswers.carriesSecrets(path)).as(path).isTrue();
    }
  }

  @Test
  void pagesAndTheLibraryDoNot() {
    for (String path : new String[] {"/api/series", "/api/series/abc/chapters/1/pages/3", "/api/meta",
        "/api/login-help", "/api/admin/status", "/api/catalog"}) {
      assertThat(SecretAnswers.carriesSecrets(path)).as(path).isFalse();
    }
  }
}
