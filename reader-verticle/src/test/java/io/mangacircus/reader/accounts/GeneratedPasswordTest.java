package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GeneratedPasswordTest {

  @Test
  void generatedPasswordsAreLongEasyToTypeAndNeverRepeat() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      String password = GeneratedPassword.create();
      assertThat(password).hasSize(GeneratedPassword.LENGTH).matches("[A-Za-z2-9]+").doesNotContain("0", "O", "1",
          "l", "I");
      assertThat(seen.add(password)).isTrue();
    }
  }

  @Test
  void theNoticeFramesThePasswordAloneOnItsLineAndSaysHowToChangeIt() {
    String notice = GeneratedPassword.notice("first start: created the admin account", "admin", "Abcdefghijkmnpqrstuv");

    assertThat(notice.lines().toList()).startsWith(GeneratedPassword.FRAME).endsWith(GeneratedPassword.FRAME)
        .contains(GeneratedPassword.PASSWORD_LINE, "      Abcdefghijkmnpqrstuv");
    assertThat(notice).contains("user name admin", "/admin/users.html", "reset-password admin")
        .containsOnlyOnce("Abcdefghijkmnpqrstuv");
  }
}
