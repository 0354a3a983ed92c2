package io.mangacircus.scraper.publish;

import io.mangacircus.testing.TestImages;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PageValidatorTest {

  @Test
  void completeJpegAndPngAreAcceptedWithTheirExtension() {
    assertThat(PageValidator.check("image/jpeg", TestImages.jpeg(1)).extension()).isEqualTo("jpg");
    assertThat(PageValidator.check("image/png", TestImages.png(1)).extension()).isEqualTo("png");
    assertThat(PageValidator.check("", TestImages.png(2)).valid()).as("missing content type is not fatal").isTrue();
  }

  @Test
  void anHtmlErrorPageServedWith200IsNotAPage() {
    byte[] html = "<!DOCTYPE html><html><body>Error 503: try later</body></html>".getBytes(StandardCharsets.UTF_8);

    assertThat(PageValidator.check("text/html", html).refusal()).contains("not an image");
    assertThat(PageValidator.check("image/jpeg", html).refusal()).contains("looks like an HTML page");
  }

  @Test
  void truncatedImagesAreRefused() {
    byte[] jpeg = TestImages.jpeg(3);
    byte[] png = TestImages.png(3);

    assertThat(PageValidator.check("image/jpeg", Arrays.copyOf(jpeg, jpeg.length / 2)).refusal()).contains("truncated");
    assertThat(PageValidator.check("image/png", Arrays.copyOf(png, png.length - 5)).refusal()).contains("truncated");
  }

  @Test
  void magicBytesThatLieAreRefused() {
    byte[] fake = new byte[200];
    fake[0] = (byte) 0xFF;
    fake[1] = (byte) 0xD8;
    fake[2] = (byte) 0xFF;
    fake[198] = (byte) 0xFF;
    fake[199] = (byte) 0xD9;

    assertThat(PageValidator.check("image/jpeg", fake).refusal()).contains("does not decode");
    assertThat(PageValidator.check("image/jpeg", new byte[3]).valid()).isFalse();
  }
}
