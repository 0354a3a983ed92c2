package io.mangacircus.reader.library.collection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.reader.library.archive.NaturalOrder;
import io.mangacircus.reader.library.collection.UnreadableItem.Cause;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CBR books of a collection read through the installed bsdtar, on real RAR files from libarchive's tests. */
class CbrBooksTest {

  private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2025-01-01T00:00:00Z"));

  @TempDir
  Path dir;

  private Path root;
  private Path data;
  private RarSupport rar;

  @BeforeEach
  void bsdtarIsInstalled() throws IOException {
    rar = RarSupport.detect();
    assumeTrue(rar.available(), "bsdtar (libarchive-tools) is not installed");
    root = Files.createDirectories(dir.resolve("collection"));
    data = Files.createDirectories(dir.resolve("data"));
  }

  private CollectionShelf shelf(RarSupport support) {
    return new CollectionShelf("comics", root, data.resolve("collections/comics"), CLOCK, support);
  }

  @Test
  void aCbrIsListedWithItsPageCountAndReadPageByPageFromACacheUnderTheDataFolder() throws Exception {
    Path series = Files.createDirectories(root.resolve("Series"));
    RarSamples.renamed(series.resolve("Vol 1.cbr"), RarSamples.PAGES);
    String before = CollectionFixture.fingerprint(root);
    CollectionShelf shelf = shelf(rar);

    CollectionScan scan = shelf.scan(s -> { });

    CollectionBook book = scan.books().get(0);
    assertThat(book.kind()).isEqualTo(BookKind.CBR);
    assertThat(book.pageCount()).isEqualTo(3);
    assertThat(scan.unreadable()).isEmpty();
    String seriesId = scan.series().get(0).id();
    assertThat(shelf.chapters(seriesId).get(0).pages()).hasSize(3);

    LibraryFiles.Chapter chapter = shelf.chapter(seriesId, book.id());
    List<String> names = new ArrayList<>(List.of("[1]*?.png", "page1.jpg", "page2.jpg"));
    names.sort(NaturalOrder.INSTANCE);
    Map<String, String> original = Map.of("[1]*?.png", "test1.bin", "page2.jpg", "test2.bin",
        "page1.jpg", "test3.bin");
    Path sample = RarSamples.write(dir.resolve("sample.rar"), RarSamples.MULTIPLE_FILES);
    assertThat(chapter.pages()).hasSize(3);
    Path cache = data.resolve("collections/comics/rar").resolve(book.id() + "-" + book.size() + "-"
        + book.modified().toEpochMilli());
    for (int i = 0; i < 3; i++) {
      LibraryFiles.Page page = chapter.pages().get(i);
      assertThat(page.part()).isNull();
      assertThat(page.file().getParent()).isEqualTo(cache);
      assertThat(page.mediaType()).isEqualTo(LibraryFiles.mediaType(names.get(i)));
      assertThat(Files.readAllBytes(page.file())).as(names.get(i))
          .isEqualTo(bsdtarExtract(sample, original.get(names.get(i)))).isNotEmpty();
    }
    assertThat(chapter.pages()).extracting(LibraryFiles.Page::file)
        .isEqualTo(shelf.chapters(seriesId).get(0).pages().stream().map(LibraryFiles.Page::file).toList());
    assertThat(CollectionFixture.fingerprint(root)).isEqualTo(before);

    // Unchanged: the next scan reuses the listing, and opening the book again reuses the cache.
    CollectionScan again = shelf.scan(s -> { });
    assertThat(again.archivesReused()).isEqualTo(1);
    assertThat(again.archivesOpened()).isZero();
    assertThat(shelf.chapter(seriesId, book.id()).pages()).extracting(LibraryFiles.Page::file)
        .isEqualTo(chapter.pages().stream().map(LibraryFiles.Page::file).toList());
  }

  @Test
  void aChangedCbrIsUnpackedAgainAndItsStaleCacheRemoved() throws Exception {
    Path file = RarSamples.renamed(root.resolve("One Shot.cbr"), RarSamples.PAGES);
    CollectionShelf shelf = shelf(rar);
    CollectionScan first = shelf.scan(s -> { });
    String seriesId = first.series().get(0).id();
    CollectionBook book = first.books().get(0);
    Path oldCache = shelf.chapter(seriesId, book.id()).pages().get(0).file().getParent();

    Files.setLastModifiedTime(file, FileTime.from(book.modified().plusSeconds(60)));
    CollectionScan second = shelf.scan(s -> { });
    Path newCache = shelf.chapter(seriesId, second.books().get(0).id()).pages().get(0).file().getParent();

    assertThat(newCache).isNotEqualTo(oldCache).isDirectory();
    assertThat(oldCache).doesNotExist();
    try (Stream<Path> caches = Files.list(data.resolve("collections/comics/rar"))) {
      assertThat(caches).containsExactly(newCache);
    }
  }

