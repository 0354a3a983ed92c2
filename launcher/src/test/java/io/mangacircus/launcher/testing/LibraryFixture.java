package io.mangacircus.launcher.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import javax.imageio.ImageIO;

/** Lays published chapters straight into a library folder, shaped as the scraper publishes them. */
public final class LibraryFixture {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Path library;

  public LibraryFixture(Path dataDir) {
    this.library = dataDir.resolve("library");
  }

  /** Publishes {@code pages} PNG pages (each showing its number) as {@code <series>/chapter-000N/}. */
  public Path chapter(String seriesId, String seriesTitle, int number, int pages, Instant publishedAt) {
    Path folder = library.resolve(seriesId).resolve(String.format("chapter-%04d", number));
    try {
      Files.createDirectories(folder);
      ObjectNode json = MAPPER.createObjectNode().put("schema", 1).put("source", "fixture")
          .put("titleId", seriesId).put("series", seriesTitle).put("chapterId", "c" + number)
          .put("number", String.valueOf(number)).put("title", "Chapter " + number).put("language", "en")
          .put("publishedAt", publishedAt.toString());
      ArrayNode list = json.putArray("pages");
      for (int page = 1; page <= pages; page++) {
        byte[] png = png(seriesTitle + " " + number + " / " + page);
        String file = String.format("%03d.png", page);
        Files.write(folder.resolve(file), png);
        list.addObject().put("index", page).put("file", file).put("size", png.length)
            .put("sha256", HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(png)));
      }
      Files.write(folder.resolve("chapter.json"), MAPPER.writeValueAsBytes(json));
      return folder;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A small portrait PNG with a caption. */
  public static byte[] png(String caption) {
    BufferedImage image = new BufferedImage(300, 420, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(new Color(0xF4, 0xEF, 0xE6));
    g.fillRect(0, 0, 300, 420);
    g.setColor(new Color(0x33, 0x33, 0x33));
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 22));
    g.drawString(caption, 16, 210);
    g.dispose();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ImageIO.write(image, "png", out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
