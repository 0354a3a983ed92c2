package io.mangacircus.scraper.publish;

import io.mangacircus.testing.TestImages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.CorruptStateFileException;
import io.mangacircus.scraper.source.PageRef;
import io.vertx.core.json.JsonObject;
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

  private LibraryFolders layout() {
    return new LibraryFolders(dir.resolve("library"));
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
    staging.close();
  }

  @Test
  void theHeaderIsWrittenOnceAndEachPageAppendsOneLineToTheLog() throws Exception {
    StagingFolder staging = open(manifest);
    Path header = staging.path().resolve("checkpoint.json");
    byte[] written = Files.readAllBytes(header);

    for (int i = 1; i <= 3; i++) {
      staging.store(page(i), "jpg", TestImages.jpeg(i));
    }
    staging.close();

    assertThat(Files.readAllBytes(header)).as("the header is not rewritten per page").isEqualTo(written);
    JsonObject parsed = new JsonObject(Files.readString(header));
    assertThat(parsed.getInteger("schema")).isEqualTo(2);
    assertThat(parsed.getString("fingerprint")).isEqualTo(staging.fingerprint());
    assertThat(parsed.getJsonArray("manifest")).containsExactly("001.jpg", "002.jpg", "003.jpg");
    assertThat(parsed.containsKey("pages")).isFalse();
    List<String> lines = Files.readAllLines(staging.path().resolve("checkpoint.log"));
    assertThat(lines).hasSize(3);
    for (int i = 1; i <= 3; i++) {
      JsonObject line = new JsonObject(lines.get(i - 1));
      assertThat(line.getInteger("index")).isEqualTo(i);
      assertThat(line.getString("file")).isEqualTo(String.format("%03d.jpg", i));
      assertThat(line.getString("sha256")).isEqualTo(Fingerprints.sha256(TestImages.jpeg(i)));
    }
    assertThat(Files.readString(staging.path().resolve("checkpoint.log"))).endsWith("\n");
  }

  @Test
  void aTornLastLineCountsAsAbsentAndTheNextPageStartsOnANewLine() throws Exception {
    StagingFolder first = open(manifest);
    first.store(page(1), "jpg", TestImages.jpeg(1));
    first.store(page(2), "jpg", TestImages.jpeg(2));
    first.close();
    Path log = first.path().resolve("checkpoint.log");
    String complete = Files.readString(log);
    // The process died mid-append of page 3: its file is there, half of its line too.
    Files.write(first.path().resolve("003.jpg"), TestImages.jpeg(3));
    Files.writeString(log, complete + "{\"index\":3,\"file\":\"003.j");

    assertThat(StagingFolder.readCheckpoint(first.path()).orElseThrow().pages()).extracting(Checkpoint.Page::index)
        .containsExactly(1, 2);
    StagingFolder again = open(manifest);
    assertThat(again.has(1)).isTrue();
    assertThat(again.has(2)).isTrue();
    assertThat(again.has(3)).as("the torn line's page is fetched again").isFalse();

    again.store(page(3), "jpg", TestImages.jpeg(3));
    again.close();

    List<String> lines = Files.readAllLines(log);
    assertThat(lines).hasSize(3);
    assertThat(lines.subList(0, 2)).containsExactlyElementsOf(complete.lines().toList());
    assertThat(new JsonObject(lines.get(2)).getInteger("index")).isEqualTo(3);
    assertThat(open(manifest).complete()).isTrue();
  }

  @Test
  void anUnparsableLastLineWithItsNewlineCountsAsAbsentToo() throws Exception {
    StagingFolder first = open(manifest);
    first.store(page(1), "jpg", TestImages.jpeg(1));
    first.close();
    Path log = first.path().resolve("checkpoint.log");
    String complete = Files.readString(log);
    Files.writeString(log, complete + "\u0000\u0000\u0000\n");

    StagingFolder again = open(manifest);
    assertThat(again.validatedPages()).isEqualTo(1);
    again.store(page(2), "jpg", TestImages.jpeg(2));
    again.close();

    assertThat(Files.readAllLines(log)).hasSize(2).allSatisfy(line -> new JsonObject(line));
    assertThat(open(manifest).validatedPages()).isEqualTo(2);
  }

  @Test
  void anUnparsableLineBeforeTheLastIsRefusedAndTheFolderLeftUntouched() throws Exception {
    StagingFolder first = open(manifest);
    first.store(page(1), "jpg", TestImages.jpeg(1));
    first.store(page(2), "jpg", TestImages.jpeg(2));
    first.close();
    Path log = first.path().resolve("checkpoint.log");
    List<String> lines = Files.readAllLines(log);
    String broken = "{ not a page\n" + lines.get(1) + "\n";
    Files.writeString(log, broken);
    byte[] header = Files.readAllBytes(first.path().resolve("checkpoint.json"));

    assertThatThrownBy(() -> open(manifest)).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("checkpoint.log").hasMessageContaining("line 1");
    assertThatThrownBy(() -> StagingFolder.readCheckpoint(first.path()))
        .isInstanceOf(CorruptStateFileException.class);
    assertThat(Files.readString(log)).isEqualTo(broken);
    assertThat(first.path().resolve("checkpoint.json")).hasBinaryContent(header);
    assertThat(first.path().resolve("001.jpg")).hasBinaryContent(TestImages.jpeg(1));
  }

  @Test
  void aHeaderOfAnotherChapterIsRefusedAndTheFolderLeftUntouched() throws Exception {
    StagingFolder first = open(manifest);
    first.store(page(1), "jpg", TestImages.jpeg(1));
    first.close();
    Path header = first.path().resolve("checkpoint.json");
    String other = Files.readString(header).replace("\"chapterId\":\"c1\"", "\"chapterId\":\"c7\"")
        .replace(first.fingerprint(), Fingerprints.chapter("demo", "circus-nights", "c7", manifest));
    Files.writeString(header, other);
    byte[] log = Files.readAllBytes(first.path().resolve("checkpoint.log"));

    assertThatThrownBy(() -> open(manifest)).isInstanceOf(CorruptStateFileException.class)
        .hasMessageContaining("checkpoint.json").hasMessageContaining("another chapter");
    assertThat(Files.readString(header)).isEqualTo(other);
    assertThat(first.path().resolve("checkpoint.log")).hasBinaryContent(log);
  }

  @Test
  void aCheckpointWrittenByTheEarlierVersionIsResumedWithoutFetchingItsPagesAgain() throws Exception {
    // An upgrade with a half-downloaded chapter: checkpoint.json schema 1 with its pages, no log.
    String fingerprint = Fingerprints.chapter("demo", "circus-nights", "c1", manifest);
    Path folder = layout().staging(fingerprint);
    Files.createDirectories(folder);
    Files.write(folder.resolve("001.jpg"), TestImages.jpeg(1));
    Files.write(folder.resolve("002.jpg"), TestImages.jpeg(2));
    String legacy = "{\"schema\":1,\"fingerprint\":\"" + fingerprint + "\",\"source\":\"demo\","
        + "\"titleId\":\"circus-nights\",\"chapterId\":\"c1\",\"manifest\":[\"001.jpg\",\"002.jpg\",\"003.jpg\"],"
        + "\"pages\":[" + legacyPage(1) + "," + legacyPage(2) + "],\"updatedAt\":\"2026-01-01T00:00:00Z\"}";
    Files.writeString(folder.resolve("checkpoint.json"), legacy);

    StagingFolder resumed = open(manifest);
    assertThat(resumed.path()).isEqualTo(folder);
    assertThat(resumed.has(1)).isTrue();
    assertThat(resumed.has(2)).isTrue();
    assertThat(resumed.has(3)).isFalse();
    resumed.store(page(3), "jpg", TestImages.jpeg(3));
    resumed.close();

    assertThat(Files.readString(folder.resolve("checkpoint.json"))).isEqualTo(legacy);
    assertThat(StagingFolder.readCheckpoint(folder).orElseThrow().pages()).extracting(Checkpoint.Page::index)
        .containsExactly(1, 2, 3);
    StagingFolder complete = open(manifest);
    assertThat(complete.complete()).isTrue();
    ChapterPublisher publisher = new ChapterPublisher(layout(), InstantSource.system());
    assertThat(publisher.publish(complete).result()).isEqualTo(ChapterPublisher.Result.PUBLISHED);
    Path published = dir.resolve("library/circus-nights/chapter-0001");
    assertThat(published.resolve("checkpoint.json")).doesNotExist();
    assertThat(published.resolve("checkpoint.log")).doesNotExist();
    assertThat(new JsonObject(Files.readString(published.resolve("chapter.json"))).getJsonArray("pages")).hasSize(3);
  }

  private static String legacyPage(int index) {
    byte[] bytes = TestImages.jpeg(index);
    return String.format("{\"index\":%d,\"file\":\"%03d.jpg\",\"size\":%d,\"sha256\":\"%s\"}", index, index,
        bytes.length, Fingerprints.sha256(bytes));
  }

  @Test
  void aFolderCompactedForPublicationButNotRenamedKeepsEveryPage() throws Exception {
    StagingFolder staging = open(manifest);
    for (int i = 1; i <= 3; i++) {
      staging.store(page(i), "jpg", TestImages.jpeg(i));
    }
    // What publication does before its rename: chapter.json, then the checkpoint files go.
    new io.mangacircus.contracts.library.ChapterManifest(1, "demo", "circus-nights", "Circus Nights", "c1", "1", "",
        "en", staging.fingerprint(), java.time.Instant.now(), staging.pages().stream()
        .map(p -> new io.mangacircus.contracts.library.ChapterManifest.Page(p.index(), p.file(), p.size(), p.sha256()))
        .toList()).write(staging.path());
    staging.compactForPublication();
    assertThat(staging.path().resolve("checkpoint.json")).doesNotExist();
    assertThat(staging.path().resolve("checkpoint.log")).doesNotExist();

    assertThat(open(manifest).complete()).as("the process stopped before the rename: nothing is lost").isTrue();

    // A page changed meanwhile: it alone is fetched again, and the folder gets a header and log again.
    Files.write(staging.path().resolve("002.jpg"), TestImages.jpeg(9));
    StagingFolder again = open(manifest);
    assertThat(again.has(1)).isTrue();
    assertThat(again.has(2)).isFalse();
    assertThat(again.has(3)).isTrue();
    again.store(page(2), "jpg", TestImages.jpeg(2));
    again.close();
    assertThat(staging.path().resolve("checkpoint.json")).exists();
    assertThat(open(manifest).complete()).isTrue();
  }

  @Test
  void theLogStaysOpenWhilePagesAreStoredAndIsClosedWithTheFolder() throws Exception {
    StagingFolder staging = open(manifest);
    staging.store(page(1), "jpg", TestImages.jpeg(1));
    staging.store(page(2), "jpg", TestImages.jpeg(2));

    assertThat(openDescriptors(staging.path().resolve("checkpoint.log"))).isEqualTo(1);

    staging.close();
    assertThat(openDescriptors(staging.path().resolve("checkpoint.log"))).isZero();
    staging.close();
  }

  /** How many of this process's file descriptors point at {@code file} (Linux /proc). */
  static long openDescriptors(Path file) throws Exception {
    Path real = file.toRealPath();
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.filter(fd -> {
        try {
          return Files.readSymbolicLink(fd).equals(real);
        } catch (Exception e) {
          return false;
        }
      }).count();
    }
  }

  @Test
  void aPageWrittenButNotYetRecordedIsNotAPageAndAReopenFetchesItAgain() throws Exception {
    StagingFolder staging = open(manifest);
    byte[] bytes = TestImages.jpeg(1);

    Checkpoint.Page written = staging.write(page(1), "jpg", bytes);

    assertThat(staging.path().resolve("001.jpg")).hasBinaryContent(bytes);
    assertThat(written).isEqualTo(new Checkpoint.Page(1, "001.jpg", bytes.length, Fingerprints.sha256(bytes)));
    assertThat(staging.has(1)).isFalse();
    assertThat(open(manifest).has(1)).as("a kill between the write and the record loses the page").isFalse();

    staging.record(written);

    assertThat(staging.has(1)).isTrue();
    assertThat(open(manifest).has(1)).isTrue();
    assertThat(StagingFolder.readCheckpoint(staging.path()).orElseThrow().pages()).containsExactly(written);
  }

  @Test
  void pagesWrittenOnSeveralThreadsAtOnceAreRecordedInTheOrderTheyFinish() throws Exception {
    StagingFolder staging = open(manifest);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
    try {
      List<java.util.concurrent.Future<Checkpoint.Page>> writes = new java.util.ArrayList<>();
      for (int index = 1; index <= 3; index++) {
        PageRef ref = page(index);
        byte[] bytes = TestImages.jpeg(index);
        writes.add(pool.submit(() -> staging.write(ref, "jpg", bytes)));
      }
      for (int i = writes.size() - 1; i >= 0; i--) {
        staging.record(writes.get(i).get());
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(staging.complete()).isTrue();
    StagingFolder again = open(manifest);
    assertThat(again.complete()).isTrue();
    for (int index = 1; index <= 3; index++) {
      assertThat(staging.path().resolve(String.format("%03d.jpg", index))).hasBinaryContent(TestImages.jpeg(index));
    }
    assertThat(StagingFolder.readCheckpoint(staging.path()).orElseThrow().pages()).extracting(Checkpoint.Page::index)
        .containsExactlyInAnyOrder(1, 2, 3);
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
    assertThat(again.validatedPages()).isEqualTo(1);
    again.store(page(2), "jpg", TestImages.jpeg(2));
    again.close();
    assertThat(open(manifest).has(2)).as("the page fetched again counts").isTrue();
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
  void aTitleWithControlCharactersIsPublishedWithAWellFormedComicInfo() throws Exception {
    ChapterKey noisy = new ChapterKey("demo", "circus-nights", "Circus\u0001 Nights", "c1", "1", "Act\u001B <One> & Two",
        "en");
    StagingFolder staging = StagingFolder.open(layout(), noisy, manifest, InstantSource.system());
    for (int i = 1; i <= 3; i++) {
      staging.store(page(i), "jpg", TestImages.jpeg(i));
    }

    assertThat(new ChapterPublisher(layout(), InstantSource.system()).publish(staging).result())
        .isEqualTo(ChapterPublisher.Result.PUBLISHED);

    Path info = dir.resolve("library/circus-nights/chapter-0001/ComicInfo.xml");
    org.w3c.dom.Document parsed = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(info.toFile());
    assertThat(parsed.getElementsByTagName("Series").item(0).getTextContent()).isEqualTo("Circus Nights");
    assertThat(parsed.getElementsByTagName("Title").item(0).getTextContent()).isEqualTo("Act <One> & Two");
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
    try (var files = Files.list(published)) {
      assertThat(files.map(p -> p.getFileName().toString())).as("no checkpoint files in the library")
          .containsExactlyInAnyOrder("001.jpg", "002.jpg", "003.jpg", "chapter.json", "ComicInfo.xml");
    }
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
    LibraryFolders layout = new LibraryFolders(dir.resolve("library"), java.util.Map.of("mangapill", "mangapill-"));
    ChapterKey fromMangaPill = new ChapterKey("mangapill", "2/one-piece", "One Piece", "2-1/one-piece-chapter-1", "1",
        "", "en");
    ChapterKey fromDemo = new ChapterKey("demo", "one-piece", "One Piece", "c1", "1", "", "en");

    assertThat(layout.chapter(fromMangaPill)).isEqualTo(dir.resolve("library/mangapill-one-piece/chapter-0001"));
    assertThat(layout.chapter(fromDemo)).isEqualTo(dir.resolve("library/one-piece/chapter-0001"));
    assertThatThrownBy(() -> new LibraryFolders(dir, java.util.Map.of("x", "../up"))).isInstanceOf(
        IllegalArgumentException.class);
  }
}
