package io.mangacircus.reader.library.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.library.archive.ArchiveEntryReader.Absent;
import io.mangacircus.reader.library.archive.ArchiveEntryReader.EntryContent;
import io.mangacircus.reader.library.archive.ArchiveEntryReader.Found;
import io.mangacircus.reader.library.archive.ArchiveEntryReader.Refused;
import io.mangacircus.reader.library.archive.ArchiveIndex.Readable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading one non-page entry out of an archive, under the same rules as pages, without touching the page list. */
class ArchiveEntryReaderTest {

  @TempDir
  Path dir;

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private Path zip(HandMadeZip zip) throws IOException {
    return Files.write(dir.resolve("book.cbz"), zip.bytes());
  }

  @Test
  void storedAndDeflatedEntriesAreReadWholeAndTheShallowestWins() throws IOException {
    for (int method : new int[] {ArchiveEntry.STORED, ArchiveEntry.DEFLATED}) {
      HandMadeZip zip = new HandMadeZip();
      zip.add("a/notes.txt", utf8("deeper"), method);
      zip.add("001.jpg", utf8("image"), method);
      zip.add("notes.txt", utf8("root notes ".repeat(100)), method);
      EntryContent content = ArchiveEntryReader.read(zip(zip), name -> name.endsWith("notes.txt"), 1 << 20);
      assertThat(content).isInstanceOf(Found.class);
      assertThat(((Found) content).name()).isEqualTo("notes.txt");
      assertThat(new String(((Found) content).bytes(), StandardCharsets.UTF_8)).isEqualTo("root notes ".repeat(100));
    }
  }

  @Test
  void anArchiveWithoutTheEntryAnswersAbsent() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    zip.add("001.jpg", utf8("image"), ArchiveEntry.STORED);
    assertThat(ArchiveEntryReader.read(zip(zip), name -> name.equals("ComicInfo.xml"), 1024))
        .isInstanceOf(Absent.class);
  }

  @Test
  void anEntryBiggerThanTheCapIsRefusedWithoutReadingIt() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    zip.add("ComicInfo.xml", new byte[2048], ArchiveEntry.STORED);
    EntryContent content = ArchiveEntryReader.read(zip(zip), name -> name.equals("ComicInfo.xml"), 1024);
    assertThat(content).isInstanceOf(Refused.class);
    assertThat(((Refused) content).reason()).contains("2048 bytes; at most 1024");
  }

  @Test
  void anEntryWhoseCrcDoesNotMatchIsRefused() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    zip.add("ComicInfo.xml", utf8("<ComicInfo/>"), ArchiveEntry.STORED).declaredCrc = 12345;
    EntryContent content = ArchiveEntryReader.read(zip(zip), name -> name.equals("ComicInfo.xml"), 1024);
    assertThat(content).isInstanceOf(Refused.class);
  }

  @Test
  void aHostileArchiveIsRefusedForTheEntryToo() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    zip.add("ComicInfo.xml", utf8("<ComicInfo/>"), ArchiveEntry.STORED);
    zip.add("../../etc/passwd", utf8("x"), ArchiveEntry.STORED);
    EntryContent content = ArchiveEntryReader.read(zip(zip), name -> name.equals("ComicInfo.xml"), 1024);
    assertThat(content).isInstanceOf(Refused.class);
    assertThat(((Refused) content).reason()).contains("UNSAFE_NAME");
  }

  @Test
  void theWantedEntryInAnUnservedMethodRefusesOnlyTheEntryRead() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    zip.add("001.jpg", utf8("image"), ArchiveEntry.STORED);
    zip.add("ComicInfo.xml", utf8("<ComicInfo/>"), 12);
    Path file = zip(zip);
    EntryContent content = ArchiveEntryReader.read(file, name -> name.equals("ComicInfo.xml"), 1024);
    assertThat(content).isInstanceOf(Refused.class);
    assertThat(((Refused) content).reason()).contains("entry 'ComicInfo.xml' uses compression method 12");
    assertThat(ArchiveIndex.read(file)).isInstanceOf(Readable.class);
  }

  @Test
  void thePageListStillHoldsImagesOnlyWhenTheArchiveHasAComicInfo() throws IOException {
    HandMadeZip zip = new HandMadeZip();
    zip.add("ComicInfo.xml", utf8("<ComicInfo/>"), ArchiveEntry.DEFLATED);
    zip.add("002.jpg", utf8("two"), ArchiveEntry.STORED);
    zip.add("001.jpg", utf8("one"), ArchiveEntry.STORED);
    ArchiveIndex index = ((Readable) ArchiveIndex.read(zip(zip))).index();
    assertThat(index.pages()).extracting(ArchiveEntry::name).containsExactly("001.jpg", "002.jpg");
  }
}
