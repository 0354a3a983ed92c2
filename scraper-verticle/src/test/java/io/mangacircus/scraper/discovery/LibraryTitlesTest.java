package io.mangacircus.scraper.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibraryTitlesTest {

  @TempDir
  Path library;

  private void chapterJson(String series, String chapter, String json) throws Exception {
    Path folder = Files.createDirectories(library.resolve(series).resolve(chapter));
    Files.writeString(folder.resolve("chapter.json"), json);
  }

  @Test
  void titlesComeFromOldAndCurrentManifestsOfEverySourceAndACorruptOneIsPassedOver() throws Exception {
    chapterJson("old", "chapter-0001", "{\"source\":\"demo\",\"titleId\":\"old\",\"number\":1,"
        + "\"pages\":[{\"file\":\"001.jpg\"}]}");
    chapterJson("foreign", "chapter-0001", "{\"schema\":1,\"source\":\"mangadex\",\"titleId\":\"a1b2\","
        + "\"series\":\"Foreign\",\"pages\":[{\"file\":\"001.jpg\"}]}");
    chapterJson("broken", "chapter-0001", "{\"schema\":1,\"source\":\"demo\"");
    chapterJson("newer", "chapter-0001", "{\"schema\":7,\"source\":\"demo\",\"titleId\":\"newer\"}");
    chapterJson("hand-made", "chapter-0001", "{\"schema\":1,\"pages\":[{\"file\":\"001.jpg\"}]}");
    chapterJson(".staging-mcscraper-resume-x", "chapter-0001", "{\"source\":\"demo\",\"titleId\":\"staged\"}");

    assertThat(LibraryTitles.scan(library)).containsExactlyInAnyOrder(
        new LibraryTitles.Title("mangadex", "a1b2", "Foreign"), new LibraryTitles.Title("demo", "old", "old"));
  }
}
