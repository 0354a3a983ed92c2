package io.mangacircus.scraper.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.contracts.PreviewRequest;
import io.mangacircus.contracts.scraper.PreviewReply;
import io.mangacircus.scraper.ScraperConfig.SourceConfig;
import io.mangacircus.scraper.source.Source;
import io.mangacircus.scraper.source.SourceSetup;
import io.mangacircus.scraper.source.SourceType;
import io.mangacircus.scraper.source.local.LocalType;
import io.mangacircus.testing.MutableClock;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The languages a title's preview offers (the Add titles page's language choice) are those of its chapters as the
 * source gives them, not English for every source.
 */
@ExtendWith(VertxExtension.class)
class PreviewLanguagesTest {

  @TempDir
  Path imports;

  private static <O> Source create(SourceType<O> type, SourceConfig config) {
    O options = type.options("scraper.sources.french", config, Path.of("."));
    return type.create(new SourceSetup("french", config, null, null, java.time.InstantSource.system(), 1_000, 1_000,
        null), options);
  }

  @Test
  void aPreviewOfAFrenchImportFolderOffersFrenchOnly(Vertx vertx) throws Exception {
    Files.write(Files.createDirectories(imports.resolve("Lune").resolve("Chapitre 1")).resolve("1.png"),
        new byte[] {(byte) 0x89, 'P', 'N', 'G'});
    Source french = create(new LocalType(), new SourceConfig("local", "", 0L, 0L, List.of(),
        Map.of("folder", imports.toString(), "language", "fr")));
    TitleSearch search = new TitleSearch(vertx, new TitleSearch.Parts(Map.of("french", "local"), name -> french,
        name -> "closed", name -> Duration.ZERO), new MutableClock());

    PreviewReply preview = search.preview(new PreviewRequest("french", "Lune")).toCompletionStage()
        .toCompletableFuture().get(20, TimeUnit.SECONDS);

    assertThat(preview.languages()).containsExactly("fr");
    assertThat(preview.chapters()).singleElement().satisfies(c -> assertThat(c.language()).isEqualTo("fr"));
  }
}
