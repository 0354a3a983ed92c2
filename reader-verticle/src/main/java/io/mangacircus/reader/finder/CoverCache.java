package io.mangacircus.reader.finder;

import io.mangacircus.contracts.AtomicFiles;
import io.mangacircus.contracts.DurableFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The reader's on-disk cache of search and preview covers fetched through the scraper: one file per (source, cover id)
 * named by a hash (so no id ever becomes a path), at most {@code maxFiles} files, the least recently used removed
 * first. Only image types are kept. Blocking: call it from a worker.
 */
public final class CoverCache {

  /** Files kept when the reader does not say otherwise. */
  public static final int DEFAULT_MAX_FILES = 200;
  /** Largest cover kept, bytes (the scraper refuses larger ones). */
  public static final int MAX_BYTES = 2 * 1024 * 1024;

  /** The image types a cover may have, with the file extension each is kept under. */
  private static final Map<String, String> TYPES = Map.of("image/jpeg", "jpg", "image/png", "png", "image/webp",
      "webp", "image/gif", "gif", "image/avif", "avif");

  /** A cached cover. */
  public record Cover(String contentType, byte[] bytes) {
  }

  private final Path folder;
  private final int maxFiles;
  private final InstantSource clock;

  /**
   * @param folder where the files go (created on first write)
   * @param maxFiles how many covers are kept at most
   */
  public CoverCache(Path folder, int maxFiles, InstantSource clock) {
    if (maxFiles < 1) {
      throw new IllegalArgumentException("maxFiles must be at least 1: " + maxFiles);
    }
    this.folder = folder;
    this.maxFiles = maxFiles;
    this.clock = clock;
  }

  /** The media type to serve for a content type the scraper named, or empty when it is not an image type we keep. */
  public static Optional<String> imageType(String contentType) {
    if (contentType == null) {
      return Optional.empty();
    }
    String type = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    if (type.equals("image/jpg")) {
      type = "image/jpeg";
    }
    return TYPES.containsKey(type) ? Optional.of(type) : Optional.empty();
  }

  /** The cover if it is cached; marks it used. */
  public synchronized Optional<Cover> get(String source, String coverId) throws IOException {
    String base = key(source, coverId);
    for (Map.Entry<String, String> type : TYPES.entrySet()) {
      Path file = folder.resolve(base + "." + type.getValue());
      try {
        byte[] bytes = Files.readAllBytes(file);
        Files.setLastModifiedTime(file, FileTime.from(clock.instant()));
        return Optional.of(new Cover(type.getKey(), bytes));
      } catch (NoSuchFileException e) {
        // not under this type
      }
    }
    return Optional.empty();
  }

  /** Keeps a cover (written whole, then renamed) and removes the least recently used ones beyond the bound. */
  public synchronized void put(String source, String coverId, String contentType, byte[] bytes) throws IOException {
    String type = imageType(contentType).orElseThrow(() -> new IllegalArgumentException("not an image type: "
        + contentType));
    if (bytes.length > MAX_BYTES) {
      throw new IllegalArgumentException("a cover of " + bytes.length + " bytes is larger than " + MAX_BYTES);
    }
    Path target = folder.resolve(key(source, coverId) + "." + TYPES.get(type));
    AtomicFiles.write(target, bytes);
    // The time of use orders the trimming; a cut that loses it only makes the cover look older.
    Files.setLastModifiedTime(target, FileTime.from(clock.instant()));
    trim();
  }

  /** How many covers are kept now. */
  public synchronized int size() throws IOException {
    return covers().size();
  }

  private void trim() throws IOException {
    List<Path> files = covers();
    if (files.size() <= maxFiles) {
      return;
    }
    List<Path> byUse = new ArrayList<>(files);
    Map<Path, FileTime> times = new java.util.HashMap<>();
    for (Path file : byUse) {
      times.put(file, Files.getLastModifiedTime(file));
    }
    byUse.sort(Comparator.comparing(times::get));
    for (Path old : byUse.subList(0, byUse.size() - maxFiles)) {
      DurableFiles.delete(old);
    }
  }

  private List<Path> covers() throws IOException {
    List<Path> files = new ArrayList<>();
    if (!Files.isDirectory(folder)) {
      return files;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder, "c-*")) {
      entries.forEach(files::add);
    }
    return files;
  }

  private static String key(String source, String coverId) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest((source + "\n" + coverId)
          .getBytes(StandardCharsets.UTF_8));
      return "c-" + HexFormat.of().formatHex(hash, 0, 20);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
