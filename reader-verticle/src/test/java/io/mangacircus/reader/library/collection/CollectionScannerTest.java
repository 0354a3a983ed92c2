package io.mangacircus.reader.library.collection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.mangacircus.reader.library.collection.UnreadableItem.Cause;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a scan of a collection lists, what it refuses and why, what it leaves untouched and what a rescan reopens. */
class CollectionScannerTest {

  private static final Instant NOW = Instant.parse("2026-12-04T09:00:00Z");

  @TempDir
  Path dir;

  private CollectionFixture fixture;

  @BeforeEach
  void writeCollection() throws IOException {
    fixture = CollectionFixture.write(dir);
  }

  private CollectionScanner scanner() {
    return new CollectionScanner(fixture.root, InstantSource.fixed(NOW), RarSupport.none());
  }

  private static CollectionBook book(CollectionScan scan, String path) {
    return scan.books().stream().filter(b -> b.path().equals(path)).findFirst().orElseThrow(
        () -> new AssertionError("no book at " + path + " in " + scan.books()));
  }

  @Test
  void everyGoodBookIsListedInNaturalOrderWithItsPageCount() throws IOException {
    CollectionScan scan = scanner().scan(CollectionScan.none());

    assertThat(scan.finishedAt()).isEqualTo(NOW);
    assertThat(scan.series()).extracting(CollectionSeries::title, CollectionSeries::path)
        .containsExactly(tuple("Alpha", "Alpha"), tuple("Alpha", "Alpha.cbz"), tuple("Beta", "Beta"),
            tuple("Gamma", "Gamma"), tuple("Loose One", "Loose One.cbz"));
    assertThat(scan.series().get(0).books())
        .extracting(CollectionBook::title, CollectionBook::kind, CollectionBook::pageCount)
        .containsExactly(tuple("Alpha v1", BookKind.CBZ, 3), tuple("Alpha v2", BookKind.CBZ, 2),
            tuple("Alpha v10", BookKind.CBZ, 1), tuple("Vol 1", BookKind.CBZ, 4));
    assertThat(scan.series().get(2).books())
        .extracting(CollectionBook::title, CollectionBook::kind, CollectionBook::path, CollectionBook::pageCount)
        .containsExactly(tuple("Chapter 1", BookKind.FOLDER, "Beta/Chapter 1", 3));
    assertThat(book(scan, "Beta/Chapter 1").images()).containsExactly("p1.jpg", "p2.jpg", "p10.jpg");
    assertThat(book(scan, "Alpha/Alpha v1.cbz").index().orElseThrow().pages())
        .extracting(e -> e.name()).containsExactly("p1.jpg", "p2.jpg", "p3.jpg");
    Path v1 = fixture.root.resolve("Alpha/Alpha v1.cbz");
    assertThat(book(scan, "Alpha/Alpha v1.cbz").size()).isEqualTo(Files.size(v1));
    assertThat(book(scan, "Alpha/Alpha v1.cbz").modified()).isEqualTo(Files.getLastModifiedTime(v1).toInstant());
    assertThat(scan.archivesOpened()).isEqualTo(10);
    assertThat(scan.archivesReused()).isZero();
  }

  @Test
  void aLooseArchiveAtTheTopIsAOneBookSeries() throws IOException {
    CollectionScan scan = scanner().scan(CollectionScan.none());

    CollectionSeries loose = scan.series().stream().filter(s -> s.path().equals("Loose One.cbz")).findFirst()
        .orElseThrow();
    assertThat(loose.books()).extracting(CollectionBook::title, CollectionBook::path, CollectionBook::pageCount)
        .containsExactly(tuple("Loose One", "Loose One.cbz", 2));
    assertThat(loose.id()).isNotEqualTo(loose.books().get(0).id());
  }

  @Test
  void everyBadItemIsListedWithItsReasonAndAnImageFolderWithoutImagesIsSkipped() throws IOException {
    CollectionScan scan = scanner().scan(CollectionScan.none());

    assertThat(scan.unreadable()).extracting(UnreadableItem::path, UnreadableItem::cause)
        .containsExactly(tuple("Beta/Beta 3.cbr", Cause.RAR_UNSUPPORTED),
            tuple("Beta/Chapter 1/p3.jpg", Cause.SYMBOLIC_LINK), tuple("Beta/bomb.cbz", Cause.BROKEN_ARCHIVE),
            tuple("Beta/escape.cbz", Cause.SYMBOLIC_LINK), tuple("Beta/evil.cbz", Cause.BROKEN_ARCHIVE),
            tuple("Beta/truncated.cbz", Cause.BROKEN_ARCHIVE), tuple("Outside", Cause.SYMBOLIC_LINK));
    assertThat(reason(scan, "Beta/Beta 3.cbr"))
        .isEqualTo("RAR needs bsdtar (Debian package libarchive-tools), not installed");
    assertThat(reason(scan, "Beta/bomb.cbz")).contains("more than 100 times");
    assertThat(reason(scan, "Beta/evil.cbz")).contains("../../etc/passwd").contains("climbs out");
    assertThat(reason(scan, "Beta/truncated.cbz")).contains("cut short");
    assertThat(reason(scan, "Outside")).isEqualTo("symbolic link: not followed (it could lead outside the library)");
    assertThat(scan.books()).extracting(CollectionBook::path).doesNotContain("Beta/Chapter 2");
  }

