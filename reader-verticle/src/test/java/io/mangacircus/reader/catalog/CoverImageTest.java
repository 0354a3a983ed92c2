package io.mangacircus.reader.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class CoverImageTest {

  private static byte[] image(String format, int width, int height) throws IOException {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Random random = new Random(3);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        image.setRGB(x, y, random.nextInt(0x1000000));
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(image, format, out);
    return out.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  @Test
  void completeJpegAndPngAreCovers() throws IOException {
    assertThat(CoverImage.check(image("jpg", 400, 600))).isEqualTo(new CoverImage.Verdict("jpg", null));
    assertThat(CoverImage.check(image("png", 300, 400))).isEqualTo(new CoverImage.Verdict("png", null));
  }

  @Test
  void aJpegWithBytesAfterItsEndMarkerIsStillACover() throws IOException {
    byte[] camera = concat(image("jpg", 200, 300), "SEFT trailer some phones append".getBytes(StandardCharsets.UTF_8));

    assertThat(CoverImage.check(camera).valid()).isTrue();
  }

  @Test
  void aTruncatedJpegIsRefusedThoughTheDecoderWouldFillItIn() throws IOException {
    byte[] whole = image("jpg", 800, 1100);
    assertThat(whole.length).isGreaterThan(60_000);

    CoverImage.Verdict verdict = CoverImage.check(Arrays.copyOf(whole, 60_000));

    assertThat(verdict.valid()).isFalse();
    assertThat(verdict.refusal()).contains("JPEG", "truncated");
  }

  @Test
  void aTruncatedPngIsRefusedWhereverItWasCut() throws IOException {
    byte[] whole = image("png", 300, 400);

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
    byte[] wide = image("png", CoverImage.MAX_SIDE + 1, 1);

    assertThat(CoverImage.check(wide).refusal()).contains("at most " + CoverImage.MAX_SIDE);
  }
}
