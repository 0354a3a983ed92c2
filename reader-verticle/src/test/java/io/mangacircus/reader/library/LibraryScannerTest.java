package io.mangacircus.reader.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.rating.AgeRating;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scan lists, counts and titles only what page serving would serve, and names everything it skipped once. */
class LibraryScannerTest {

  @TempDir
  Path work;

  /**
   * Bytes per chapter a scan may allocate: 6,709 when every chapter was read whole, 4,373-4,708 as outlines
   * (docs/benchmarks.md#what-a-scan-allocates); the
   * room above is for a JIT that has compiled less by then (a busy CI machine), not for a scan that makes more garbage.
   */
  private static final long ALLOCATION_LIMIT = 6_000;

  private Path library;
  private LibraryFiles files;
  private LibraryScanner scanner;

  @BeforeEach
  void setUp() throws IOException {
    library = Files.createDirectories(work.resolve("data/library"));
    files = new LibraryFiles(library);
    scanner = new LibraryScanner(files);
  }

  /** A published chapter as the scraper leaves it: {@code chapter.json} and its page files. */
  private Path chapter(Path series, String id, String title, String number, int pages) throws IOException {
    Path folder = Files.createDirectories(series.resolve(id));
    StringBuilder list = new StringBuilder();
    for (int i = 1; i <= pages; i++) {
      String file = String.format("%03d.png", i);
      Files.write(folder.resolve(file), new byte[] {(byte) i});
      list.append(i > 1 ? "," : "").append("{\"index\":").append(i).append(",\"file\":\"").append(file).append("\"}");
    }
    Files.writeString(folder.resolve("chapter.json"), "{\"schema\":1,\"source\":\"demo\",\"titleId\":\"t\",\"series\":\""
        + title + "\",\"number\":\"" + number + "\",\"publishedAt\":\"2026-11-2" + number.charAt(0)
        + "T10:00:00Z\",\"pages\":[" + list + "]}");
    return folder;
  }

  private Path chapter(String series, String id, String title, String number) throws IOException {
    return chapter(library.resolve(series), id, title, number, 2);
  }

  private static List<String> reasons(LibraryScan scan) {
    return scan.skipped().stream().map(LibraryScan.Skipped::toString).toList();
  }

  @Test
  void aSeriesFolderLinkedOutsideTheLibraryIsSkippedAndItsTitleNeverRead() throws IOException {
    chapter("circus", "chapter-0001", "Circus", "1");
    Path outside = Files.createDirectories(work.resolve("elsewhere"));
    chapter(outside, "chapter-0001", "Title From Outside", "1", 1);
    Files.createSymbolicLink(library.resolve("evilseries"), outside);

    LibraryScan scan = scanner.scan();

    assertThat(scan.series()).extracting(SeriesEntry::id).containsExactly("circus");
    assertThat(scan.series()).extracting(SeriesEntry::title).doesNotContain("Title From Outside");
    assertThat(reasons(scan)).containsExactly("evilseries: resolves outside the library");
    assertThatThrownBy(() -> files.chapters("evilseries")).isInstanceOf(LibraryFiles.NotFoundException.class)
        .hasMessage("no series evilseries");
  }

