package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every class docs/architecture.md names in backticks exists as a source file of some module, so the page cannot go on
 * describing a class that was renamed, split or removed.
 */
class DocsClassNamesTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** An inline code span: one pair of backticks on one line. */
  private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");

  /**
   * A span that names a Java class: an optional package path of lower-case segments (`queue/`, `contracts.scraper.`),
   * a capitalised name with at least one lower-case letter (so `TIMEOUT` is a constant, not a class), then either
   * `.java` or any number of members (`.serve()`, `.INBOUND`, `.adminOnly(route)`, a nested `.Page`).
   */
  private static final Pattern CLASS_NAME = Pattern.compile(
      "(?:(?<path>[a-z][a-z0-9_]*(?:[./][a-z][a-z0-9_]*)*)[./])?"
          + "(?<name>[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)"
          + "(?:\\.java|(?:\\.[A-Za-z_][A-Za-z0-9_]*(?:\\([^)]*\\))?)*)");

  /** A file name such as `ComicInfo.xml`, which looks like a class with a member. */
  private static final Pattern OTHER_FILE = Pattern.compile(
      ".*\\.(?:xml|json|jar|jsa|md|log|db|html|js|css|txt|properties|ya?ml|cbz|jpg|png|gif|webp|avif)");

  @Test
  void everyClassArchitectureMdNamesHasASourceFile() throws IOException {
    String page = Files.readString(ROOT.resolve("docs/architecture.md"));

    assertThat(namedClasses(page)).as("the page names classes at all").hasSizeGreaterThan(50);
    assertThat(missingClasses(page, javaSources()))
        .as("classes docs/architecture.md names in backticks that no module's src/main/java or src/test/java holds")
        .isEmpty();
  }

  @Test
  void aClassNoModuleHoldsIsReported() {
    List<String> sources = List.of("io/mangacircus/scraper/queue/JobQueue.java",
        "io/mangacircus/reader/ReaderVerticle.java", "io/mangacircus/contracts/library/ChapterManifest.java");
    String page = """
        The queue (`queue/JobQueue`) and `NoSuchPlanner` decide; `ReaderVerticle.serve()` mounts routes from
        `ChapterManifest.Page` and `JobQueue.java`; `lane/JobQueue` is in the wrong package; `QueueSnapshot.java` is
        gone; `queue.json`, `TIMEOUT`, `mc.<owner>.<noun>.<verb>`, `*Routes` and `GET /api/series` name no class.
        ```text
        `FencedAway` in a code block is a diagram, not a name
        ```
        """;

    assertThat(missingClasses(page, sources)).containsExactly("NoSuchPlanner", "lane/JobQueue", "QueueSnapshot");
  }

  @Test
  void spansThatAreNotClassNamesAreNotChecked() {
    assertThat(namedClasses("`queue.json` `TIMEOUT` `INTERNAL_ERROR` `contracts.scraper` `mc.scraper.ping` `*IT` "
        + "`router.route(\"/api/series*\").subRouter(series.router())` `{error, message}` `v` "
        + "`\"validation\": \"decode\"` `ComicInfo.xml`"))
        .isEmpty();
    assertThat(namedClasses("`contracts.scraper.JobView` `support/supervision/Backoff` `AccessGuard.adminOnly(...)`"))
        .containsExactly("contracts/scraper/JobView", "support/supervision/Backoff", "AccessGuard");
  }

  /** The classes a markdown text names in backticks, outside fenced code blocks, as `path/Name` or `Name`. */
  static List<String> namedClasses(String markdown) {
    List<String> names = new ArrayList<>();
    Matcher span = CODE_SPAN.matcher(withoutFencedBlocks(markdown));
    while (span.find()) {
      Matcher name = CLASS_NAME.matcher(span.group(1).strip());
      if (name.matches() && !OTHER_FILE.matcher(span.group(1).strip()).matches()) {
        String path = name.group("path");
        names.add(path == null ? name.group("name") : path.replace('.', '/') + "/" + name.group("name"));
      }
    }
    return names;
  }

  /** The named classes that no source file holds; {@code sources} are paths below a {@code src/.../java} folder. */
  static List<String> missingClasses(String markdown, Collection<String> sources) {
    return namedClasses(markdown).stream().distinct()
        .filter(name -> sources.stream()
            .noneMatch(file -> file.equals(name + ".java") || file.endsWith("/" + name + ".java")))
        .toList();
  }

  private static String withoutFencedBlocks(String markdown) {
    StringBuilder kept = new StringBuilder();
    boolean fenced = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced) {
        kept.append(line).append('\n');
      }
    }
    return kept.toString();
  }

  /** Every Java source file of every module, as its path below {@code src/main/java} or {@code src/test/java}. */
  private static List<String> javaSources() throws IOException {
    Pattern sourceRoot = Pattern.compile("(?:^|.*/)src/(?:main|test)/java/(.+\\.java)");
    try (Stream<Path> files = Files.walk(ROOT)) {
      return files.filter(Files::isRegularFile)
          .map(p -> ROOT.relativize(p).toString().replace('\\', '/'))
          .filter(p -> !p.matches("(data|\\.git|.*target)(/.*)?"))
          .map(sourceRoot::matcher).filter(Matcher::matches).map(m -> m.group(1)).toList();
    }
  }
}