  @Test
  void symbolicLinksAreNeverFollowed() throws IOException {
    CollectionScan scan = scanner().scan(CollectionScan.none());

    assertThat(scan.series()).extracting(CollectionSeries::path).doesNotContain("Outside");
    assertThat(scan.books()).extracting(CollectionBook::path).noneMatch(p -> p.startsWith("Outside")
        || p.equals("Beta/escape.cbz"));
    assertThat(scan.books()).flatExtracting(b -> b.index().map(i -> i.pages()).orElse(List.of()))
        .extracting(e -> e.name()).doesNotContain("s1.jpg", "s2.jpg");
    assertThat(book(scan, "Beta/Chapter 1").images()).doesNotContain("p3.jpg");
  }

  @Test
  void aCbrIsListedThroughBsdtarWhenItIsOnThePath() throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    // A bsdtar that lists nothing: the CBR is read through it, and found to hold no page.
    Path bsdtar = Files.writeString(bin.resolve("bsdtar"), "#!/bin/sh\n");
    assertThat(bsdtar.toFile().setExecutable(true)).isTrue();
    RarSupport rar = RarSupport.onPath(dir.resolve("nothing-here") + java.io.File.pathSeparator + bin);

    CollectionScan scan = new CollectionScanner(fixture.root, InstantSource.fixed(NOW), rar)
        .scan(CollectionScan.none());

    assertThat(rar.bsdtar()).contains(bsdtar);
    assertThat(reason(scan, "Beta/Beta 3.cbr")).isEqualTo("no page images in the archive");
    assertThat(RarSupport.onPath(dir.resolve("nothing-here").toString()).available()).isFalse();
  }

  @Test
  void aScanWritesNothingInsideOrOutsideTheCollection() throws IOException {
    String before = CollectionFixture.fingerprint(dir);

    CollectionScan first = scanner().scan(CollectionScan.none());
    scanner().scan(first);

    assertThat(CollectionFixture.fingerprint(dir)).isEqualTo(before);
  }

  @Test
  void aRescanWithNothingChangedOpensNoArchive() throws IOException {
    CollectionScan first = scanner().scan(CollectionScan.none());

    CollectionScan again = scanner().scan(first);

    assertThat(again.archivesOpened()).isZero();
    assertThat(again.archivesReused()).isEqualTo(first.archivesOpened());
    assertThat(again.series()).isEqualTo(first.series());
    assertThat(again.unreadable()).isEqualTo(first.unreadable());
  }

  @Test
  void aChangedArchiveIsReadAgainAndOnlyIt() throws IOException {
    CollectionScan first = scanner().scan(CollectionScan.none());
    Path v2 = fixture.root.resolve("Alpha/Alpha v2.cbz");
    CollectionFixture.cbz(v2, ZipEntry.DEFLATED, "a.png", "b.png", "c.png", "d.png", "e.png");
    CollectionFixture.touchLater(v2);

    CollectionScan again = scanner().scan(first);

    assertThat(again.archivesOpened()).isEqualTo(1);
    assertThat(book(again, "Alpha/Alpha v2.cbz").pageCount()).isEqualTo(5);
    assertThat(book(again, "Alpha/Alpha v2.cbz").size()).isEqualTo(Files.size(v2));
    assertThat(book(again, "Alpha/Alpha v1.cbz")).isEqualTo(book(first, "Alpha/Alpha v1.cbz"));
  }

  @Test
  void aRemovedArchiveDisappears() throws IOException {
    CollectionScan first = scanner().scan(CollectionScan.none());
    Files.delete(fixture.root.resolve("Alpha/Alpha v10.cbz"));
    Files.delete(fixture.root.resolve("Beta/truncated.cbz"));

    CollectionScan again = scanner().scan(first);

    assertThat(again.books()).extracting(CollectionBook::path).doesNotContain("Alpha/Alpha v10.cbz")
        .hasSize(first.books().size() - 1);
    assertThat(again.unreadable()).extracting(UnreadableItem::path).doesNotContain("Beta/truncated.cbz");
    assertThat(again.archivesOpened()).isZero();
  }

  @Test
  void idsAreStableAcrossScannersAndDistinctForTheSameNameInDifferentPlaces() throws IOException {
    CollectionScan one = scanner().scan(CollectionScan.none());
    CollectionScan other = new CollectionScanner(fixture.root, InstantSource.fixed(NOW.plusSeconds(60)),
        RarSupport.none()).scan(CollectionScan.none());

    assertThat(other.series()).extracting(CollectionSeries::id)
        .isEqualTo(one.series().stream().map(CollectionSeries::id).toList());
    assertThat(other.books()).extracting(CollectionBook::id)
        .isEqualTo(one.books().stream().map(CollectionBook::id).toList());
    assertThat(one.series().get(0).id()).isNotEqualTo(one.series().get(1).id());
    assertThat(book(one, "Alpha/Vol 1.cbz").id()).isNotEqualTo(book(one, "Gamma/Vol 1.cbz").id());
    assertThat(book(one, "Alpha/Vol 1.cbz").id()).startsWith("vol-1-");
    assertThat(one.series()).extracting(CollectionSeries::id).doesNotHaveDuplicates();
    assertThat(one.books()).extracting(CollectionBook::id).doesNotHaveDuplicates()
        .allMatch(id -> id.matches("[a-z0-9][a-z0-9-]*") && id.length() <= 60);
  }

  @Test
  void anUnlistableRootFailsInsteadOfLookingEmpty() {
    CollectionScanner missing = new CollectionScanner(dir.resolve("unmounted"), InstantSource.fixed(NOW),
        RarSupport.none());

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> missing.scan(CollectionScan.none()))
        .isInstanceOf(IOException.class);
  }

  private static String reason(CollectionScan scan, String path) {
    Optional<UnreadableItem> item = scan.unreadable().stream().filter(u -> u.path().equals(path)).findFirst();
    assertThat(item).as("unreadable " + path).isPresent();
    return item.get().reason();
  }
}