  @Test
  void brokenAndLinkedChaptersAreNeitherCountedNorUsedForTitleOrCover() throws IOException {
    Path series = library.resolve("foo");
    Path corrupt = chapter(series, "chapter-0000", "Wrong Title", "0", 1);
    Files.writeString(corrupt.resolve("chapter.json"), "{\"series\": \"Wrong Title\", \"pages\": [");
    chapter(series, "chapter-0001", "Foo", "1", 3);
    chapter(series, "chapter-0002", "Foo", "2", 2);
    Path outside = chapter(work.resolve("elsewhere"), "chapter-0009", "Foo", "9", 1);
    Files.createSymbolicLink(series.resolve("chapter-0003"), outside);
    Files.createSymbolicLink(series.resolve("chapter-0004"), series.resolve("chapter-0001"));
    Files.createDirectories(series.resolve("chapter-0005"));

    LibraryScan scan = scanner.scan();

    SeriesEntry foo = scan.series().get(0);
    assertThat(foo.chapters()).isEqualTo(2);
    assertThat(foo.title()).as("the first published chapter names the series").isEqualTo("Foo");
    List<LibraryFiles.Chapter> served = files.chapters("foo");
    assertThat(served).extracting(LibraryFiles.Chapter::id).containsExactly("chapter-0001", "chapter-0002");
    assertThat(foo.chapters()).as("the card counts what the series page lists").isEqualTo(served.size());
    assertThat(served.get(0).pages()).as("the cover is page 1 of a published chapter").hasSize(3);
    assertThat(reasons(scan)).containsExactly(
        "foo/chapter-0000: chapter.json is not valid JSON",
        "foo/chapter-0003: resolves outside the library",
        "foo/chapter-0004: is a symbolic link to another folder of the library (only real folders are published)",
        "foo/chapter-0005: has no chapter.json");
  }

  @Test
  void aChapterLinkedToAnotherChapterOfTheLibraryIsNotServedUnderItsSecondName() throws IOException {
    chapter("foo", "chapter-0001", "Foo", "1");
    Files.createSymbolicLink(library.resolve("foo/chapter-0002"), library.resolve("foo/chapter-0001"));
    Files.createSymbolicLink(library.resolve("alias"), library.resolve("foo"));

    LibraryScan scan = scanner.scan();

    assertThat(scan.series()).extracting(SeriesEntry::id).containsExactly("foo");
    assertThat(scan.series().get(0).chapters()).isEqualTo(1);
    assertThat(reasons(scan)).containsExactly(
        "alias: is a symbolic link to another folder of the library (only real folders are published)",
        "foo/chapter-0002: is a symbolic link to another folder of the library (only real folders are published)");
    assertThatThrownBy(() -> files.chapter("foo", "chapter-0002")).isInstanceOf(LibraryFiles.NotFoundException.class);
    assertThatThrownBy(() -> files.chapter("alias", "chapter-0001")).isInstanceOf(LibraryFiles.NotFoundException.class);
  }

  @Test
  void aManifestOrPageLinkedOutsideTheLibraryMakesTheChapterUnpublished() throws IOException {
    chapter("foo", "chapter-0001", "Foo", "1");
    Path json = chapter("foo", "chapter-0002", "Foo", "2").resolve("chapter.json");
    Path page = chapter("foo", "chapter-0003", "Foo", "3").resolve("001.png");
    Path elsewhere = chapter(work.resolve("elsewhere"), "x", "Foo", "2", 1);
    Files.delete(json);
    Files.createSymbolicLink(json, elsewhere.resolve("chapter.json"));
    Files.delete(page);
    Files.createSymbolicLink(page, elsewhere.resolve("001.png"));
    Files.delete(chapter("foo", "chapter-0004", "Foo", "4").resolve("002.png"));

    LibraryScan scan = scanner.scan();

    assertThat(scan.series().get(0).chapters()).isEqualTo(1);
    assertThat(reasons(scan)).containsExactly(
        "foo/chapter-0002: chapter.json resolves outside the library",
        "foo/chapter-0003: page 001.png resolves outside the library",
        "foo/chapter-0004: page 002.png does not exist");
    assertThatThrownBy(() -> files.chapter("foo", "chapter-0003")).isInstanceOf(LibraryFiles.NotFoundException.class)
        .as("the reader is not told where the link leads").hasMessageNotContaining("outside");
  }

