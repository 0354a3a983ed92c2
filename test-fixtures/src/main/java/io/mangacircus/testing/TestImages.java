package io.mangacircus.testing;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Random;
import javax.imageio.ImageIO;

/** Small real images (decodable PNG/JPEG bytes) for tests; the same seed gives the same bytes. */
public final class TestImages {

  private TestImages() {
  }

  /** A 48x72 image in a colour of the seed, crossed by a line, so different seeds give different bytes. */
  public static byte[] image(String format, int seed) {
    return image(format, 48, 72, seed);
  }

  /** A plain image of the given size in a colour of the seed, crossed by a line. */
  public static byte[] image(String format, int width, int height, int seed) {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(new Color(Math.floorMod(seed * 37, 255), Math.floorMod(seed * 91, 255),
        Math.floorMod(seed * 13, 255)));
    g.fillRect(0, 0, width, height);
    g.setColor(Color.WHITE);
    g.drawLine(0, Math.floorMod(seed, height), width - 1, height - 1 - Math.floorMod(seed, height));
    g.drawString(String.valueOf(seed), 4, height / 2);
    g.dispose();
    return encode(image, format);
  }

  public static byte[] jpeg(int seed) {
    return image("jpg", seed);
  }

  public static byte[] png(int seed) {
    return image("png", seed);
  }

  /** A portrait 300x420 PNG showing a caption (a page a person can tell apart in a browser). */
  public static byte[] captioned(String caption) {
    BufferedImage image = new BufferedImage(300, 420, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(new Color(0xF4, 0xEF, 0xE6));
    g.fillRect(0, 0, 300, 420);
    g.setColor(new Color(0x33, 0x33, 0x33));
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 22));
    g.drawString(caption, 16, 210);
    g.dispose();
    return encode(image, "png");
  }

  /** A photo-like image of random pixels: it compresses badly, so it is large for its size. */
  public static byte[] noise(String format, int width, int height, long seed) {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Random random = new Random(seed);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        image.setRGB(x, y, random.nextInt(0x1000000));
      }
    }
    return encode(image, format);
  }

  private static byte[] encode(BufferedImage image, String format) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      if (!ImageIO.write(image, format, out)) {
        throw new IllegalArgumentException("no image writer for " + format);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
