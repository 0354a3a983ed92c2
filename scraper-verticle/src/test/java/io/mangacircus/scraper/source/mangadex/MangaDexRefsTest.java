package io.mangacircus.scraper.source.mangadex;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MangaDexRefsTest {

  private static final String ID = "8f3e1818-a015-491d-bd81-3addc4d7d56a";

  @ParameterizedTest
  @ValueSource(strings = {
      ID,
      "  " + ID + "\n",
      "8F3E1818-A015-491D-BD81-3ADDC4D7D56A",
      "https://mangadex.org/title/" + ID,
      "https://mangadex.org/title/" + ID + "/",
      "https://mangadex.org/title/" + ID + "/the-circus-at-dawn",
      "https://mangadex.org/title/" + ID + "/the-circus-at-dawn?tab=chapters",
      "https://mangadex.org/title/" + ID + "#comments",
      "https://www.mangadex.org/title/" + ID + "/x",
      "http://mangadex.org/title/" + ID,
      "mangadex.org/title/" + ID + "/slug",
  })
  void aTitleIdOrATitleUrlNamesTheTitleInLowerCase(String ref) {
    assertThat(MangaDexRefs.titleId(ref)).contains(ID);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "",
      "   ",
      "the-circus-at-dawn",
      "8f3e1818-a015-491d-bd81-3addc4d7d56",
      "8f3e1818-a015-491d-bd81-3addc4d7d56a7",
      "8f3e1818a015491dbd813addc4d7d56a",
      "https://mangadex.org/chapter/" + ID,
      "https://mangadex.org/title/not-a-uuid/slug",
      "https://example.org/title/" + ID,
      "https://mangadex.org.evil.example/title/" + ID,
      "https://mangadex.org/title/" + ID + "x/slug",
      "https://api.mangadex.org/manga/" + ID,
  })
  void anythingElseNamesNoTitle(String ref) {
    assertThat(MangaDexRefs.titleId(ref)).isEmpty();
  }

  @Test
  void aNullReferenceNamesNoTitle() {
    assertThat(MangaDexRefs.titleId(null)).isEmpty();
  }

  @Test
  void pageUrlsUseDataOrDataSaverAndReadBack() {
    String url = MangaDexRefs.pageUrl("https://abc.xyz.mangadex.network:443/token123/", false,
        "3303dd03ac8d27452cce3f2a882e94b2", "1-f7a76de10d346de7ba01786762ebbedc.png");

    assertThat(url).isEqualTo("https://abc.xyz.mangadex.network:443/token123/data/3303dd03ac8d27452cce3f2a882e94b2/"
        + "1-f7a76de10d346de7ba01786762ebbedc.png");
    assertThat(MangaDexRefs.pageLocation(url)).contains(new MangaDexRefs.PageLocation(
        "3303dd03ac8d27452cce3f2a882e94b2", "1-f7a76de10d346de7ba01786762ebbedc.png"));

    String saver = MangaDexRefs.pageUrl("https://uploads.mangadex.org", true, "abc123", "1-x.jpg");
    assertThat(saver).isEqualTo("https://uploads.mangadex.org/data-saver/abc123/1-x.jpg");
    assertThat(MangaDexRefs.pageLocation(saver)).contains(new MangaDexRefs.PageLocation("abc123", "1-x.jpg"));
  }

  @Test
  void aUrlThatIsNotAnAtHomePageHasNoLocation() {
    assertThat(MangaDexRefs.pageLocation("https://example.org/img/1.jpg")).isEmpty();
    assertThat(MangaDexRefs.pageLocation(null)).isEmpty();
  }

  @Test
  void fileNamesThatCouldEscapeAUrlPathAreRefused() {
    assertThat(MangaDexRefs.isFileName("1-f7a76de10d346de7ba01786762ebbedc.png")).isTrue();
    assertThat(MangaDexRefs.isFileName("../secret")).isFalse();
    assertThat(MangaDexRefs.isFileName("a/b.png")).isFalse();
    assertThat(MangaDexRefs.isFileName("a..png")).isFalse();
    assertThat(MangaDexRefs.isFileName("")).isFalse();
    assertThat(MangaDexRefs.isFileName("x?y=1")).isFalse();
  }

  @Test
  void chapterIdsAreUuids() {
    assertThat(MangaDexRefs.isId(ID)).isTrue();
    assertThat(MangaDexRefs.isId("c1")).isFalse();
    assertThat(MangaDexRefs.isId(null)).isFalse();
  }
}
