package io.mangacircus.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

/** Lays published chapters straight into a library folder, shaped as the scraper publishes them. */
public final class LibraryFixture {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Path library;

  /** A fixture writing into {@code <dataDir>/library}. */
  public LibraryFixture(Path dataDir) {
    this.library = dataDir.resolve("library");
  }

  public Path library() {
    return library;
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
        list.addObject().put("index", page).put("file", file).put("size", png.length).put("sha256", sha256(png));
      }
      Files.write(folder.resolve("chapter.json"), MAPPER.writeValueAsBytes(json));
      return folder;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A small portrait PNG with a caption. */
  public static byte[] png(String caption) {
    return TestImages.captioned(caption);
  }

  /** The lowercase hex SHA-256 of the bytes, as {@code chapter.json} records a page. */
  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
