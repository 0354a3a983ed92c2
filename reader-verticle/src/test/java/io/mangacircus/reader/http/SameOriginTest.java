package io.mangacircus.reader.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SameOriginTest {

  @Test
  void onlyAnOriginOfTheSameHostAndPortIsThisSite() {
    assertThat(SameOrigin.matches("http://127.0.0.1:8080", "127.0.0.1:8080")).isTrue();
    assertThat(SameOrigin.matches("https://Manga.Example", "manga.example")).isTrue();

    assertThat(SameOrigin.matches("http://127.0.0.1:8081", "127.0.0.1:8080")).isFalse();
    assertThat(SameOrigin.matches("http://evil.example", "manga.example")).isFalse();
    assertThat(SameOrigin.matches("http://manga.example.evil.example", "manga.example")).isFalse();
    assertThat(SameOrigin.matches("null", "manga.example")).isFalse();
    assertThat(SameOrigin.matches("file://manga.example", "manga.example")).isFalse();
    assertThat(SameOrigin.matches("http://manga.example", null)).isFalse();
    assertThat(SameOrigin.matches("http://[bad", "manga.example")).isFalse();
  }
}
