package io.mangacircus.reader.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.library.ChapterManifest;
import io.mangacircus.testing.LibraryFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the reader may serve from the library folder: real chapters inside it, and nothing else, saying why. */
class LibraryFilesTest {

  private static final Instant PUBLISHED = Instant.parse("2026-11-20T10:00:00Z");

  @TempDir
  Path work;

  private LibraryFixture fixture;
  private Path library;
  private LibraryFiles files;

  @BeforeEach
  void setUp() throws IOException {
    fixture = new LibraryFixture(work.resolve("data"));
    library = Files.createDirectories(fixture.library());
    files = new LibraryFiles(library);
  }

  private static List<String> refused(LibraryFiles.Listing listing) {
    return listing.refused().stream().map(LibraryScan.Skipped::toString).toList();
  }

  @Test
  void aPublishedChapterIsReadWithItsPagesInOrderInsideTheLibrary() throws IOException {
    fixture.chapter("circus", "Circus Nights", 1, 3, PUBLISHED);

    LibraryFiles.Chapter chapter = files.chapter("circus", "chapter-0001");

    assertThat(chapter.seriesTitle()).isEqualTo("Circus Nights");
    assertThat(chapter.number()).isEqualTo("1");
    assertThat(chapter.publishedAt()).isEqualTo(PUBLISHED);
    assertThat(chapter.pages()).extracting(LibraryFiles.Page::index).containsExactly(1, 2, 3);
    assertThat(chapter.pages()).allSatisfy(page -> {
      assertThat(page.file()).startsWith(library.toRealPath()).isRegularFile();
      assertThat(page.mediaType()).isEqualTo("image/png");
      assertThat(page.sha256()).isEqualTo(LibraryFixture.sha256(Files.readAllBytes(page.file())));
    });
  }

  @Test
  void chaptersAreOrderedByTheirNumberNotTheirFolderName() {
    fixture.chapter("circus", "Circus Nights", 10, 1, PUBLISHED);
    fixture.chapter("circus", "Circus Nights", 2, 1, PUBLISHED);
    fixture.chapter("circus", "Circus Nights", 1, 1, PUBLISHED);

    assertThat(files.chapters("circus")).extracting(LibraryFiles.Chapter::number).containsExactly("1", "2", "10");
  }

  @Test
  void aChapterLinkedToAnotherChapterIsRefusedAndTheRealOneStays() throws IOException {
    Path real = fixture.chapter("circus", "Circus Nights", 1, 1, PUBLISHED);
    Files.createSymbolicLink(real.resolveSibling("chapter-0002"), real);

    LibraryFiles.Listing listing = files.listing("circus", false);

    assertThat(listing.chapters()).extracting(LibraryFiles.Chapter::id).containsExactly("chapter-0001");
    assertThat(refused(listing)).singleElement().asString().contains("circus/chapter-0002")
        .contains("symbolic link to another folder of the library");
  }

  @Test
  void aSeriesLinkedOutsideTheLibraryIsNotFoundAndTheReaderIsNotToldWhere() throws IOException {
    LibraryFixture outside = new LibraryFixture(work.resolve("elsewhere"));
    Path folder = outside.chapter("secret", "Secret", 1, 1, PUBLISHED).getParent();
    Files.createSymbolicLink(library.resolve("secret"), folder);

    assertThatThrownBy(() -> files.chapters("secret")).isInstanceOfSatisfying(LibraryFiles.NotFoundException.class,
        e -> {
          assertThat(e.getMessage()).isEqualTo("no series secret").doesNotContain(work.toString());
          assertThat(e.reason()).isEqualTo("resolves outside the library");
        });
  }

  @Test
  void aChapterMissingAPageFileIsRefusedNamingThePage() throws IOException {
    Path folder = fixture.chapter("circus", "Circus Nights", 1, 2, PUBLISHED);
    Files.delete(folder.resolve("002.png"));

    assertThat(refused(files.listing("circus", false))).singleElement().asString()
        .contains("page 002.png does not exist");
    assertThatThrownBy(() -> files.chapter("circus", "chapter-0001"))
        .isInstanceOf(LibraryFiles.NotFoundException.class).hasMessageContaining("misses page 002.png");
  }

