package io.mangacircus.scraper.publish;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.imageio.ImageIO;

/** Small real images for publish tests. */
final class TestImages {

  private TestImages() {
  }

  static byte[] image(String format, int seed) {
    BufferedImage image = new BufferedImage(40, 60, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(new Color(seed * 37 % 255, seed * 91 % 255, seed * 13 % 255));
    g.fillRect(0, 0, 40, 60);
    g.setColor(Color.WHITE);
    g.drawLine(0, seed % 60, 39, 59 - seed % 60);
    g.dispose();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ImageIO.write(image, format, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static byte[] jpeg(int seed) {
    return image("jpg", seed);
  }

  static byte[] png(int seed) {
    return image("png", seed);
  }
}