  @Test
  void stagingFoldersAndFilesAreNotEntriesButOddNamesAndBrokenLinksAreReported() throws IOException {
    chapter("foo", "chapter-0001", "Foo", "1");
    Files.createDirectories(library.resolve(".staging-mcscraper-resume-abc"));
    Files.writeString(library.resolve("notes.txt"), "hello");
    Files.createDirectories(library.resolve("foo/.partial"));
    Files.createDirectories(library.resolve("Bad Name"));
    Files.createDirectories(library.resolve("empty-series"));
    Files.createSymbolicLink(library.resolve("foo/notes-link"), library.resolve("notes.txt"));
    Files.createSymbolicLink(library.resolve("gone"), work.resolve("no-such-folder"));

    LibraryScan scan = scanner.scan();

    assertThat(scan.series()).extracting(SeriesEntry::id).containsExactly("foo");
    assertThat(reasons(scan)).containsExactly("Bad Name: not a plain folder name",
        "gone: is a symbolic link to nothing");
  }

  @Test
  void eachSkippedEntryIsReportedOncePerScan() throws IOException {
    chapter("foo", "chapter-0001", "Foo", "1");
    Files.writeString(chapter("foo", "chapter-0002", "Foo", "2").resolve("chapter.json"), "[]");
    files.chapters("foo");

    assertThat(reasons(scanner.scan())).containsExactly("foo/chapter-0002: chapter.json is not a JSON object");
    assertThat(reasons(scanner.scan())).containsExactly("foo/chapter-0002: chapter.json is not a JSON object");
  }

  @Test
  void aMissingLibraryFolderIsSaidApartFromAnEmptyOne() throws IOException {
    assertThat(scanner.scan().folderMissing()).isFalse();
    Files.delete(library);

    LibraryScan scan = scanner.scan();

    assertThat(scan.folderMissing()).isTrue();
    assertThat(scan.series()).isEmpty();
  }

  /** A chapter as {@link #chapter} makes it, its {@code chapter.json} carrying the source's rating {@code code}. */
  private Path rated(String series, String id, String number, String code) throws IOException {
    Path folder = chapter(series, id, "Rated", number);
    Path json = folder.resolve("chapter.json");
    Files.writeString(json, Files.readString(json).replace("\"pages\":[", "\"ageRating\":\"" + code + "\",\"pages\":["));
    return folder;
  }

