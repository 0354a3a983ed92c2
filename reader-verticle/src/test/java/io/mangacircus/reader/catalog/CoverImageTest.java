package io.mangacircus.reader.catalog;

import io.mangacircus.testing.TestImages;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CoverImageTest {


  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  @Test
  void completeJpegAndPngAreCovers() throws IOException {
    assertThat(CoverImage.check(TestImages.noise("jpg", 400, 600, 3))).isEqualTo(new CoverImage.Verdict("jpg", null));
    assertThat(CoverImage.check(TestImages.noise("png", 300, 400, 3))).isEqualTo(new CoverImage.Verdict("png", null));
  }

  @Test
  void aJpegWithBytesAfterItsEndMarkerIsStillACover() throws IOException {
    byte[] camera = concat(TestImages.noise("jpg", 200, 300, 3),
        "SEFT trailer some phones append".getBytes(StandardCharsets.UTF_8));

    assertThat(CoverImage.check(camera).valid()).isTrue();
  }

  @Test
  void aTruncatedJpegIsRefusedThoughTheDecoderWouldFillItIn() throws IOException {
    byte[] whole = TestImages.noise("jpg", 800, 1100, 3);
    assertThat(whole.length).isGreaterThan(60_000);

    CoverImage.Verdict verdict = CoverImage.check(Arrays.copyOf(whole, 60_000));

    assertThat(verdict.valid()).isFalse();
    assertThat(verdict.refusal()).contains("JPEG", "truncated");
  }

  @Test
  void aTruncatedPngIsRefusedWhereverItWasCut() throws IOException {
    byte[] whole = TestImages.noise("png", 300, 400, 3);

    assertThat(CoverImage.check(Arrays.copyOf(whole, whole.length / 2)).valid()).isFalse();
    assertThat(CoverImage.check(Arrays.copyOf(whole, whole.length - 12)).refusal()).contains("PNG", "end chunk");
  }

  @Test
  void bytesThatAreNoImageOrDoNotDecodeAreRefused() {
    byte[] html = "<!doctype html><title>404</title>".getBytes(StandardCharsets.UTF_8);
    byte[] jpegHeaderOnly = Arrays.copyOf(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0}, 2048);

    assertThat(CoverImage.check(html).refusal()).contains("JPEG or PNG");
    assertThat(CoverImage.check(new byte[0]).valid()).isFalse();
    assertThat(CoverImage.check(jpegHeaderOnly).refusal()).contains("JPEG");
  }

  @Test
  void anImageOverTheSizeLimitIsRefusedBeforeItIsDecoded() throws IOException {
    byte[] wide = TestImages.noise("png", CoverImage.MAX_SIDE + 1, 1, 3);

    assertThat(CoverImage.check(wide).refusal()).contains("at most " + CoverImage.MAX_SIDE);
  }
}
