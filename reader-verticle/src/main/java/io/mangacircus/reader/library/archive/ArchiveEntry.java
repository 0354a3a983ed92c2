package io.mangacircus.reader.library.archive;

import io.mangacircus.contracts.library.PageImageType;
import java.util.Objects;

/**
 * One page image of a ZIP archive as its central directory declares it: where its local header starts, how it is
 * stored and how big it is. Where its data starts is read from the local header when the page is served
 * ({@link ArchivePages#locate}), because the local header's name and extra field may differ in length from the central
 * directory's.
 *
 * @param name the entry's name inside the archive, '/'-separated
 * @param method {@link #STORED} or {@link #DEFLATED} (an archive with a page in any other method is unreadable)
 * @param compressedSize bytes of the entry's data in the file
 * @param uncompressedSize bytes of the image
 * @param localHeaderOffset file offset of the entry's local file header
 * @param crc the CRC-32 of the image, unsigned
 */
public record ArchiveEntry(String name, int method, long compressedSize, long uncompressedSize,
    long localHeaderOffset, long crc) {

  /** Compression method 0: the bytes are stored as they are. */
  public static final int STORED = 0;

  /** Compression method 8: raw deflate. */
  public static final int DEFLATED = 8;

  public ArchiveEntry {
    Objects.requireNonNull(name, "name");
    if (method != STORED && method != DEFLATED) {
      throw new IllegalArgumentException("method " + method + " is neither stored (0) nor deflated (8)");
    }
    if (compressedSize < 0 || uncompressedSize < 0 || localHeaderOffset < 0 || crc < 0 || crc > 0xFFFFFFFFL) {
      throw new IllegalArgumentException("negative size, offset or CRC in entry " + name);
    }
  }

  /** The image's media type, from its name's extension ({@link PageImageType}). */
  public String mediaType() {
    return PageImageType.mediaType(name);
  }

  /** Whether a name is a page image by its extension (jpg, jpeg, png, webp, gif, avif; any case). */
  public static boolean isImageName(String name) {
    return PageImageType.isPageName(name);
  }
}
