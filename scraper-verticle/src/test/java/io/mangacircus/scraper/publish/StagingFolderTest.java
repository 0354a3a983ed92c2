package io.mangacircus.scraper.publish;

import io.mangacircus.testing.TestImages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.scraper.source.PageRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StagingFolderTest {

  @TempDir
  Path dir;

  private final ChapterKey key = new ChapterKey("demo", "circus-nights", "Circus Nights", "c1", "1", "", "en");
  private final List<String> manifest = List.of("001.jpg", "002.jpg", "003.jpg");

  private LibraryLayout layout() {
    return new LibraryLayout(dir.resolve("library"));
  }

  private StagingFolder open(List<String> pages) {
    return StagingFolder.open(layout(), key, pages, InstantSource.system());
  }

  private static PageRef page(int index) {
    return new PageRef(index, String.format("%03d.jpg", index), "http://127.0.0.1/" + index);
  }

  @Test
  void theFingerprintCoversSourceTitleChapterAndEveryPageKey() {
    String base = Fingerprints.chapter("demo", "t", "c1", manifest);

    assertThat(base).hasSize(64).isEqualTo(Fingerprints.chapter("demo", "t", "c1", manifest));
    assertThat(Fingerprints.chapter("other", "t", "c1", manifest)).isNotEqualTo(base);
    assertThat(Fingerprints.chapter("demo", "t", "c2", manifest)).isNotEqualTo(base);
    assertThat(Fingerprints.chapter("demo", "t", "c1", List.of("001.jpg", "002.jpg"))).isNotEqualTo(base);
    assertThat(Fingerprints.chapter("demo", "t", "c1", List.of("002.jpg", "001.jpg", "003.jpg"))).isNotEqualTo(base);
  }

  @Test
  void pagesAreRenamedFromHiddenPartFilesAndRecordedInTheCheckpoint() throws Exception {
    StagingFolder staging = open(manifest);
    byte[] bytes = TestImages.jpeg(1);

    staging.store(page(1), "jpg", bytes);

    assertThat(staging.path().getFileName().toString()).isEqualTo(".staging-mcscraper-resume-" + staging.fingerprint());
    assertThat(staging.path().resolve("001.jpg")).hasBinaryContent(bytes);
    assertThat(staging.path().resolve(".001.jpg.part")).doesNotExist();
    Checkpoint checkpoint = StagingFolder.readCheckpoint(staging.path()).orElseThrow();
    assertThat(checkpoint.pages()).singleElement().satisfies(p -> {
      assertThat(p.file()).isEqualTo("001.jpg");
      assertThat(p.size()).isEqualTo(bytes.length);
      assertThat(p.sha256()).isEqualTo(Fingerprints.sha256(bytes));
    });
  }

  @Test
  void reopeningWithTheSameManifestReusesValidatedPagesButNotPendingFiles() throws Exception {
    StagingFolder first = open(manifest);
    first.store(page(1), "jpg", TestImages.jpeg(1));
    first.store(page(2), "jpg", TestImages.jpeg(2));
    Files.write(first.path().resolve(".003.jpg.part"), TestImages.jpeg(3));
    Files.write(first.path().resolve("003.jpg"), TestImages.jpeg(3));

    StagingFolder again = open(manifest);

    assertThat(again.path()).isEqualTo(first.path());
    assertThat(again.has(1)).isTrue();
    assertThat(again.has(2)).isTrue();
    assertThat(again.has(3)).as("an unrecorded or pending file is not a page").isFalse();
    assertThat(again.complete()).isFalse();
  }

  @Test
  void aReusedPageWhoseBytesChangedIsDroppedAndFetchedAgain() throws Exception {
    StagingFolder first = open(manifest);
    first.store(page(1), "jpg", TestImages.jpeg(1));
    first.store(page(2), "jpg", TestImages.jpeg(2));
    Files.write(first.path().resolve("002.jpg"), TestImages.jpeg(9));

    StagingFolder again = open(manifest);

    assertThat(again.has(1)).isTrue();
    assertThat(again.has(2)).isFalse();
    assertThat(StagingFolder.readCheckpoint(again.path()).orElseThrow().pages()).hasSize(1);
  }

  @Test
  void aChangedManifestGetsANewFolderAndTheOldOneIsLeftAlone() throws Exception {
    StagingFolder first = open(manifest);
    first.store(page(1), "jpg", TestImages.jpeg(1));

    StagingFolder changed = open(List.of("001.jpg", "002.jpg", "003.jpg", "004.jpg"));

    assertThat(changed.path()).isNotEqualTo(first.path());
    assertThat(changed.validatedPages()).isZero();
    assertThat(first.path().resolve("001.jpg")).exists();
    assertThat(StagingFolder.readCheckpoint(first.path()).orElseThrow().pages()).hasSize(1);
  }

  @Test
  void anUnreadableCheckpointIsReportedAndLeftUntouched() throws Exception {
    StagingFolder first = open(manifest);
    first.store(page(1), "jpg", TestImages.jpeg(1));
    Path checkpoint = first.path().resolve("checkpoint.json");
    Files.writeString(checkpoint, "{ broken");

    assertThatThrownBy(() -> open(manifest)).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("checkpoint.json");
    assertThat(Files.readString(checkpoint)).isEqualTo("{ broken");
  }

  @Test
  void aCompleteChapterIsPublishedWithOneRenameAndNeverOverwritten() throws Exception {
    StagingFolder staging = open(manifest);
    for (int i = 1; i <= 3; i++) {
      staging.store(page(i), "jpg", TestImages.jpeg(i));
    }
    ChapterPublisher publisher = new ChapterPublisher(layout(), InstantSource.system());

    assertThat(publisher.publish(staging).result()).isEqualTo(ChapterPublisher.Result.PUBLISHED);

    Path published = dir.resolve("library/circus-nights/chapter-0001");
    assertThat(published.resolve("001.jpg")).exists();
    assertThat(published.resolve("003.jpg")).exists();
    assertThat(Files.readString(published.resolve("chapter.json"))).contains(staging.fingerprint(), "Circus Nights");
    assertThat(Files.readString(published.resolve("ComicInfo.xml"))).contains("<Series>Circus Nights</Series>",
        "<PageCount>3</PageCount>");
    assertThat(staging.path()).doesNotExist();
    assertThat(publisher.publishedFingerprint(key)).contains(staging.fingerprint());

    StagingFolder sameAgain = open(manifest);
    for (int i = 1; i <= 3; i++) {
      sameAgain.store(page(i), "jpg", TestImages.jpeg(i));
    }
    assertThat(publisher.publish(sameAgain).result()).isEqualTo(ChapterPublisher.Result.ALREADY_PUBLISHED);

    List<String> otherManifest = List.of("001.jpg", "002.jpg");
    StagingFolder different = open(otherManifest);
    different.store(page(1), "jpg", TestImages.jpeg(7));
    different.store(page(2), "jpg", TestImages.jpeg(8));
    byte[] before = Files.readAllBytes(published.resolve("001.jpg"));
    assertThat(publisher.publish(different).result()).isEqualTo(ChapterPublisher.Result.CONFLICT);
    assertThat(Files.readAllBytes(published.resolve("001.jpg"))).isEqualTo(before);
    assertThat(different.path()).exists();
  }

  @Test
  void aSourceWithASeriesFolderPrefixPublishesUnderItsOwnSeriesFolder() {
    LibraryLayout layout = new LibraryLayout(dir.resolve("library"), java.util.Map.of("mangapill", "mangapill-"));
    ChapterKey fromMangaPill = new ChapterKey("mangapill", "2/one-piece", "One Piece", "2-1/one-piece-chapter-1", "1",
        "", "en");
    ChapterKey fromDemo = new ChapterKey("demo", "one-piece", "One Piece", "c1", "1", "", "en");

    assertThat(layout.chapter(fromMangaPill)).isEqualTo(dir.resolve("library/mangapill-one-piece/chapter-0001"));
    assertThat(layout.chapter(fromDemo)).isEqualTo(dir.resolve("library/one-piece/chapter-0001"));
    assertThatThrownBy(() -> new LibraryLayout(dir, java.util.Map.of("x", "../up"))).isInstanceOf(
        IllegalArgumentException.class);
  }
}
