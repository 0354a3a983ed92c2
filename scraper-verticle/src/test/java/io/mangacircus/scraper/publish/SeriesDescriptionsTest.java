package io.mangacircus.scraper.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.library.SourceSeriesMetadata;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A source's metadata of a title lands in the title's own series folder, and only there. */
class SeriesDescriptionsTest {

  @TempDir
  Path dir;

  private static SourceSeriesMetadata said(String summary) {
    return new SourceSeriesMetadata(1, "mangadex", "t1", "Starfall", summary, List.of(), List.of("Action"),
        List.of(), "ongoing", 2019, "ja", List.of());
  }

  @Test
  void anInspectionOfATitleWhoseFolderIsItsOwnWritesAtOnceAndRewritesOnlyOnChange() throws Exception {
    LibraryFolders library = new LibraryFolders(dir.resolve("library"));
    Path folder = library.claimSeries("mangadex", "t1", "Starfall").orElseThrow();
    SeriesDescriptions descriptions = new SeriesDescriptions(library);

    descriptions.inspected("mangadex", "t1", "Starfall", said("Stars fall."));
    assertThat(SourceSeriesMetadata.read(folder).summary()).isEqualTo("Stars fall.");
    Path file = folder.resolve(SourceSeriesMetadata.FILE);
    Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(0));

    descriptions.inspected("mangadex", "t1", "Starfall", said("Stars fall."));
    assertThat(Files.getLastModifiedTime(file).toMillis()).as("same content: not rewritten").isZero();

    descriptions.inspected("mangadex", "t1", "Starfall", said("Stars fall on a town."));
    assertThat(SourceSeriesMetadata.read(folder).summary()).isEqualTo("Stars fall on a town.");
  }

  @Test
  void anInspectionNeverWritesIntoAFolderAnotherTitleHolds() throws Exception {
    LibraryFolders library = new LibraryFolders(dir.resolve("library"));
    Path other = library.claimSeries("mangapill", "zz", "Starfall").orElseThrow();
    SeriesDescriptions descriptions = new SeriesDescriptions(library);

    descriptions.inspected("mangadex", "t1", "Starfall", said("Stars fall."));

    assertThat(other.resolve(SourceSeriesMetadata.FILE)).doesNotExist();
    Path mine = library.claimSeries("mangadex", "t1", "Starfall").orElseThrow();
    assertThat(mine).isNotEqualTo(other);
    descriptions.claimed(mine, "mangadex", "t1");
    assertThat(SourceSeriesMetadata.read(mine).summary()).isEqualTo("Stars fall.");
  }
}
