package io.mangacircus.scraper.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.validate.PageValidator.Mode;
import io.mangacircus.testing.TestImages;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PageValidatorTest {

  /** A valid file of every format, with the extension it is stored under. */
  private static Map<String, byte[]> validFiles() {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("jpg", ImageFixtures.jpeg(64, 96));
    files.put("png", ImageFixtures.png(64, 96));
    files.put("gif", ImageFixtures.gif(64, 96));
    files.put("webp (lossy, VP8X + ALPH + VP8)", ImageFixtures.lossyWebp());
    files.put("webp (lossless, VP8L)", ImageFixtures.losslessWebp(64, 96, 200, 40, 90));
    files.put("webp (lossy, VP8)", ImageFixtures.lossyWebpHeaderOnly(64, 96));
    files.put("avif", ImageFixtures.avif(64, 96));
    return files;
  }

  @Test
  void aValidFileOfEveryFormatIsAcceptedWithItsExtension() {
    validFiles().forEach((name, bytes) -> assertThat(PageValidator.check("image/whatever", bytes))
        .as(name).isEqualTo(new PageValidator.Verdict(name.split(" ")[0], null)));
    assertThat(PageValidator.check("", TestImages.png(2)).valid()).as("missing content type is not fatal").isTrue();
  }

  @Test
  void everyFormatCutAtTenPointsIsRefusedAsTruncated() {
    validFiles().forEach((name, bytes) -> {
      for (int i = 1; i <= 10; i++) {
        int cut = i == 10 ? bytes.length - 1 : (int) ((long) bytes.length * i / 10);
        PageValidator.Verdict verdict = PageValidator.check("image/jpeg", Arrays.copyOf(bytes, cut));
        assertThat(verdict.valid()).as("%s cut to %d of %d bytes", name, cut, bytes.length).isFalse();
        if (cut >= 16) {
          assertThat(verdict.refusal()).as("%s cut to %d of %d bytes", name, cut, bytes.length).contains("truncated");
        }
      }
    });
  }

  @Test
  void aPngWithOneBitFlippedFailsItsChunkCrc() {
    byte[] flipped = ImageFixtures.bitFlippedPng(ImageFixtures.png(64, 96));

    assertThat(PageValidator.check("image/png", flipped).refusal())
        .isEqualTo("PNG is damaged: chunk IDAT at byte 33 fails its CRC check");
  }

  @Test
  void aJpegWithBytesAfterItsEndOfImageMarkerIsAccepted() {
    byte[] padded = ImageFixtures.concat(ImageFixtures.jpeg(64, 96), new byte[4096]);
    byte[] trailer = ImageFixtures.concat(ImageFixtures.jpeg(64, 96), "camera trailer".getBytes(StandardCharsets.UTF_8));

    assertThat(PageValidator.check("image/jpeg", padded)).isEqualTo(new PageValidator.Verdict("jpg", null));
    assertThat(PageValidator.check("image/jpeg", trailer)).isEqualTo(new PageValidator.Verdict("jpg", null));
  }

  @Test
  void anHtmlErrorPageServedWith200IsNotAPage() {
    byte[] html = "<!DOCTYPE html><html><body>Error 503: try later</body></html>".getBytes(StandardCharsets.UTF_8);
    byte[] json = "{\"result\":\"error\",\"errors\":[{\"status\":404}]}".getBytes(StandardCharsets.UTF_8);

    assertThat(PageValidator.check("text/html", html).refusal()).contains("not an image");
    assertThat(PageValidator.check("image/jpeg", html).refusal()).contains("looks like an HTML page");
    assertThat(PageValidator.check("image/jpeg", json).refusal()).contains("looks like JSON");
    assertThat(PageValidator.check("image/jpeg", html, Mode.DECODE).refusal()).contains("looks like an HTML page");
  }

  @Test
  void aOneByOnePlaceholderIsRefusedInEveryFormat() {
    Map<String, byte[]> pixels = Map.of("JPEG", ImageFixtures.jpeg(1, 1), "PNG", ImageFixtures.png(1, 1),
        "GIF", ImageFixtures.gif(1, 1), "WebP", ImageFixtures.losslessWebp(1, 1, 0, 0, 0),
        "AVIF", ImageFixtures.avif(1, 1));

    pixels.forEach((format, bytes) -> assertThat(PageValidator.check("image/png", bytes).refusal()).as(format)
        .isEqualTo(format + " is a 1×1 placeholder (a tracking pixel or blank), not a page"));
  }

  @Test
  void sidesUnder16OrOver30000PixelsAreRefusedAndTheLimitsAccepted() {
    byte[] png = ImageFixtures.png(64, 96);

    assertThat(PageValidator.check("image/jpeg", ImageFixtures.jpeg(12, 400)).refusal())
        .isEqualTo("JPEG is 12×400 px: too small for a page (at least 16 px a side)");
    assertThat(PageValidator.check("image/gif", ImageFixtures.gif(400, 15)).refusal()).contains("15 px", "too small");
    assertThat(PageValidator.check("image/png", ImageFixtures.pngWithSize(png, 30_001, 96)).refusal())
        .isEqualTo("PNG is 30001×96 px: too large for a page (at most 30000 px a side)");
    assertThat(PageValidator.check("image/avif", ImageFixtures.avif(64, 40_000)).refusal()).contains("too large");
    assertThat(PageValidator.check("image/jpeg", ImageFixtures.jpeg(16, 16)).valid()).isTrue();
    assertThat(PageValidator.check("image/png", ImageFixtures.pngWithSize(png, 30_000, 96)).valid()).isTrue();
  }

  @Test
  void bytesWithAnImageSignatureButNoStructureAreRefused() {
    byte[] fake = new byte[200];
    fake[0] = (byte) 0xFF;
    fake[1] = (byte) 0xD8;
    fake[2] = (byte) 0xFF;
    fake[198] = (byte) 0xFF;
    fake[199] = (byte) 0xD9;

    assertThat(PageValidator.check("image/jpeg", fake).refusal()).startsWith("JPEG is damaged");
    assertThat(PageValidator.check("image/jpeg", new byte[3]).valid()).isFalse();
  }

  @Test
  void aJpegWhoseImageDataIsDamagedPassesTheStructureWalkButNotTheDecode() {
    byte[] damaged = ImageFixtures.jpeg(64, 96);
    int scan = scanStart(damaged);
    // A restart marker where none was announced: legal bytes for the structure, nonsense for the decoder.
    int middle = scan + (damaged.length - scan) / 2;
    damaged[middle] = (byte) 0xFF;
    damaged[middle + 1] = (byte) 0xD3;

    assertThat(PageValidator.check("image/jpeg", damaged, Mode.STRUCTURE).valid()).isTrue();
    assertThat(PageValidator.check("image/jpeg", damaged, Mode.DECODE).refusal()).startsWith("JPEG does not decode");
  }

  @Test
  void decodeModeDecodesJpegPngGifAndWebpAndSaysWhenItCannot() {
    assertThat(PageValidator.check("image/jpeg", ImageFixtures.jpeg(64, 96), Mode.DECODE).extension()).isEqualTo("jpg");
    assertThat(PageValidator.check("image/png", ImageFixtures.png(64, 96), Mode.DECODE).extension()).isEqualTo("png");
    assertThat(PageValidator.check("image/gif", ImageFixtures.gif(64, 96), Mode.DECODE).extension()).isEqualTo("gif");
    assertThat(PageValidator.check("image/webp", ImageFixtures.lossyWebp(), Mode.DECODE).extension())
        .isEqualTo("webp");
    assertThat(PageValidator.check("image/webp", ImageFixtures.losslessWebp(64, 96, 200, 40, 90), Mode.DECODE)
        .extension()).isEqualTo("webp");
    assertThat(PageValidator.check("image/avif", ImageFixtures.avif(64, 96), Mode.DECODE).refusal())
        .isEqualTo("AVIF cannot be decoded here (no decoder for it); this source's \"validation\" must be "
            + "\"structure\" for AVIF pages");
  }

  /** The first byte after the JPEG's first start-of-scan segment. */
  private static int scanStart(byte[] jpeg) {
    int p = 2;
    while ((jpeg[p + 1] & 0xFF) != 0xDA) {
      p += 2 + (((jpeg[p + 2] & 0xFF) << 8) | (jpeg[p + 3] & 0xFF));
    }
    return p + 2 + (((jpeg[p + 2] & 0xFF) << 8) | (jpeg[p + 3] & 0xFF));
  }
}
