package io.mangacircus.scraper.demosite;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Random;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/** Draws one demo manga page (panels, shapes, big captions) and encodes it; the same page always gives the same bytes. */
final class PageImageRenderer {

  static final int WIDTH = 800;
  static final int HEIGHT = 1200;

  private static final float JPEG_QUALITY = 0.85f;
  private static final int MARGIN = 40;
  private static final int GUTTER = 16;
  private static final int PANELS_TOP = 230;
  private static final int PANELS_BOTTOM = HEIGHT - 90;

  private PageImageRenderer() {
  }

  /** Renders page {@code page} of {@code pageCount}; a page past the count is drawn as one added later. */
  static byte[] render(DemoSeries series, DemoChapter chapter, int page, int pageCount) {
    BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      // Anti-aliasing and fractional metrics vary between rasterisers; off, the pixels depend only on the font.
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_OFF);
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_OFF);
      g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_OFF);
      g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_NORMALIZE);
      // String.hashCode and java.util.Random are specified algorithms, so the layout is the same on every JVM.
      Random random = new Random((series.id() + "/" + chapter.id() + "/" + page).hashCode());
      g.setColor(Color.getHSBColor(random.nextFloat(), 0.30f, 0.96f));
      g.fillRect(0, 0, WIDTH, HEIGHT);
      drawPanels(g, random);
      String pageLabel = page <= pageCount ? "Page " + page + " / " + pageCount : "Page " + page + " (added)";
      drawCaptions(g, series.title(), "Chapter " + chapter.number(), pageLabel);
    } finally {
      g.dispose();
    }
    return "png".equals(series.imageFormat()) ? encode(image, "png", null) : encode(image, "jpeg", JPEG_QUALITY);
  }

  private static void drawPanels(Graphics2D g, Random random) {
    int rows = 2 + random.nextInt(2);
    int rowHeight = (PANELS_BOTTOM - PANELS_TOP - (rows - 1) * GUTTER) / rows;
    for (int row = 0; row < rows; row++) {
      int y = PANELS_TOP + row * (rowHeight + GUTTER);
      int innerWidth = WIDTH - 2 * MARGIN;
      if (random.nextBoolean()) {
        int split = innerWidth / 3 + random.nextInt(innerWidth / 3);
        drawPanel(g, random, MARGIN, y, split - GUTTER / 2, rowHeight);
        drawPanel(g, random, MARGIN + split + GUTTER / 2, y, innerWidth - split - GUTTER / 2, rowHeight);
      } else {
        drawPanel(g, random, MARGIN, y, innerWidth, rowHeight);
      }
    }
  }

  private static void drawPanel(Graphics2D g, Random random, int x, int y, int width, int height) {
    g.setColor(Color.WHITE);
    g.fillRect(x, y, width, height);
    g.setColor(Color.getHSBColor(random.nextFloat(), 0.55f, 0.75f));
    g.setStroke(new BasicStroke(2));
    for (int line = 0; line < 6; line++) {
      g.drawLine(x + random.nextInt(width), y, x + random.nextInt(width), y + height - 1);
    }
    int size = Math.min(width, height) / 3;
    int cx = x + size / 2 + random.nextInt(Math.max(1, width - 2 * size));
    int cy = y + size / 2 + random.nextInt(Math.max(1, height - 2 * size));
    g.fillOval(cx, cy, size, size);
    g.setColor(Color.BLACK);
    g.setStroke(new BasicStroke(3));
    g.drawOval(cx, cy, size, size);
    g.drawLine(cx + size / 2, cy + size, cx + size / 2, Math.min(y + height - 10, cy + 2 * size));
    g.setStroke(new BasicStroke(6));
    g.drawRect(x, y, width, height);
  }

  private static void drawCaptions(Graphics2D g, String title, String chapterLabel, String pageLabel) {
    int textWidth = WIDTH - 2 * MARGIN;
    int boxLeft = MARGIN + 40;
    int boxWidth = WIDTH - 2 * boxLeft;
    int boxTop = HEIGHT / 2 - 70;
    g.setColor(Color.BLACK);
    drawCentred(g, title, Font.BOLD, 52, textWidth, 100);
    drawCentred(g, chapterLabel, Font.PLAIN, 40, textWidth, 170);
    g.setColor(Color.WHITE);
    g.fillRoundRect(boxLeft, boxTop, boxWidth, 130, 40, 40);
    g.setColor(Color.BLACK);
    g.setStroke(new BasicStroke(5));
    g.drawRoundRect(boxLeft, boxTop, boxWidth, 130, 40, 40);
    drawCentred(g, pageLabel, Font.BOLD, 72, boxWidth - 40, boxTop + 92);
    drawCentred(g, "MangaCircus demo site", Font.PLAIN, 22, textWidth, HEIGHT - 40);
  }

  /** Draws the text centred, in the largest size up to {@code size} that fits {@code maxWidth}. */
  private static void drawCentred(Graphics2D g, String text, int style, int size, int maxWidth, int baseline) {
    Font font = new Font(Font.SANS_SERIF, style, size);
    while (g.getFontMetrics(font).stringWidth(text) > maxWidth && font.getSize() > 12) {
      font = font.deriveFont((float) font.getSize() - 4);
    }
    g.setFont(font);
    g.drawString(text, (WIDTH - g.getFontMetrics().stringWidth(text)) / 2, baseline);
  }

  private static byte[] encode(BufferedImage image, String format, Float quality) {
    ImageWriter writer = ImageIO.getImageWritersByFormatName(format).next();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 * 1024);
    try (ImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
      ImageWriteParam param = writer.getDefaultWriteParam();
      if (quality != null) {
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionQuality(quality);
      }
      writer.setOutput(out);
      writer.write(null, new IIOImage(image, null, null), param);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode a demo page as " + format + " in memory", e);
    } finally {
      writer.dispose();
    }
    return bytes.toByteArray();
  }
}
