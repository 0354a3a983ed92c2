package io.mangacircus.reader.library.collection;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.rating.AgeRating;
import io.mangacircus.reader.library.SeriesEntry;
import io.mangacircus.reader.library.metadata.BookComicInfo;
import io.mangacircus.reader.library.metadata.SeriesMetadata.Author;
import io.mangacircus.reader.library.metadata.SeriesMetadata.Role;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a collection scan reads from its books' ComicInfo.xml, what it refuses, and what it keeps across rescans. */
class CollectionComicInfoTest {

  private static final Instant NOW = Instant.parse("2026-12-04T09:00:00Z");

  @TempDir
  Path dir;

  private Path root;

  @BeforeEach
  void writeCollection() throws IOException {
    root = Files.createDirectories(dir.resolve("collection"));
    Path saga = Files.createDirectories(root.resolve("Saga"));
    cbz(saga.resolve("Saga v1.cbz"), ZipEntry.STORED, "1.jpg", "image", "ComicInfo.xml", comicInfo(
        "<Series>Saga</Series><Summary>Two moons.</Summary><Writer>Jane Roe</Writer><Genre>Drama</Genre>"
        + "<AgeRating>Teen</AgeRating>"));
    cbz(saga.resolve("Saga v2.cbz"), ZipEntry.DEFLATED, "1.jpg", "image", "Saga/comicinfo.xml", comicInfo(
        "<Genre>Sci-Fi</Genre><AgeRating>Mature 17+</AgeRating>"));
    Path chapter = Files.createDirectories(root.resolve("Folded/Chapter 1"));
    Files.writeString(chapter.resolve("p1.jpg"), "image");
    Files.writeString(chapter.resolve("ComicInfo.xml"), comicInfo("<Summary>From a folder.</Summary>"
        + "<AgeRating>Everyone</AgeRating>"));
    cbz(root.resolve("Hostile.cbz"), ZipEntry.DEFLATED, "1.jpg", "image", "ComicInfo.xml",
        "<?xml version=\"1.0\"?><!DOCTYPE ComicInfo [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
        + "<ComicInfo><Summary>&x;</Summary><AgeRating>Everyone</AgeRating></ComicInfo>");
    Path broken = Files.createDirectories(root.resolve("Broken/Chapter 1"));
    Files.writeString(broken.resolve("p1.jpg"), "image");
    Files.writeString(broken.resolve("ComicInfo.xml"), "<ComicInfo><Summary>cut short");
    Path linked = Files.createDirectories(root.resolve("Linked/Chapter 1"));
    Files.writeString(linked.resolve("p1.jpg"), "image");
    Path outside = Files.writeString(dir.resolve("outside.xml"), comicInfo("<Summary>Outside.</Summary>"));
    Files.createSymbolicLink(linked.resolve("ComicInfo.xml"), outside);
  }

  private CollectionScanner scanner() {
    return new CollectionScanner(root, InstantSource.fixed(NOW), RarSupport.none());
  }

  private static CollectionBook book(CollectionScan scan, String path) {
    return scan.books().stream().filter(b -> b.path().equals(path)).findFirst().orElseThrow(
        () -> new AssertionError("no book at " + path + " in " + scan.books()));
  }

  @Test
  void aScanReadsTheComicInfoOfStoredAndDeflatedArchivesAndOfAFolderBook() throws IOException {
    CollectionScan scan = scanner().scan(CollectionScan.none());

    BookComicInfo v1 = book(scan, "Saga/Saga v1.cbz").comicInfo().orElseThrow();
    assertThat(v1.series()).isEqualTo("Saga");
    assertThat(v1.summary()).isEqualTo("Two moons.");
    assertThat(v1.authors()).containsExactly(new Author("Jane Roe", Role.WRITER));
    assertThat(v1.ageRating()).isEqualTo(AgeRating.FIFTEEN_PLUS);
    assertThat(book(scan, "Saga/Saga v2.cbz").comicInfo().orElseThrow().ageRating())
        .isEqualTo(AgeRating.EIGHTEEN_PLUS);
    assertThat(book(scan, "Folded/Chapter 1").comicInfo().orElseThrow().summary()).isEqualTo("From a folder.");
  }

