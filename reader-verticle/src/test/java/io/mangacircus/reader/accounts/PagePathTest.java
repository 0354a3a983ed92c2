package io.mangacircus.reader.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PagePathTest {

  @Test
  void encodedSeparatorsAndBackslashesNameNoPage() {
    assertThat(PagePath.decode("/admin%2fusers.html")).isNull();
    assertThat(PagePath.decode("/admin%2Fusers.html")).isNull();
    assertThat(PagePath.decode("/admin%5Cusers.html")).isNull();
    assertThat(PagePath.decode("/admin%5cusers.html")).isNull();
    assertThat(PagePath.decode("/admin\\users.html")).isNull();
    assertThat(PagePath.decode("/admin%255cusers.html")).as("decoded once, a backslash is still refused")
        .isNotNull();
    assertThat(PagePath.decode("/admin/%zzusers.html")).as("a broken escape").isNull();
  }

  @Test
  void everySpellingOfAnAdminPageIsAnAdminPage() {
    for (String raw : new String[] {"/admin/users.html", "//admin/users.html", "/x/../admin/users.html",
        "/x/%2e%2e/admin/users.html", "/%61dmin/users.html", "/./admin/./users.html", "/admin", "/admin/"}) {
      String path = PagePath.decode(raw);
      assertThat(path).as(raw).isNotNull();
      assertThat(PagePath.isAdmin(path)).as(raw + " read as " + path).isTrue();
    }
  }

  @Test
  void otherPagesAreNotAdminPages() {
    for (String raw : new String[] {"/", "/login.html", "/administrator.html", "/js/admin/x.js", "/admin.html"}) {
      assertThat(PagePath.isAdmin(PagePath.decode(raw))).as(raw).isFalse();
    }
  }
}
