package io.mangacircus.scraper.source.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.ChapterInfo;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceSetup;
import io.mangacircus.scraper.source.SourceType;
import io.mangacircus.scraper.source.TitleHit;
import io.mangacircus.scraper.source.TitleInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A {@code local} source as configured: its chapters in the folder's one language, {@code en} unless it says. */
class LocalTypeTest {

  private static final String KEY = "scraper.sources.shelf";

  @TempDir
  Path imports;

  @BeforeEach
  void aTitleWithTwoChapters() throws Exception {
    for (String chapter : List.of("Chapter 1", "Chapter 2")) {
      Files.write(Files.createDirectories(imports.resolve("Moon Circus").resolve(chapter)).resolve("1.png"),
          new byte[] {(byte) 0x89, 'P', 'N', 'G'});
    }
  }

  private Source source(Map<String, Object> options) {
    return create(new LocalType(), new SourceConfig("local", "", 0L, 0L, List.of(), options));
  }

  private <O> Source create(SourceType<O> type, SourceConfig config) {
    O options = type.options(KEY, config, Path.of("."));
    return type.create(new SourceSetup("shelf", config, null, null, InstantSource.system(), 1_000, 1_000, null),
        options);
  }

  private Map<String, Object> options(String language) {
    Map<String, Object> options = new LinkedHashMap<>();
    options.put("folder", imports.toString());
    if (language != null) {
      options.put("language", language);
    }
    return options;
  }

  private static <T> T value(io.vertx.core.Future<FetchOutcome<T>> future) throws Exception {
    FetchOutcome<T> outcome = future.toCompletionStage().toCompletableFuture().get();
    assertThat(outcome.ok()).as(outcome.describe()).isTrue();
    return outcome.value();
  }

  @Test
  void aFolderConfiguredInALanguageGivesEveryChapterAndSearchResultThatLanguage() throws Exception {
    Source brazilian = source(options("pt-BR"));

    TitleInfo title = value(brazilian.title("Moon Circus"));
    List<TitleHit> hits = value(brazilian.search("moon", 10));

    assertThat(title.chapters()).extracting(ChapterInfo::language).containsExactly("pt-br", "pt-br");
    assertThat(title.languages()).as("a job in another language is told which one there is").containsExactly("pt-br");
    assertThat(hits).singleElement().satisfies(hit -> assertThat(hit.languages()).containsExactly("pt-br"));
  }

  @Test
  void aFolderWithoutALanguageIsEnglish() throws Exception {
    assertThat(value(source(options(null)).title("Moon Circus")).chapters()).extracting(ChapterInfo::language)
        .containsExactly("en", "en");
  }

  @Test
  void aLanguageThatIsNotACodeIsRefusedAtStartNamingTheFullKey() {
    assertThatThrownBy(() -> source(options("French")))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage("invalid configuration: " + KEY + ".options.language: must be an ISO 639-1 code or a BCP 47 tag "
            + "such as en, fr or pt-br, got 'French'");
    Map<String, Object> number = options(null);
    number.put("language", 7);
    assertThatThrownBy(() -> source(number)).isInstanceOf(InvalidConfigException.class)
        .hasMessageEndingWith("got 7");
  }
}
