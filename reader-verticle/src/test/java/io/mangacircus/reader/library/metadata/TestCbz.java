package io.mangacircus.reader.library.metadata;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Writes a small CBZ with the JDK's ZIP writer, every entry stored or every entry deflated. */
final class TestCbz {

  private TestCbz() {
  }

  /** Writes the entries given as name, content, name, content... */
  static Path write(Path file, boolean stored, String... namesAndContents) throws IOException {
    try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
      for (int i = 0; i < namesAndContents.length; i += 2) {
        byte[] content = namesAndContents[i + 1].getBytes(StandardCharsets.UTF_8);
        ZipEntry entry = new ZipEntry(namesAndContents[i]);
        if (stored) {
          CRC32 crc = new CRC32();
          crc.update(content);
          entry.setMethod(ZipEntry.STORED);
          entry.setSize(content.length);
          entry.setCrc(crc.getValue());
        } else {
          entry.setMethod(ZipEntry.DEFLATED);
        }
        zip.putNextEntry(entry);
        zip.write(content);
        zip.closeEntry();
      }
    }
    return file;
  }
}
