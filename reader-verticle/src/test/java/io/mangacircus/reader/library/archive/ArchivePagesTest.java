package io.mangacircus.reader.library.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.reader.library.archive.ArchiveIndex.Readable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every page served from the archive is byte-identical to its source; a lying entry fails instead of flooding. */
class ArchivePagesTest {

  @TempDir
  Path dir;

  private final Random random = new Random(36);

  private Map<String, byte[]> images(int count) {
    Map<String, byte[]> images = new LinkedHashMap<>();
    for (int i = count; i >= 1; i--) {
      // Half random (incompressible like a JPEG), half repeated, so deflate has something to do.
      byte[] image = new byte[20_000 + random.nextInt(50_000)];
      random.nextBytes(image);
      java.util.Arrays.fill(image, image.length / 2, image.length, (byte) i);
      images.put("page" + i + ".jpg", image);
    }
    return images;
  }

  private Path cbz(String name, int method, Map<String, byte[]> images) throws IOException {
    Path file = dir.resolve(name);
    try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
      for (Map.Entry<String, byte[]> image : images.entrySet()) {
        ZipEntry entry = new ZipEntry(image.getKey());
        entry.setMethod(method);
        if (method == ZipEntry.STORED) {
          CRC32 crc = new CRC32();
          crc.update(image.getValue());
          entry.setSize(image.getValue().length);
          entry.setCrc(crc.getValue());
        }
        // An extra field in the local header only: the data starts later than the central directory suggests.
        entry.setExtra(new byte[] {(byte) 0xCA, (byte) 0xFE, 4, 0, 1, 2, 3, 4});
        zip.putNextEntry(entry);
        zip.write(image.getValue());
        zip.closeEntry();
      }
    }
    return file;
  }

  private static ArchiveIndex index(Path file) {
    ArchiveIndex.Result result = ArchiveIndex.read(file);
    assertThat(result).as(result.toString()).isInstanceOf(Readable.class);
    return ((Readable) result).index();
  }

  @Test
  void aStoredPageIsExactlyItsImagesBytesInTheFile() throws IOException {
    Map<String, byte[]> images = images(12);
    Path file = cbz("stored.cbz", ZipEntry.STORED, images);
    ArchiveIndex index = index(file);

    assertThat(index.pages()).extracting(ArchiveEntry::name).startsWith("page1.jpg", "page2.jpg")
        .endsWith("page10.jpg", "page11.jpg", "page12.jpg");
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      for (ArchiveEntry page : index.pages()) {
        PageRange range = ArchivePages.locate(channel, index, page);
        ByteBuffer bytes = ByteBuffer.allocate((int) range.length());
        while (bytes.hasRemaining()) {
          channel.read(bytes, range.offset() + bytes.position());
        }
        assertThat(bytes.array()).as(page.name()).isEqualTo(images.get(page.name()));
        try (InputStream stream = ArchivePages.open(channel, index, page)) {
          assertThat(stream.readAllBytes()).as(page.name()).isEqualTo(images.get(page.name()));
        }
      }
    }
  }

  @Test
  void aDeflatedPageInflatesToItsImagesBytes() throws IOException {
    Map<String, byte[]> images = images(12);
    Path file = cbz("deflated.cbz", ZipEntry.DEFLATED, images);
    ArchiveIndex index = index(file);

    assertThat(index.pages()).hasSize(12).allMatch(p -> p.method() == ArchiveEntry.DEFLATED);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      for (ArchiveEntry page : index.pages()) {
        try (InputStream stream = ArchivePages.open(channel, index, page)) {
          assertThat(stream.readAllBytes()).as(page.name()).isEqualTo(images.get(page.name()));
        }
      }
    }
  }

  @Test
  void theDataStartsAfterTheLocalHeadersOwnExtraFieldNotTheCentralOne() throws IOException {
    byte[] image = "the page's bytes".getBytes();
    HandMadeZip zip = new HandMadeZip();
    zip.add("p1.jpg", image, 0).localExtra = new byte[] {(byte) 0xCA, (byte) 0xFE, 3, 0, 9, 9, 9};
    Path file = Files.write(dir.resolve("padded.cbz"), zip.bytes());
    ArchiveIndex index = index(file);

    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      PageRange range = ArchivePages.locate(channel, index, index.pages().get(0));
      ByteBuffer bytes = ByteBuffer.allocate((int) range.length());
      channel.read(bytes, range.offset());
      assertThat(bytes.array()).isEqualTo(image);
    }
  }

  @Test
  void anEntryHoldingMoreThanItDeclaresStopsWithAnError() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    zip.add("p1.jpg", new byte[60_000], 8).declaredUncompressed = 1_000;

    assertThatThrownBy(() -> readAll(zip, "more.cbz"))
        .isInstanceOf(IOException.class).hasMessageContaining("more than its declared 1000 bytes");
  }

  @Test
  void anEntryHoldingLessThanItDeclaresStopsWithAnError() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    zip.add("p1.jpg", new byte[1_000], 8).declaredUncompressed = 2_000;

    assertThatThrownBy(() -> readAll(zip, "less.cbz"))
        .isInstanceOf(IOException.class).hasMessageContaining("holds 1000 bytes, not its declared 2000");
  }

  @Test
  void anEntryFailingItsCrcStopsWithAnError() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    zip.add("p1.jpg", "not the bytes the CRC was taken of".getBytes(), 8).declaredCrc = 12345;

    assertThatThrownBy(() -> readAll(zip, "crc.cbz"))
        .isInstanceOf(IOException.class).hasMessageContaining("CRC-32");
  }

  @Test
  void anArchiveChangedSinceItWasIndexedIsNotServedFromStaleOffsets() throws IOException {
    Map<String, byte[]> images = images(2);
    Path file = cbz("changed.cbz", ZipEntry.STORED, images);
    ArchiveIndex index = index(file);
    Files.write(file, new byte[10], StandardOpenOption.APPEND);

    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      assertThatThrownBy(() -> ArchivePages.locate(channel, index, index.pages().get(0)))
          .isInstanceOf(IOException.class).hasMessageContaining("indexed at");
    }
  }

  private byte[] readAll(HandMadeZip zip, String name) throws IOException {
    Path file = Files.write(dir.resolve(name), zip.bytes());
    ArchiveIndex index = index(file);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        InputStream stream = ArchivePages.open(channel, index, index.pages().get(0))) {
      return stream.readAllBytes();
    }
  }
}
