package io.mangacircus.contracts.library;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PageImageTypeTest {

  @Test
  void aPageFilesMediaTypeFollowsItsExtensionInAnyCaseAndIsJpegOtherwise() {
    assertThat(PageImageType.mediaType("001.PNG")).isEqualTo("image/png");
    assertThat(PageImageType.mediaType("p/002.jpeg")).isEqualTo("image/jpeg");
    assertThat(PageImageType.mediaType("003.webp")).isEqualTo("image/webp");
    assertThat(PageImageType.mediaType("004.Gif")).isEqualTo("image/gif");
    assertThat(PageImageType.mediaType("005.avif")).isEqualTo("image/avif");
    assertThat(PageImageType.mediaType("006.heic")).isEqualTo("image/heic");
    assertThat(PageImageType.mediaType("007")).isEqualTo("image/jpeg");
  }

  @Test
  void foldersAndArchivesOfferEveryTypeButHeicAsPages() {
    assertThat(PageImageType.isPageName("a/001.JPG")).isTrue();
    assertThat(PageImageType.isPageName("001.avif")).isTrue();
    assertThat(PageImageType.isPageName("001.heic")).isFalse();
    assertThat(PageImageType.isPageName("ComicInfo.xml")).isFalse();
    assertThat(PageImageType.isPageName("jpg")).isFalse();
  }
}