  @Test
  void aSeriesIsRatedAsItsNewestRatedChapterRecordedItsSource() throws IOException {
    rated("rated", "chapter-0001", "1", "18");
    rated("rated", "chapter-0002", "2", "15");
    chapter("rated", "chapter-0003", "Rated", "3");   // published before the scraper kept ratings
    rated("reversed", "chapter-0002", "2", "all");
    rated("reversed", "chapter-0001", "1", "12");
    chapter("unrated", "chapter-0001", "Unrated", "1");

    LibraryScan scan = scanner.scan();

    assertThat(scan.series()).extracting(SeriesEntry::id, SeriesEntry::rating).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple("rated", AgeRating.FIFTEEN_PLUS),
        org.assertj.core.groups.Tuple.tuple("reversed", AgeRating.ALL_AGES),
        org.assertj.core.groups.Tuple.tuple("unrated", AgeRating.UNRATED));
    assertThat(files.chapter("rated", "chapter-0001").sourceRating()).isEqualTo(AgeRating.EIGHTEEN_PLUS);
  }

  @Test
  void anOldSchemaChapterIsListedAndACorruptOneIsSkippedWithItsReason() throws IOException {
    Path old = Files.createDirectories(library.resolve("old-series/chapter-0007"));
    Files.write(old.resolve("001.jpg"), new byte[] {1});
    Files.writeString(old.resolve("chapter.json"), "{\"source\":\"demo\",\"titleId\":\"t\",\"series\":\"Old Series\","
        + "\"number\":7,\"pages\":[{\"file\":\"001.jpg\"}]}");
    chapter("old-series", "chapter-0008", "Old Series", "8");
    Path corrupt = Files.createDirectories(library.resolve("old-series/chapter-0009"));
    Files.writeString(corrupt.resolve("chapter.json"), "{\"schema\":1,\"pages\":[");
    Path newer = Files.createDirectories(library.resolve("old-series/chapter-0010"));
    Files.writeString(newer.resolve("chapter.json"), "{\"schema\":2,\"pages\":[{\"file\":\"001.jpg\"}]}");

    LibraryScan scan = scanner.scan();

    assertThat(scan.series()).singleElement().satisfies(s -> {
      assertThat(s.title()).isEqualTo("Old Series");
      assertThat(s.chapters()).isEqualTo(2);
    });
    assertThat(files.chapters("old-series")).extracting(LibraryFiles.Chapter::number).containsExactly("7", "8");
    assertThat(reasons(scan)).containsExactlyInAnyOrder("old-series/chapter-0009: chapter.json is not valid JSON",
        "old-series/chapter-0010: chapter.json has schema 2, this version reads up to 1");
  }

  @Test
  void aRescanAllocatesLittleMoreThanItsChecksNeedPerChapter() throws IOException {
    // 20 series x 10 chapters x 4 pages as the scraper writes them: hashes, a fingerprint, a chapter id, a language.
    String hash = "0123456789abcdef".repeat(4);
    for (int s = 0; s < 20; s++) {
      for (int c = 1; c <= 10; c++) {
        Path folder = Files.createDirectories(library.resolve("series-" + s).resolve(String.format("chapter-%04d", c)));
        StringBuilder pages = new StringBuilder();
        for (int p = 1; p <= 4; p++) {
          String file = String.format("%03d.jpg", p);
          Files.write(folder.resolve(file), new byte[] {(byte) p});
          pages.append(p > 1 ? "," : "").append("{\"index\":").append(p).append(",\"file\":\"").append(file)
              .append("\",\"size\":1,\"sha256\":\"").append(hash).append("\"}");
        }
        Files.writeString(folder.resolve("chapter.json"), "{\"schema\":1,\"source\":\"demo\",\"titleId\":\"t" + s
            + "\",\"series\":\"Series " + s + "\",\"chapterId\":\"c-" + s + "-" + c + "\",\"number\":\"" + c
            + "\",\"title\":\"Chapter " + c + "\",\"language\":\"en\",\"fingerprint\":\"" + hash
            + "\",\"publishedAt\":\"2026-11-20T10:00:0" + (c % 10) + "Z\",\"pages\":[" + pages + "]}");
      }
    }
    LibraryScanner oneThread = new LibraryScanner(files, 1);
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    for (int i = 0; i < 30; i++) {
      assertThat(oneThread.scan().series()).hasSize(20);   // warm: what is compiled allocates no more than before
    }
    long least = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      long before = threads.getCurrentThreadAllocatedBytes();
      oneThread.scan();
      least = Math.min(least, threads.getCurrentThreadAllocatedBytes() - before);
    }

    // What a scan keeps (a card per series, a time per chapter) is small; what it drops each time is most of the
    // reader's peak memory (docs/benchmarks.md#what-a-scan-allocates).
    assertThat(least / 200).as("bytes a scan allocates per chapter of 4 pages").isLessThan(ALLOCATION_LIMIT);
  }

  @Test
  void aFolderNameIsPlainExactlyAsThePatternSays() {
    java.util.regex.Pattern pattern = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,159}");
    for (String name : List.of("foo", "chapter-0001", "a.b_c-d", "", ".staging", "-x", "a..b", "..", "a/b", "a b",
        "é", "x".repeat(160), "x".repeat(161), "Z9", "a\u0000")) {
      assertThat(LibraryFiles.validId(name)).as(name).isEqualTo(pattern.matcher(name).matches() && !name.contains(".."));
    }
    assertThat(LibraryFiles.validId(null)).isFalse();
  }

  @Test
  void severalWorkersReadSeriesAtOnceAndFindExactlyWhatOneWorkerFinds() throws Exception {
    Path outside = Files.createDirectories(work.resolve("elsewhere"));
    chapter(outside, "chapter-0001", "Outside", "1", 1);
    for (int s = 0; s < 24; s++) {
      String series = String.format("series-%02d", s);
      for (int c = 1; c <= 3; c++) {
        chapter(series, String.format("chapter-%04d", c), "Series " + (23 - s), String.valueOf(c));
      }
      switch (s % 6) {
        case 0 -> Files.writeString(library.resolve(series + "/chapter-0002/chapter.json"), "{\"schema\":1,\"pages\":[");
        case 1 -> Files.createSymbolicLink(library.resolve(series + "/chapter-0009"), library.resolve(series
            + "/chapter-0001"));
        case 2 -> Files.delete(library.resolve(series + "/chapter-0003/002.png"));
        case 3 -> Files.createSymbolicLink(library.resolve(series + "/chapter-0008"), outside);
        case 4 -> Files.createDirectories(library.resolve(series + "/Odd Name"));
        default -> { }
      }
    }
    Files.createSymbolicLink(library.resolve("linked-series"), outside);
    Files.createDirectories(library.resolve("only-broken/chapter-0001"));
    Files.createDirectories(library.resolve(".staging-x"));

    java.util.Set<String> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
    java.util.concurrent.CountDownLatch twoThreads = new java.util.concurrent.CountDownLatch(2);
    LibraryScan parallel = new LibraryScanner(new LibraryFiles(library), 4).scan(entry -> {
      if (threads.add(Thread.currentThread().getName())) {
        twoThreads.countDown();
      }
      try {
        // Each series waits (a while at most) until a second thread reads one too: one thread alone would wait here.
        twoThreads.await(5, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    LibraryScan alone = new LibraryScanner(new LibraryFiles(library), 1).scan();

    assertThat(threads).as("series folders read on several threads").hasSizeGreaterThan(1);
    assertThat(parallel.series()).hasSize(24).isEqualTo(alone.series());
    assertThat(parallel.skipped()).as("same entries, same reasons, same order").isEqualTo(alone.skipped())
        .hasSize(5 * 4 + 2);
    assertThat(parallel.chapters()).isEqualTo(alone.chapters());
    assertThat(parallel.published()).isEqualTo(alone.published());
    assertThat(reasons(parallel)).contains("linked-series: resolves outside the library",
        "only-broken/chapter-0001: has no chapter.json", "series-00/chapter-0002: chapter.json is not valid JSON");
  }

  @Test
  void scansAfterTheFirstReadOnTheirOwnNumberOfThreads() throws Exception {
    for (int s = 0; s < 12; s++) {
      chapter(String.format("series-%02d", s), "chapter-0001", "Series " + s, "1");
    }
    LibraryScanner rescanning = new LibraryScanner(files, 4, 1);
    java.util.Set<String> first = java.util.concurrent.ConcurrentHashMap.newKeySet();
    java.util.concurrent.CountDownLatch twoThreads = new java.util.concurrent.CountDownLatch(2);
    rescanning.scan(entry -> {
      if (first.add(Thread.currentThread().getName())) {
        twoThreads.countDown();
      }
      try {
        twoThreads.await(5, java.util.concurrent.TimeUnit.SECONDS);   // a second thread reads one too, or time is up
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    java.util.Set<String> later = java.util.concurrent.ConcurrentHashMap.newKeySet();
    LibraryScan again = rescanning.scan(entry -> later.add(Thread.currentThread().getName()));

    assertThat(first).as("the first scan, which a cold start waits for").hasSizeGreaterThan(1);
    assertThat(later).as("a rescan").containsExactly(Thread.currentThread().getName());
    assertThat(again.series()).hasSize(12);
    assertThat(LibraryScanner.RESCAN_WORKERS).isEqualTo(1);
  }

  @Test
  void aChapterOfAForeignSourceIsListedUnderItsOwnSource() throws IOException {
    Path folder = chapter("imported", "chapter-0001", "Imported", "1");
    Files.writeString(folder.resolve("chapter.json"), Files.readString(folder.resolve("chapter.json"))
        .replace("\"source\":\"demo\"", "\"source\":\"mangadex\""));

    assertThat(scanner.scan().series()).singleElement().extracting(SeriesEntry::source).isEqualTo("mangadex");
  }
}
