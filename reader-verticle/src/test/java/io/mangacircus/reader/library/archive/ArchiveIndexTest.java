package io.mangacircus.reader.library.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.library.archive.ArchiveIndex.Readable;
import io.mangacircus.reader.library.archive.ArchiveIndex.Refusal;
import io.mangacircus.reader.library.archive.ArchiveIndex.Result;
import io.mangacircus.reader.library.archive.ArchiveIndex.Unreadable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which archives are read and which are refused, and why; every refusal a value with its reason. */
class ArchiveIndexTest {

  @TempDir
  Path dir;

  private Path write(String name, byte[] bytes) throws IOException {
    return Files.write(dir.resolve(name), bytes);
  }

  private Path cbz(String name, int method, String... entries) throws IOException {
    Path file = dir.resolve(name);
    try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
      for (String entry : entries) {
        byte[] content = ("image " + entry).getBytes();
        ZipEntry e = new ZipEntry(entry);
        e.setMethod(method);
        if (method == ZipEntry.STORED) {
          java.util.zip.CRC32 crc = new java.util.zip.CRC32();
          crc.update(content);
          e.setSize(content.length);
          e.setCrc(crc.getValue());
        }
        zip.putNextEntry(e);
        zip.write(content);
        zip.closeEntry();
      }
    }
    return file;
  }

  private static Unreadable refused(Result result) {
    assertThat(result).isInstanceOf(Unreadable.class);
    return (Unreadable) result;
  }

  private static ArchiveIndex readable(Result result) {
    assertThat(result).as(result.toString()).isInstanceOf(Readable.class);
    return ((Readable) result).index();
  }

  @Test
  void listsOnlyImagesInNaturalOrderWithTheirFields() throws IOException {
    Path file = cbz("book.cbz", ZipEntry.DEFLATED, "p10.JPG", "ComicInfo.xml", "p2.png", "p1.webp", "folder/",
        "__MACOSX/._p1.webp", "p3.gif", "p4.avif", "p5.jpeg", ".hidden.jpg");

    ArchiveIndex index = readable(ArchiveIndex.read(file));

    assertThat(index.pages()).extracting(ArchiveEntry::name)
        .containsExactly("p1.webp", "p2.png", "p3.gif", "p4.avif", "p5.jpeg", "p10.JPG");
    ArchiveEntry first = index.pages().get(0);
    assertThat(first.method()).isEqualTo(ArchiveEntry.DEFLATED);
    assertThat(first.uncompressedSize()).isEqualTo("image p1.webp".length());
    assertThat(first.mediaType()).isEqualTo("image/webp");
    assertThat(index.fileSize()).isEqualTo(Files.size(file));
  }

  @Test
  void readsAZip64CentralDirectory() throws IOException {
    HandMadeZip zip = new HandMadeZip().zip64();
    zip.add("b2.jpg", new byte[] {1, 2, 3}, 0);
    zip.add("b1.jpg", new byte[] {4, 5}, 8);

    ArchiveIndex index = readable(ArchiveIndex.read(write("z64.cbz", zip.bytes())));

    assertThat(index.pages()).extracting(ArchiveEntry::name, ArchiveEntry::uncompressedSize)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("b1.jpg", 2L),
            org.assertj.core.groups.Tuple.tuple("b2.jpg", 3L));
    assertThat(index.pages().get(1).localHeaderOffset()).isZero();
  }

  @Test
  void refusesAFileThatIsNoZip() throws IOException {
    Unreadable no = refused(ArchiveIndex.read(write("notes.cbz", "just some text, long enough".getBytes())));

    assertThat(no.refusal()).isEqualTo(Refusal.NOT_A_ZIP);
    assertThat(no.reason()).contains("not a ZIP");
    assertThat(refused(ArchiveIndex.read(write("empty.cbz", new byte[0]))).refusal()).isEqualTo(Refusal.NOT_A_ZIP);
  }

  @Test
  void refusesAnArchiveCutInItsCentralDirectory() throws IOException {
    byte[] whole = Files.readAllBytes(cbz("whole.cbz", ZipEntry.STORED, "p1.jpg", "p2.jpg", "p3.jpg"));
    int cdOffset = ByteBuffer.wrap(whole).order(ByteOrder.LITTLE_ENDIAN).getInt(whole.length - 6);

    Unreadable cut = refused(ArchiveIndex.read(write("cut.cbz", Arrays.copyOf(whole, cdOffset + 60))));

    assertThat(cut.refusal()).isEqualTo(Refusal.TRUNCATED);
    assertThat(cut.reason()).contains("cut short");
  }

  @Test
  void refusesAnArchiveCutInAnEntrysData() throws IOException {
    byte[] whole = Files.readAllBytes(cbz("whole.cbz", ZipEntry.STORED, "p1.jpg", "p2.jpg"));

    assertThat(refused(ArchiveIndex.read(write("cut.cbz", Arrays.copyOf(whole, 40)))).refusal())
        .isEqualTo(Refusal.TRUNCATED);
  }

  @Test
  void refusesAnEntryWhoseDataRunsPastTheEntriesEnd() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    zip.add("p1.jpg", new byte[100], 0);
    byte[] bytes = zip.bytes();
    // The central header's compressed and uncompressed sizes (offsets 20 and 24) claim 1,000 bytes of data.
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int cd = buffer.getInt(bytes.length - 6);
    buffer.putInt(cd + 20, 1000).putInt(cd + 24, 1000);

    Unreadable past = refused(ArchiveIndex.read(write("past.cbz", bytes)));

    assertThat(past.refusal()).isEqualTo(Refusal.TRUNCATED);
    assertThat(past.reason()).contains("'p1.jpg'").contains("runs past");
  }

  @Test
  void refusesAnEncryptedEntry() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    zip.add("p1.jpg", new byte[10], 0).flags = 1;

    Unreadable secret = refused(ArchiveIndex.read(write("secret.cbz", zip.bytes())));

    assertThat(secret.refusal()).isEqualTo(Refusal.ENCRYPTED);
    assertThat(secret.reason()).contains("'p1.jpg' is encrypted");
  }

  @Test
  void refusesNamesThatClimbOutOrAreAbsolute() throws IOException {
    for (String name : new String[] {"../../etc/passwd", "pages/../../x.jpg", "/etc/passwd", "C:\\x.jpg", "\\\\host\\x",
        "a\\..\\..\\b.jpg"}) {
      HandMadeZip zip = new HandMadeZip();
      zip.add("p1.jpg", new byte[10], 0);
      zip.add(name, new byte[10], 0);

      Unreadable unsafe = refused(ArchiveIndex.read(write("unsafe.cbz", zip.bytes())));

      assertThat(unsafe.refusal()).as(name).isEqualTo(Refusal.UNSAFE_NAME);
      assertThat(unsafe.reason()).as(name).contains(name);
    }
  }

  @Test
  void refusesASymbolicLinkEntry() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    zip.add("p1.jpg", new byte[10], 0);
    zip.add("p2.jpg", "/etc/passwd".getBytes(), 0).externalAttributes = 0120777L << 16;

    Unreadable link = refused(ArchiveIndex.read(write("link.cbz", zip.bytes())));

    assertThat(link.refusal()).isEqualTo(Refusal.SYMLINK);
    assertThat(link.reason()).contains("'p2.jpg' is a symbolic link");
  }

  @Test
  void aRegularUnixFileModeIsNoLink() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    zip.add("p1.jpg", new byte[10], 0).externalAttributes = 0100644L << 16;

    assertThat(readable(ArchiveIndex.read(write("plain.cbz", zip.bytes()))).pages()).hasSize(1);
  }

  @Test
  void refusesAZipBombOfTenMegabytesOfZeros() throws IOException {
    Path file = dir.resolve("bomb.cbz");
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file))) {
      zip.putNextEntry(new ZipEntry("p1.jpg"));
      zip.write(new byte[10 << 20]);
      zip.closeEntry();
    }

    Unreadable bomb = refused(ArchiveIndex.read(file));

    assertThat(bomb.refusal()).isEqualTo(Refusal.ZIP_BOMB);
    assertThat(bomb.reason()).contains("'p1.jpg'").contains("more than 100 times");
  }

  @Test
  void refusesEntriesThatInflateBeyondTwoGibibytesInAll() throws IOException {
    HandMadeZip zip = new HandMadeZip().zip64();
    // Two deflated entries at a plausible ratio (under 100) that together declare 2.2 GiB; the index never inflates
    // them, so their data need not be real deflate.
    for (int i = 1; i <= 2; i++) {
      HandMadeZip.Entry entry = zip.add("p" + i + ".jpg", new byte[0], 8);
      entry.data = new byte[12 << 20];
      entry.declaredUncompressed = 1126L << 20;
    }
    byte[] bytes = zip.bytes();

    Unreadable huge = refused(ArchiveIndex.read(write("huge.cbz", bytes)));

    assertThat(huge.refusal()).isEqualTo(Refusal.ZIP_BOMB);
    assertThat(huge.reason()).contains("in all");
  }

  @Test
  void refusesMoreEntriesThanAnyBookNeeds() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    for (int i = 0; i <= EntryRules.MAX_ENTRIES; i++) {
      zip.add("p" + i + ".jpg", new byte[0], 0);
    }

    Unreadable many = refused(ArchiveIndex.read(write("many.cbz", zip.bytes())));

    assertThat(many.refusal()).isEqualTo(Refusal.TOO_MANY_ENTRIES);
    assertThat(many.reason()).contains("10001 entries");
  }

  @Test
  void refusesAPageInAnUnsupportedMethodButIgnoresOtherFilesInOne() throws IOException {
    HandMadeZip page = new HandMadeZip();
    page.add("p1.jpg", new byte[10], 0);
    page.add("p2.jpg", new byte[10], 12);
    HandMadeZip info = new HandMadeZip();
    info.add("p1.jpg", new byte[10], 0);
    info.add("ComicInfo.xml", new byte[10], 12);

    assertThat(refused(ArchiveIndex.read(write("bzip.cbz", page.bytes()))).reason()).contains("method 12");
    assertThat(readable(ArchiveIndex.read(write("info.cbz", info.bytes()))).pages()).hasSize(1);
  }

  @Test
  void aLinkToAnArchiveIsNotFollowed() throws Exception {
    Path outside = cbz("real.cbz", ZipEntry.DEFLATED, "001.jpg");
    Path link = Files.createSymbolicLink(dir.resolve("link.cbz"), outside);

    assertThat(refused(ArchiveIndex.read(link)).refusal()).isEqualTo(Refusal.IO_ERROR);
    assertThat(ArchiveIndex.read(outside)).isInstanceOf(ArchiveIndex.Readable.class);
  }

  @Test
  void aMissingFileIsAnIoErrorNotAnException() {
    assertThat(refused(ArchiveIndex.read(dir.resolve("gone.cbz"))).refusal()).isEqualTo(Refusal.IO_ERROR);
  }
}