  @Test
  void aCorruptChapterJsonIsRefusedWithoutStoppingTheRestOfTheSeries() throws IOException {
    fixture.chapter("circus", "Circus Nights", 1, 1, PUBLISHED);
    Path broken = fixture.chapter("circus", "Circus Nights", 2, 1, PUBLISHED);
    Files.writeString(broken.resolve("chapter.json"), "{\"pages\": [");

    LibraryFiles.Listing listing = files.listing("circus", false);

    assertThat(listing.chapters()).extracting(LibraryFiles.Chapter::id).containsExactly("chapter-0001");
    assertThat(refused(listing)).singleElement().asString().contains("chapter.json is not valid JSON");
  }

  @Test
  void aPageFileNameThatClimbsOutOfTheChapterIsRefused() throws IOException {
    Path folder = fixture.chapter("circus", "Circus Nights", 1, 1, PUBLISHED);
    Files.writeString(work.resolve("data/passwd.png"), "not yours");
    Files.writeString(folder.resolve("chapter.json"), "{\"schema\":1,\"series\":\"Circus\",\"number\":\"1\","
        + "\"pages\":[{\"index\":1,\"file\":\"../../../passwd.png\"}]}");

    assertThatThrownBy(() -> files.chapter("circus", "chapter-0001"))
        .isInstanceOfSatisfying(LibraryFiles.NotFoundException.class,
            e -> assertThat(e.reason()).isEqualTo("chapter.json names an unusable page file"));
  }

  @Test
  void aSeriesWithOnlyAStagingFolderHasNoPublishedChapter() throws IOException {
    Files.createDirectories(library.resolve("circus/.staging-chapter-0001"));

    assertThatThrownBy(() -> files.chapters("circus")).isInstanceOf(LibraryFiles.NotFoundException.class)
        .hasMessage("no published chapter in series circus");
  }

