package io.mangacircus.scraper.publish;

import io.mangacircus.testing.TestImages;
import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.source.PageRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A series folder belongs to one title of one source; a chapter folder counts only for the chapter it names. */
class SeriesFolderOwnershipTest {

  @TempDir
  Path dir;

  private Path library() {
    return dir.resolve("library");
  }

  private LibraryFolders layout() {
    return new LibraryFolders(library());
  }

  private static PageRef page(int index) {
    return new PageRef(index, String.format("%03d.jpg", index), "http://127.0.0.1/" + index);
  }

  private static ChapterKey key(String source, String titleId, String chapterId, String number) {
    return new ChapterKey(source, titleId, "One Piece", chapterId, number, "", "en");
  }

  private StagingFolder staged(LibraryFolders layout, ChapterKey key) throws Exception {
    List<String> manifest = List.of("001.jpg", "002.jpg");
    StagingFolder staging = StagingFolder.open(layout, key, manifest, InstantSource.system());
    staging.store(page(1), "jpg", TestImages.jpeg(1));
    staging.store(page(2), "jpg", TestImages.jpeg(2));
    return staging;
  }

  /** A chapter.json as an earlier version wrote it (no series marker). */
  private void legacyChapter(String series, String chapterFolder, String source, String titleId, String chapterId)
      throws Exception {
    Path folder = library().resolve(series).resolve(chapterFolder);
    Files.createDirectories(folder);
    Files.writeString(folder.resolve("chapter.json"), "{\"schema\":1,\"source\":\"" + source + "\",\"titleId\":\""
        + titleId + "\",\"series\":\"One Piece\",\"chapterId\":\"" + chapterId + "\",\"number\":\"1\","
        + "\"fingerprint\":\"f-" + chapterId + "\"}");
  }

  @Test
  void twoSourcesWithTheSameTitleGetTwoFoldersAndTheFirstOwnerKeepsThePlainName() throws Exception {
    LibraryFolders layout = layout();
    ChapterPublisher publisher = new ChapterPublisher(layout, InstantSource.system());

    assertThat(publisher.publish(staged(layout, key("mangadex", "a1b2", "c1", "1"))).result())
        .isEqualTo(ChapterPublisher.Result.PUBLISHED);
    assertThat(publisher.publish(staged(layout, key("demo", "one-piece", "c1", "1"))).result())
        .isEqualTo(ChapterPublisher.Result.PUBLISHED);

    assertThat(library().resolve("one-piece/chapter-0001/chapter.json")).content().contains("\"mangadex\"");
    assertThat(library().resolve("one-piece-demo/chapter-0001/chapter.json")).content().contains("\"demo\"");
    assertThat(library().resolve("one-piece/" + LibraryFolders.SERIES_MARKER)).content()
        .contains("\"source\" : \"mangadex\"", "\"titleId\" : \"a1b2\"");

    LibraryFolders restarted = layout();
    assertThat(restarted.series("demo", "one-piece", "One Piece")).isEqualTo(library().resolve("one-piece-demo"));
    assertThat(restarted.series("mangadex", "a1b2", "One Piece")).isEqualTo(library().resolve("one-piece"));
  }

  @Test
  void aThirdTitleOfTheSameNameGetsTheHashedNameAndTheRuleIsStable() throws Exception {
    LibraryFolders layout = layout();
    layout.claimSeries("demo", "one-piece", "One Piece");
    layout.claimSeries("mangadex", "a1b2", "One Piece");
    Path third = layout.claimSeries("mangadex", "ffff", "One Piece").orElseThrow();

    assertThat(third.getFileName().toString()).matches("one-piece-mangadex-[0-9a-f]{8}");
    assertThat(layout().series("mangadex", "ffff", "One Piece")).isEqualTo(third);
    assertThat(layout.seriesCandidates("mangadex", "ffff", "One Piece"))
        .containsExactly("one-piece", "one-piece-mangadex", third.getFileName().toString());
  }

  @Test
  void aTitleKeepsTheFolderItOwnsEvenWhenAnEarlierNameBecomesFree() throws Exception {
    LibraryFolders layout = layout();
    Path first = layout.claimSeries("mangadex", "a1b2", "One Piece").orElseThrow();
    Path second = layout.claimSeries("demo", "one-piece", "One Piece").orElseThrow();
    Files.delete(first.resolve(LibraryFolders.SERIES_MARKER));
    Files.delete(first);

    assertThat(layout().series("demo", "one-piece", "One Piece")).isEqualTo(second);
  }

  @Test
  void aFolderPublishedBeforeMarkersBelongsToTheTitleOfItsFirstChapter() throws Exception {
    legacyChapter("one-piece", "chapter-0001", "mangadex", "a1b2", "c1");
    legacyChapter("one-piece", "chapter-0002", "demo", "one-piece", "c2");

    assertThat(layout().series("mangadex", "a1b2", "One Piece")).isEqualTo(library().resolve("one-piece"));
    assertThat(layout().series("demo", "one-piece", "One Piece")).isEqualTo(library().resolve("one-piece-demo"));
  }

  @Test
  void aFolderWithSomethingElseInItIsNotTakenButAnEmptyOneIs() throws Exception {
    Files.createDirectories(library().resolve("one-piece"));
    Files.writeString(library().resolve("one-piece/notes.txt"), "mine");
    Files.createDirectories(library().resolve("one-piece-demo"));

    Path claimed = layout().claimSeries("demo", "one-piece", "One Piece").orElseThrow();

    assertThat(claimed).isEqualTo(library().resolve("one-piece-demo"));
    assertThat(library().resolve("one-piece/notes.txt")).content().isEqualTo("mine");
    assertThat(library().resolve("one-piece/" + LibraryFolders.SERIES_MARKER)).doesNotExist();
  }