  @Test
  void aCbrThatIsNoArchiveIsListedWithBsdtarsReason() throws Exception {
    Files.write(root.resolve("Garbage.cbr"), "Rar!\u001a\u0007\u0000 cut".getBytes(java.nio.charset.StandardCharsets
        .ISO_8859_1));

    CollectionScan scan = shelf(rar).scan(s -> { });

    assertThat(scan.series()).isEmpty();
    assertThat(scan.unreadable()).singleElement().satisfies(item -> {
      assertThat(item.cause()).isEqualTo(Cause.BROKEN_ARCHIVE);
      assertThat(item.reason()).startsWith("bsdtar failed (exit 1)");
    });
  }

  @Test
  void aCbrWithAnEntryClimbingOutIsListedAsUnsafe() throws Exception {
    RarSamples.renamed(root.resolve("Evil.cbr"), Map.of("test1.bin", "../ab.png", "test2.bin", "page2.jpg"));

    CollectionScan scan = shelf(rar).scan(s -> { });

    assertThat(scan.series()).isEmpty();
    assertThat(scan.unreadable()).singleElement().extracting(UnreadableItem::reason)
        .isEqualTo("entry '../ab.png' climbs out of the archive with ..");
  }

  @Test
  void aCbrWithoutPageImagesIsListedAsHavingNone() throws Exception {
    RarSamples.write(root.resolve("Bins.cbr"), RarSamples.MULTIPLE_FILES);

    CollectionScan scan = shelf(rar).scan(s -> { });

    assertThat(scan.unreadable()).singleElement().extracting(UnreadableItem::reason)
        .isEqualTo("no page images in the archive");
  }

  @Test
  void aBsdtarThatNeverEndsIsStoppedAndTheArchiveRefused() throws Exception {
    Path looping = RarSamples.write(dir.resolve("looping.cbr"), RarSamples.LOOPING);

    RarPages.Result result = new RarPages(rar.bsdtar().orElseThrow(), Duration.ofSeconds(1)).list(looping);

    assertThat(result).isEqualTo(new RarPages.Refused("bsdtar took more than 1 s"));
  }

  @Test
  void aCbrWhosePagesCannotBeUnpackedIsListedUnreadableInsteadOfServedEmpty() throws Exception {
    Path file = RarSamples.renamed(root.resolve("Gone.cbr"), RarSamples.PAGES);
    CollectionShelf shelf = shelf(rar);
    CollectionScan scan = shelf.scan(s -> { });
    String seriesId = scan.series().get(0).id();
    // Replaced behind the scan's back with the same size and mtime: the listing no longer fits the archive.
    FileTime modified = Files.getLastModifiedTime(file);
    byte[] garbage = new byte[(int) Files.size(file)];
    Files.write(file, garbage);
    Files.setLastModifiedTime(file, modified);

    assertThatThrownBy(() -> shelf.chapter(seriesId, scan.books().get(0).id()))
        .isInstanceOf(LibraryFiles.NotFoundException.class).hasMessage("comics:Gone.cbr: no page images in the archive");
    assertThat(shelf.last().series()).isEmpty();
    assertThat(shelf.last().unreadable()).extracting(UnreadableItem::path).containsExactly("Gone.cbr");
  }

  @Test
  void withoutBsdtarACbrIsListedAsUnsupported() throws Exception {
    RarSamples.renamed(root.resolve("Vol.cbr"), RarSamples.PAGES);

    CollectionScan scan = shelf(RarSupport.none()).scan(s -> { });

    assertThat(scan.unreadable()).singleElement().satisfies(item -> {
      assertThat(item.cause()).isEqualTo(Cause.RAR_UNSUPPORTED);
      assertThat(item.reason()).isEqualTo(RarSupport.MISSING);
    });
    assertThat(data.resolve("collections/comics/rar")).doesNotExist();
  }

  @Test
  void aMemberNameIsMatchedLiterallyByBsdtar() {
    assertThat(RarPages.pattern("[1]*?.png")).isEqualTo("\\[1]\\*\\?.png");
    assertThat(RarPages.pattern("-a\\b-.jpg")).isEqualTo("\\-a\\\\b-.jpg");
  }

  private static byte[] bsdtarExtract(Path archive, String member) throws Exception {
    Process process = new ProcessBuilder("bsdtar", "-xOf", archive.toString(), member)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    byte[] out;
    try (InputStream in = process.getInputStream()) {
      out = in.readAllBytes();
    }
    assertThat(process.waitFor()).isZero();
    return out;
  }
}