  @Test
  void idsWithSeparatorsDotSegmentsOrALeadingDotAreNotLibraryIds() {
    assertThat(LibraryFiles.validId("chapter-0001")).isTrue();
    assertThat(LibraryFiles.validId("v1.5_extra")).isTrue();
    assertThat(List.of("..", "a/b", ".staging", "a..b", "", "a\\b")).noneMatch(LibraryFiles::validId);
    assertThat(LibraryFiles.validId(null)).isFalse();
    assertThatThrownBy(() -> files.chapter("..", "chapter-0001")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aChapterReadForPageServingIsCachedButAWholeLibraryScanLeavesTheCacheAlone() {
    fixture.chapter("circus", "Circus Nights", 1, 1, PUBLISHED);
    fixture.chapter("circus", "Circus Nights", 2, 1, PUBLISHED);

    files.listing("circus", false);
    assertThat(files.cached("circus", "chapter-0001")).isEmpty();

    files.chapter("circus", "chapter-0002");
    assertThat(files.cached("circus", "chapter-0002")).hasValueSatisfying(c -> assertThat(c.number()).isEqualTo("2"));
  }

  @Test
  void aRepublishedChapterReplacesTheManifestPageServingCachedWithTheOneItsPublicationCarries() throws IOException {
    fixture.chapter("circus", "Circus Nights", 1, 3, PUBLISHED);
    assertThat(files.chapter("circus", "chapter-0001").pages()).hasSize(3);

    Path folder = fixture.chapter("circus", "Circus Nights Remastered", 1, 2, PUBLISHED.plusSeconds(60));
    files.admit("circus", "chapter-0001", readManifest(folder));

    LibraryFiles.Chapter served = files.chapter("circus", "chapter-0001");
    assertThat(served.pages()).hasSize(2);
    assertThat(served.seriesTitle()).isEqualTo("Circus Nights Remastered");
    assertThat(served.pages().get(0).sha256())
        .isEqualTo(LibraryFixture.sha256(Files.readAllBytes(folder.resolve("001.png"))));
  }

  @Test
  void aWholeLibraryScanReadsCachedChaptersAgainSoOnePublishedAgainUnseenIsServedAsItIsNow() throws IOException {
    fixture.chapter("circus", "Circus Nights", 1, 3, PUBLISHED);
    fixture.chapter("circus", "Circus Nights", 2, 1, PUBLISHED);
    assertThat(files.chapter("circus", "chapter-0001").pages()).hasSize(3);
    assertThat(files.chapter("circus", "chapter-0002").pages()).hasSize(1);
    // Published again without this reader hearing of it (a partitioned pair), and one made unreadable meanwhile.
    fixture.chapter("circus", "Circus Nights Remastered", 1, 2, PUBLISHED.plusSeconds(60));
    Files.writeString(fixture.library().resolve("circus/chapter-0002/chapter.json"), "{ not json");

    LibraryFiles.Listing scanned = files.listing("circus", false);

    assertThat(scanned.chapters()).singleElement().satisfies(c -> assertThat(c.pages()).hasSize(2));
    assertThat(scanned.refused()).singleElement().satisfies(r -> assertThat(r.entry()).isEqualTo("circus/chapter-0002"));
    assertThat(files.cached("circus", "chapter-0001")).hasValueSatisfying(c -> {
      assertThat(c.pages()).hasSize(2);
      assertThat(c.seriesTitle()).isEqualTo("Circus Nights Remastered");
    });
    assertThat(files.cached("circus", "chapter-0002")).as("what the scan refused is not served from the cache").isEmpty();
  }

  @Test
  void aWholeLibraryScanListsAChapterNobodyCachedByItsCardAloneAfterCheckingEveryPage() throws IOException {
    fixture.chapter("circus", "Circus Nights", 1, 3, PUBLISHED);
    Path second = fixture.chapter("circus", "Circus Nights", 2, 2, PUBLISHED);

    LibraryFiles.Chapter listed = files.listing("circus", false).chapters().get(0);
    Files.delete(second.resolve("002.png"));
    LibraryFiles.Listing again = files.listing("circus", false);

    assertThat(listed.seriesTitle()).isEqualTo("Circus Nights");
    assertThat(listed.title()).isEqualTo("Chapter 1");
    assertThat(listed.publishedAt()).isEqualTo(PUBLISHED);
    assertThat(listed.pages()).as("a scan keeps no page list it would drop").isEmpty();
    assertThat(again.chapters()).extracting(LibraryFiles.Chapter::id).containsExactly("chapter-0001");
    assertThat(refused(again)).singleElement().asString().contains("page 002.png does not exist");
    assertThat(files.chapter("circus", "chapter-0001").pages()).as("page serving reads the pages").hasSize(3);
  }

  @Test
  void aChapterJsonLinkedToAFileInsideTheLibraryIsReadThroughTheLink() throws IOException {
    Path folder = fixture.chapter("circus", "Circus Nights", 1, 1, PUBLISHED);
    Path kept = Files.move(folder.resolve("chapter.json"), library.resolve("circus-chapter-1.json"));
    Files.createSymbolicLink(folder.resolve("chapter.json"), kept);

    assertThat(files.listing("circus", false).chapters()).extracting(LibraryFiles.Chapter::number)
        .containsExactly("1");
    assertThat(files.chapter("circus", "chapter-0001").pages()).hasSize(1);
  }

  @Test
  void aPublicationOfAChapterNotReadYetDoesNotFillTheCache() {
    Path folder = fixture.chapter("circus", "Circus Nights", 1, 1, PUBLISHED);
    assertThat(files.cached("circus", "chapter-0001")).isEmpty();

    assertThat(files.admit("circus", "chapter-0001", readManifest(folder)).pages()).hasSize(1);

    assertThat(files.cached("circus", "chapter-0001")).isEmpty();
  }

  private static ChapterManifest readManifest(Path folder) {
    try {
      return ChapterManifest.read(folder);
    } catch (IOException | ChapterManifest.InvalidException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void pageMediaTypesFollowTheFileExtension() {
    assertThat(LibraryFiles.mediaType("001.PNG")).isEqualTo("image/png");
    assertThat(LibraryFiles.mediaType("001.webp")).isEqualTo("image/webp");
    assertThat(LibraryFiles.mediaType("001.jpg")).isEqualTo("image/jpeg");
    assertThat(LibraryFiles.mediaType("001.avif")).isEqualTo("image/avif");
    assertThat(LibraryFiles.mediaType("001.heic")).as("the scraper stores HEIF pages as .heic").isEqualTo("image/heic");
  }
}