  @Test
  void anUnreadableMarkerIsNeverOverwrittenAndTheFolderCountsAsTaken() throws Exception {
    Files.createDirectories(library().resolve("one-piece"));
    Path marker = library().resolve("one-piece/" + LibraryFolders.SERIES_MARKER);
    Files.writeString(marker, "{ broken");

    assertThat(layout().claimSeries("demo", "one-piece", "One Piece")).contains(library().resolve("one-piece-demo"));
    assertThat(marker).content().isEqualTo("{ broken");
  }

  @Test
  void aForeignChapterJsonIsNeitherCountedAsPublishedNorOverwritten() throws Exception {
    legacyChapter("one-piece", "chapter-0001", "demo", "one-piece", "c1");
    legacyChapter("one-piece", "chapter-0002", "elsewhere", "one-piece", "c2");
    Path foreign = library().resolve("one-piece/chapter-0002/chapter.json");
    String before = Files.readString(foreign);
    LibraryFolders layout = layout();
    ChapterPublisher publisher = new ChapterPublisher(layout, InstantSource.system());
    ChapterKey mine = key("demo", "one-piece", "c2", "2");

    assertThat(publisher.publishedFingerprint(mine)).isEmpty();
    ChapterPublisher.Occupant occupant = publisher.occupant(mine);
    assertThat(occupant.kind()).isEqualTo(ChapterPublisher.Occupant.Kind.OTHER);
    assertThat(occupant.holder()).isEqualTo("elsewhere/one-piece chapter c2");
    assertThat(publisher.publishedFingerprint(key("demo", "one-piece", "c1", "1"))).contains("f-c1");

    StagingFolder staging = staged(layout, mine);
    assertThat(publisher.publish(staging).result()).isEqualTo(ChapterPublisher.Result.FOLDER_TAKEN);
    assertThat(foreign).content().isEqualTo(before);
    assertThat(staging.path()).exists();
  }

  @Test
  void anotherChapterIdAtTheSameChapterFolderIsNotThisChapter() throws Exception {
    legacyChapter("one-piece", "chapter-0001", "demo", "one-piece", "c1");
    ChapterPublisher publisher = new ChapterPublisher(layout(), InstantSource.system());

    assertThat(publisher.occupant(key("demo", "one-piece", "c1-other-group", "1")).kind())
        .isEqualTo(ChapterPublisher.Occupant.Kind.OTHER);
    assertThat(publisher.publishedFingerprint(key("demo", "one-piece", "c1-other-group", "1"))).isEmpty();
  }

  @Test
  void seriesNamesCarryNoControlCharactersWhateverTheSourceSends() {
    Path series = layout().series("demo", "t", "a\u0000b\u001b[31mred\nINJECTED\u202e");

    assertThat(series.getFileName().toString()).isEqualTo("a-b-31mred-injected");
  }

  @Test
  void anOldSchemaManifestIsThisChapterAndACorruptOneIsUnreadableAndNeverTaken() throws Exception {
    Path old = Files.createDirectories(library().resolve("one-piece/chapter-0001"));
    Files.writeString(old.resolve("chapter.json"), "{\"source\":\"demo\",\"titleId\":\"one-piece\","
        + "\"chapterId\":\"c1\",\"number\":1,\"fingerprint\":\"f-c1\",\"pages\":[{\"file\":\"001.jpg\"}]}");
    Path corrupt = Files.createDirectories(library().resolve("one-piece/chapter-0002"));
    Files.writeString(corrupt.resolve("chapter.json"), "{\"source\":\"demo\",");
    ChapterPublisher publisher = new ChapterPublisher(layout(), InstantSource.system());

    ChapterPublisher.Occupant first = publisher.occupant(key("demo", "one-piece", "c1", "1"));
    assertThat(first.kind()).isEqualTo(ChapterPublisher.Occupant.Kind.THIS_CHAPTER);
    assertThat(first.manifest().number()).isEqualTo("1");
    assertThat(publisher.published(first).chapter().path()).isEqualTo("one-piece/chapter-0001");
    assertThat(publisher.occupant(key("demo", "one-piece", "c2", "2")).kind())
        .isEqualTo(ChapterPublisher.Occupant.Kind.UNREADABLE);
    assertThat(publisher.publishedFingerprint(key("demo", "one-piece", "c2", "2"))).contains("unreadable");
  }

  @Test
  void aPublicationNamesTheManifestItWroteAndWhereItLies() throws Exception {
    LibraryFolders layout = layout();
    ChapterPublisher publisher = new ChapterPublisher(layout, InstantSource.system());

    ChapterPublisher.Publication publication = publisher.publish(staged(layout, key("demo", "one-piece", "c1", "1")));

    assertThat(publication.result()).isEqualTo(ChapterPublisher.Result.PUBLISHED);
    assertThat(publication.chapter().seriesId()).isEqualTo("one-piece");
    assertThat(publication.chapter().path()).isEqualTo("one-piece/chapter-0001");
    assertThat(io.mangacircus.contracts.library.ChapterManifest.read(library().resolve("one-piece/chapter-0001")))
        .isEqualTo(publication.chapter().manifest());
  }
}
