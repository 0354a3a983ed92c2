package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Code and docs point at the repository's own docs/architecture.md, never at design notes outside the repository. */
class DocsReferencesTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void theArchitecturePageExistsAndTheReadmeLinksIt() throws IOException {
    assertThat(ROOT.resolve("docs/architecture.md")).isRegularFile();
    assertThat(Files.readString(ROOT.resolve("README.md"))).contains("(docs/architecture.md)");
  }

  @Test
  void noSourceFileOrDocPointsOutsideTheRepositoryForItsDesign() throws IOException {
    List<String> offenders;
    try (Stream<Path> files = Files.walk(ROOT)) {
      offenders = files.filter(Files::isRegularFile)
          .filter(p -> !ROOT.relativize(p).toString().matches("(data|\\.git|.*target)(/.*)?"))
          .filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".md"))
          .filter(p -> read(p).contains("ARCHI" + "TECTURE")).map(p -> ROOT.relativize(p).toString()).toList();
    }
    assertThat(offenders).as("files that cite the design notes outside the repository instead of docs/architecture.md").isEmpty();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
