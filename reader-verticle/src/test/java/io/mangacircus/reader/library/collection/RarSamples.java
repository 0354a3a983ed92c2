package io.mangacircus.reader.library.collection;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Real RAR files from libarchive's test suite (see src/test/resources/rar/README.md), and copies of one with its
 * members renamed to page names: the name bytes in each file header are replaced by a name of the same length and the
 * header's CRC32 recomputed (RAR5: a CRC32 of the header size and header), the compressed data left as it is.
 */
final class RarSamples {

  /** A RAR5 archive of four compressed members, test1.bin to test4.bin. */
  static final String MULTIPLE_FILES = "test_read_format_rar5_multiple_files.rar";
  /** A hostile archive on which {@code bsdtar -tf} never ends. */
  static final String LOOPING = "test_read_format_rar5_dirdata.rar";

  /** The members' new names: three pages (one with every glob character) and a file that is no page. */
  static final Map<String, String> PAGES = Map.of("test1.bin", "[1]*?.png", "test2.bin", "page2.jpg",
      "test3.bin", "page1.jpg", "test4.bin", "notes.txt");

  private RarSamples() {
  }

  static byte[] bytes(String sample) {
    try (InputStream in = RarSamples.class.getResourceAsStream("/rar/" + sample)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Path write(Path file, String sample) throws IOException {
    return Files.write(file, bytes(sample));
  }

  /** {@link #MULTIPLE_FILES} with its members renamed as {@code renames} says (each new name as long as the old). */
  static Path renamed(Path file, Map<String, String> renames) throws IOException {
    byte[] rar = bytes(MULTIPLE_FILES);
    int at = 8; // after the RAR5 signature
    while (at < rar.length) {
      long[] size = vint(rar, at + 4);
      int headerStart = (int) size[1];
      int headerEnd = headerStart + (int) size[0];
      long[] type = vint(rar, headerStart);
      long[] flags = vint(rar, (int) type[1]);
      int next = (int) flags[1];
      if ((flags[0] & 1) != 0) {
        next = (int) vint(rar, next)[1];
      }
      long dataSize = (flags[0] & 2) != 0 ? vint(rar, next)[0] : 0;
      for (Map.Entry<String, String> rename : renames.entrySet()) {
        byte[] from = rename.getKey().getBytes(StandardCharsets.UTF_8);
        byte[] to = rename.getValue().getBytes(StandardCharsets.UTF_8);
        int found = indexOf(rar, from, headerStart, headerEnd);
        if (found >= 0) {
          if (to.length != from.length) {
            throw new IllegalArgumentException(rename + ": names must be as long as the old ones");
          }
          System.arraycopy(to, 0, rar, found, to.length);
          CRC32 crc = new CRC32();
          crc.update(rar, at + 4, headerEnd - at - 4);
          long value = crc.getValue();
          for (int i = 0; i < 4; i++) {
            rar[at + i] = (byte) (value >>> (8 * i));
          }
        }
      }
      at = headerEnd + (int) dataSize;
    }
    return Files.write(file, rar);
  }

  /** A RAR variable-length integer at {@code at}: its value and where the next field starts. */
  private static long[] vint(byte[] bytes, int at) {
    long value = 0;
    for (int shift = 0; ; shift += 7) {
      int b = bytes[at++] & 0xff;
      value |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return new long[] {value, at};
      }
    }
  }

  private static int indexOf(byte[] bytes, byte[] part, int from, int to) {
    for (int i = from; i + part.length <= to; i++) {
      if (java.util.Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
        return i;
      }
    }
    return -1;
  }
}