  @Test
  void aHostileBrokenOrLinkedComicInfoGivesNoMetadataAndTheBookIsStillListed() throws IOException {
    CollectionScan scan = scanner().scan(CollectionScan.none());

    assertThat(book(scan, "Hostile.cbz").comicInfo()).isEmpty();
    assertThat(book(scan, "Hostile.cbz").pageCount()).isEqualTo(1);
    assertThat(book(scan, "Broken/Chapter 1").comicInfo()).isEmpty();
    assertThat(book(scan, "Linked/Chapter 1").comicInfo()).isEmpty();
    assertThat(scan.unreadable()).extracting(UnreadableItem::path).doesNotContain("Hostile.cbz");
  }

  @Test
  void aRescanKeepsAnUnchangedArchivesComicInfoWithoutOpeningIt() throws IOException {
    CollectionScan first = scanner().scan(CollectionScan.none());
    // Same size and mtime, other bytes: only a scan that opened it again could notice.
    Path v1 = root.resolve("Saga/Saga v1.cbz");
    FileTime mtime = Files.getLastModifiedTime(v1);
    Files.write(v1, new byte[(int) Files.size(v1)]);
    Files.setLastModifiedTime(v1, mtime);

    CollectionScan again = scanner().scan(first);

    assertThat(again.archivesOpened()).isZero();
    assertThat(book(again, "Saga/Saga v1.cbz").comicInfo()).isEqualTo(book(first, "Saga/Saga v1.cbz").comicInfo())
        .isPresent();
  }

  @Test
  void theIndexFileKeepsEachBooksComicInfo() throws IOException {
    CollectionScan scan = scanner().scan(CollectionScan.none());
    Path state = dir.resolve("data/collections/mine");

    new CollectionIndexFile(state, root).save(scan);
    Optional<CollectionScan> loaded = new CollectionIndexFile(state, root).load();

    assertThat(loaded).isPresent();
    assertThat(loaded.get().series()).isEqualTo(scan.series());
    assertThat(book(loaded.get(), "Saga/Saga v1.cbz").comicInfo()).isPresent();
  }

  @Test
  void anIndexFileOfTheSchemaBeforeComicInfoIsScannedFromNothingAndReplaced() throws IOException {
    Path state = Files.createDirectories(dir.resolve("data/collections/mine"));
    Files.writeString(state.resolve(CollectionIndexFile.FILE), "{\"schema\": 1, \"root\": \""
        + root.toString().replace("\\", "\\\\") + "\", \"finishedAt\": \"2026-12-01T00:00:00Z\", \"series\": [],"
        + " \"unreadable\": []}");
    CollectionIndexFile file = new CollectionIndexFile(state, root);

    assertThat(file.load()).isEmpty();
    file.save(scanner().scan(CollectionScan.none()));

    assertThat(Files.readString(state.resolve(CollectionIndexFile.FILE))).contains("\"schema\":2")
        .contains("Two moons.");
  }

  @Test
  void aCollectionSeriesIsRatedByItsStrictestBook() throws IOException {
    CollectionShelf shelf = new CollectionShelf("mine", root, dir.resolve("data/collections/mine"),
        InstantSource.fixed(NOW), RarSupport.none());
    shelf.scan(series -> { });

    assertThat(shelf.entries()).filteredOn(e -> e.title().equals("Saga")).extracting(SeriesEntry::rating)
        .containsExactly(AgeRating.EIGHTEEN_PLUS);
    assertThat(shelf.entries()).filteredOn(e -> e.title().equals("Folded")).extracting(SeriesEntry::rating)
        .containsExactly(AgeRating.ALL_AGES);
    assertThat(shelf.entries()).filteredOn(e -> e.title().equals("Broken")).extracting(SeriesEntry::rating)
        .containsExactly(AgeRating.UNRATED);
  }

  static String comicInfo(String elements) {
    return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<ComicInfo>" + elements + "</ComicInfo>";
  }

  /** A CBZ of the entries given as name, content, name, content..., every entry stored or every entry deflated. */
  static Path cbz(Path file, int method, String... namesAndContents) throws IOException {
    try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
      for (int i = 0; i < namesAndContents.length; i += 2) {
        CollectionFixture.entry(zip, namesAndContents[i], namesAndContents[i + 1].getBytes(StandardCharsets.UTF_8),
            method);
      }
    }
    return file;
  }
}
