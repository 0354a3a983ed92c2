package io.mangacircus.reader.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ApiRequestRulesTest {

  @Test
  void onlyApplicationJsonWithAtMostAUtf8CharsetIsJson() {
    assertThat(ApiRequestRules.isJson("application/json")).isTrue();
    assertThat(ApiRequestRules.isJson("Application/JSON; charset=UTF-8")).isTrue();
    assertThat(ApiRequestRules.isJson("application/json;charset=\"utf-8\"")).isTrue();

    assertThat(ApiRequestRules.isJson(null)).isFalse();
    assertThat(ApiRequestRules.isJson("text/plain")).isFalse();
    assertThat(ApiRequestRules.isJson("text/plain; x=application/json")).isFalse();
    assertThat(ApiRequestRules.isJson("application/x-www-form-urlencoded")).isFalse();
    assertThat(ApiRequestRules.isJson("multipart/form-data; boundary=x")).isFalse();
    assertThat(ApiRequestRules.isJson("application/json-patch+json")).isFalse();
    assertThat(ApiRequestRules.isJson("application/json; charset=iso-8859-1")).isFalse();
  }
}
