package io.mangacircus.reader.opds;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.reader.library.LibraryFiles;
import io.mangacircus.testing.LibraryFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A chapter's OPDS entry as a reading app sees it, made from a published chapter folder. */
class OpdsEntriesTest {

  @TempDir
  Path data;

  private String entryOf(String language) throws Exception {
    Path chapter = new LibraryFixture(data).chapter("lune", "Lune", 1, 2, Instant.parse("2026-01-02T03:04:05Z"));
    Path manifest = chapter.resolve("chapter.json");
    Files.writeString(manifest, Files.readString(manifest).replace("\"language\":\"en\"",
        "\"language\":\"" + language + "\""));
    LibraryFiles.Chapter read = new LibraryFiles(data.resolve("library")).chapter("lune", "chapter-0001");
    OpdsFeed feed = new OpdsFeed("urn:test", "Lune", Instant.EPOCH)
        .entry(OpdsEntries.chapter("/opds/v1.2", read, new OpdsEntries.Reading(Optional.empty(), Set.of()), false));
    return feed.xml();
  }

  @Test
  void aChaptersEntryCarriesItsLanguageAsDublinCoreTerms() throws Exception {
    String xml = entryOf("fr");

    assertThat(xml).contains("xmlns:dcterms=\"http://purl.org/dc/terms/\"")
        .contains("    <dcterms:language>fr</dcterms:language>\n");
  }

  @Test
  void anEnglishChapterSaysSoToo() throws Exception {
    assertThat(entryOf("en")).contains("<dcterms:language>en</dcterms:language>")
        .doesNotContain("<dcterms:language>fr");
  }
}
