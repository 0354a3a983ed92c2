package io.mangacircus.scraper.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.scraper.source.PageRef;
import io.mangacircus.testing.TestImages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One pass's snapshot of the series folders answers as the library does, each title's folder read once. */
class SeriesFoldersTest {

  @TempDir
  Path dir;

  private static ChapterKey key(String source, String titleId, String chapterId, String number) {
    return new ChapterKey(source, titleId, "One Piece", chapterId, number, "", "en");
  }

  private static ChapterPublisher.Publication publish(LibraryFolders layout, ChapterKey key) throws Exception {
    StagingFolder staging = StagingFolder.open(layout, key, List.of("001.jpg"), InstantSource.system());
    staging.store(new PageRef(1, "001.jpg", "http://127.0.0.1/1"), "jpg", TestImages.jpeg(Integer.parseInt(key.number())));
    return new ChapterPublisher(layout, InstantSource.system()).publish(staging);
  }

  @Test
  void chaptersAreFoundWhereTheLibraryPutsThemForTheOwnerAnotherTitleAndAnAbsentOne() throws Exception {
    LibraryFolders layout = new LibraryFolders(dir.resolve("library"));
    ChapterPublisher publisher = new ChapterPublisher(layout, InstantSource.system());
    ChapterKey mine = key("mangadex", "a1b2", "c1", "1");
    ChapterKey other = key("mangapill", "zz", "c9", "1");   // same series title: the plain name is taken
    assertThat(publish(layout, mine).result()).isEqualTo(ChapterPublisher.Result.PUBLISHED);
    assertThat(publish(layout, other).result()).isEqualTo(ChapterPublisher.Result.PUBLISHED);
    ChapterKey notPublished = key("mangadex", "a1b2", "c2", "2");
    ChapterKey noFolder = key("mangadex", "never", "c1", "1");

    SeriesFolders folders = new SeriesFolders(layout);

    for (ChapterKey key : List.of(mine, other, notPublished, noFolder)) {
      assertThat(folders.chapter(key)).isEqualTo(layout.chapter(key));
      ChapterPublisher.Occupant snapshot = publisher.occupant(key, folders);
      ChapterPublisher.Occupant disk = publisher.occupant(key);
      assertThat(snapshot.kind()).isEqualTo(disk.kind());
      assertThat(snapshot.fingerprint()).isEqualTo(disk.fingerprint());
      assertThat(snapshot.folder()).isEqualTo(disk.folder());
    }
    assertThat(publisher.occupant(mine, folders).kind()).isEqualTo(ChapterPublisher.Occupant.Kind.THIS_CHAPTER);
    assertThat(publisher.occupant(notPublished, folders).kind()).isEqualTo(ChapterPublisher.Occupant.Kind.NONE);
    assertThat(folders.titles()).as("one series folder per title, however many chapters were asked about")
        .isEqualTo(3);
  }

  @Test
  void eachTitlesSeriesFolderIsReadOnceForThePass() throws Exception {
    LibraryFolders layout = new LibraryFolders(dir.resolve("library"));
    ChapterKey first = key("mangadex", "a1b2", "c1", "1");
    publish(layout, first);
    Path series = layout.chapter(first).getParent();
    SeriesFolders folders = new SeriesFolders(layout);
    assertThat(folders.listed(first)).isTrue();

    // What changes after the title's folder was read is not seen by this pass (no lane runs during recovery) ...
    ChapterKey second = key("mangadex", "a1b2", "c2", "2");
    publish(layout, second);
    Files.delete(series.resolve(LibraryFolders.SERIES_MARKER));
    Files.writeString(series.resolve(LibraryFolders.SERIES_MARKER), "{\"source\":\"else\",\"titleId\":\"x\"}");

    assertThat(folders.chapter(second)).isEqualTo(series.resolve("chapter-0002"));
    assertThat(folders.listed(second)).isFalse();
    // ... while the library itself, asked again, sees the folder as another title's now.
    assertThat(layout.chapter(second).getParent()).isNotEqualTo(series);
  }
}
