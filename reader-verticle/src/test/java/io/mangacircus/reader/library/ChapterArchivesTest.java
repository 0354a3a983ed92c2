package io.mangacircus.reader.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.testing.LibraryFixture;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CBZ of a chapter is the same bytes however often and by whichever process it is built: pages in reading order
 * then ComicInfo.xml, every entry stored and stamped with the chapter's publication time, no extra fields, so
 * KOReader's partial MD5 of it (its document id for progress sync) never changes for a chapter.
 */
class ChapterArchivesTest {

  private static final Instant PUBLISHED = Instant.parse("2026-01-02T03:04:05Z");

  @TempDir
  Path data;

  private Path chapter;

  @BeforeEach
  void publish() {
    chapter = new LibraryFixture(data).chapter("moon", "Moon Circus", 1, 40, PUBLISHED);
  }

  /** A fresh reader process's view of the library: new file caches, new kept page files. */
  private static ChapterArchives freshArchives() {
    return new ChapterArchives(new OpenPageFiles(16, Duration.ofMinutes(1), InstantSource.system()));
  }

  private LibraryFiles files() {
    return new LibraryFiles(data.resolve("library"));
  }

  /** Every byte a send would put on the wire, read straight from the layout's runs. */
  private static byte[] bytesOf(CbzArchive archive) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (CbzArchive.Segment s : archive.segments()) {
      out.writeBytes(s.bytes() != null ? s.bytes() : Arrays.copyOfRange(Files.readAllBytes(s.file()),
          (int) s.fileOffset(), (int) (s.fileOffset() + s.length())));
    }
    assertThat(out.size()).isEqualTo(archive.length());
    return out.toByteArray();
  }

  private static void touchEveryFile(Path folder, Instant when) throws Exception {
    try (Stream<Path> list = Files.list(folder)) {
      for (Path file : list.toList()) {
        Files.setLastModifiedTime(file, FileTime.from(when));
      }
    }
  }

  @Test
  void twoProcessesBuildTheSameBytesEtagAndKoreaderDigestEvenWhenTheFilesWereTouchedBetween() throws Exception {
    ChapterArchives before = freshArchives();
    ChapterArchives.Download first = before.archive(files(), "moon", "chapter-0001");
    byte[] firstBytes = bytesOf(first.archive());
    String firstDigest = before.koreaderDigest(files(), "moon", "chapter-0001");
    // A restart after a copy or restore of the library: same content, other modification times.
    touchEveryFile(chapter, Instant.parse("2030-06-07T08:09:10Z"));

    ChapterArchives after = freshArchives();
    ChapterArchives.Download second = after.archive(files(), "moon", "chapter-0001");

    byte[] secondBytes = bytesOf(second.archive());
    assertThat(LibraryFixture.sha256(secondBytes)).as("the bytes' SHA-256").isEqualTo(LibraryFixture.sha256(firstBytes));
    assertThat(secondBytes).isEqualTo(firstBytes);
    assertThat(second.etag()).isEqualTo(first.etag());
    assertThat(second.modified()).isEqualTo(PUBLISHED);
    assertThat(after.koreaderDigest(files(), "moon", "chapter-0001")).isEqualTo(firstDigest)
        .isEqualTo(KoreaderDigest.partialMd5(firstBytes));
  }

  @Test
  void theKoreaderDigestIsThatOfTheServedBytesAndIsKeptForTheArchive() throws Exception {
    ChapterArchives archives = freshArchives();
    byte[] served = bytesOf(archives.archive(files(), "moon", "chapter-0001").archive());
    assertThat(served.length).as("the samples reach into page files").isGreaterThan(16384 + 1024);

    assertThat(archives.koreaderDigest(files(), "moon", "chapter-0001"))
        .isEqualTo(KoreaderDigest.partialMd5(served))
        .isEqualTo(archives.koreaderDigest(files(), "moon", "chapter-0001"));
  }

  @Test
  void everyEntryIsStoredInReadingOrderStampedWithThePublicationTimeInUtcWithoutExtraFields() throws Exception {
    byte[] bytes = bytesOf(freshArchives().archive(files(), "moon", "chapter-0001").archive());

    List<String> names = new ArrayList<>();
    try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(bytes))) {
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        names.add(entry.getName());
        assertThat(entry.getMethod()).as(entry.getName()).isEqualTo(ZipEntry.STORED);
        assertThat(entry.getExtra()).as(entry.getName()).isNull();
        // DOS time counts in 2-second steps: 03:04:05 is written as 03:04:04.
        assertThat(entry.getTimeLocal()).as(entry.getName()).isEqualTo(LocalDateTime.of(2026, 1, 2, 3, 4, 4));
      }
    }
    assertThat(names).hasSize(41).startsWith("001.png", "002.png").endsWith("040.png", "ComicInfo.xml");
  }

  @Test
  void aChapterWithoutPublicationTimeIsStampedWithTheFirstDosDateEveryTime() throws Exception {
    Path manifest = chapter.resolve("chapter.json");
    Files.writeString(manifest, Files.readString(manifest).replace("\"" + PUBLISHED + "\"", "null"));

    byte[] first = bytesOf(freshArchives().archive(files(), "moon", "chapter-0001").archive());
    byte[] second = bytesOf(freshArchives().archive(files(), "moon", "chapter-0001").archive());

    assertThat(LibraryFixture.sha256(second)).as("the bytes' SHA-256").isEqualTo(LibraryFixture.sha256(first));
    try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(first))) {
      assertThat(zip.getNextEntry().getTimeLocal()).isEqualTo(LocalDateTime.of(1980, 1, 1, 0, 0));
    }
  }

  @Test
  void theComicInfoMadeFromTheManifestIsTheSameDocumentEveryTime() throws Exception {
    LibraryFiles.Chapter read = files().chapter("moon", "chapter-0001");

    assertThat(new String(ChapterArchives.comicInfo(read), StandardCharsets.UTF_8))
        .isEqualTo(new String(ChapterArchives.comicInfo(files().chapter("moon", "chapter-0001")),
            StandardCharsets.UTF_8))
        .contains("<Series>Moon Circus</Series>", "<Number>1</Number>", "<PageCount>40</PageCount>");
  }

  @Test
  void theComicInfoMadeFromTheManifestCarriesTheChaptersLanguage() throws Exception {
    Path manifest = chapter.resolve("chapter.json");
    Files.writeString(manifest, Files.readString(manifest).replace("\"language\":\"en\"", "\"language\":\"pt-br\""));

    assertThat(new String(ChapterArchives.comicInfo(files().chapter("moon", "chapter-0001")), StandardCharsets.UTF_8))
        .contains("<LanguageISO>pt-br</LanguageISO>");
  }
}
