package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Links between the docs land: every relative link in docs/ and the README names a file that exists and, with a
 * {@code #fragment}, a heading of that file; so do the {@code docs/<page>.md#fragment} pointers in docs/, the README
 * and the bench scripts. Anchors are made from headings the way GitHub makes them.
 */
class DocsLinksTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern DOCS_POINTER = Pattern.compile("docs/([a-z0-9/-]+\\.md)#([A-Za-z0-9_-]+)");

  @Test
  void everyRelativeLinkInTheDocsLandsOnAFileAndHeading() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path page : markdownPages()) {
      Matcher link = LINK.matcher(withoutCode(Files.readString(page)));
      while (link.find()) {
        String target = link.group(1);
        if (target.matches("[a-z]+:.*") || target.startsWith("/")) {
          continue;   // a web address or a path of the running product, not a file here
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        String problem = problem(linked, hash < 0 ? null : target.substring(hash + 1));
        if (problem != null) {
          broken.add(ROOT.relativize(page) + ": (" + target + ") " + problem);
        }
      }
    }
    assertThat(broken).as("links in docs/ and README.md that land nowhere").isEmpty();
  }

  @Test
  void everyDocsPointerInTheDocsAndBenchScriptsLandsOnAHeading() throws IOException {
    List<Path> files = new ArrayList<>(markdownPages());
    try (Stream<Path> bench = Files.list(ROOT.resolve("bench"))) {
      bench.filter(Files::isRegularFile).forEach(files::add);
    }
    List<String> broken = new ArrayList<>();
    for (Path file : files) {
      Matcher pointer = DOCS_POINTER.matcher(Files.readString(file));
      while (pointer.find()) {
        String problem = problem(ROOT.resolve("docs").resolve(pointer.group(1)), pointer.group(2));
        if (problem != null) {
          broken.add(ROOT.relativize(file) + ": " + pointer.group() + " " + problem);
        }
      }
    }
    assertThat(broken).as("docs/<page>.md#fragment pointers that land nowhere").isEmpty();
  }

  @Test
  void anchorsAreMadeFromHeadingsAsGitHubMakesThem() {
    Set<String> anchors = anchors("""
        # Benchmarks
        ## Scale (bench/scale.sh, issue 18)
        ### What the process does now ([operations.md](operations.md#memory))
        ### The reader's start: `bin/mangacircus` ≤ 2 s, 04:10–04:37 UTC
        ```sh
        # a shell comment, not a heading
        ```
        ### Results
        ### Results
        """);

    assertThat(anchors).containsExactly("benchmarks", "scale-benchscalesh-issue-18",
        "what-the-process-does-now-operationsmd", "the-readers-start-binmangacircus--2-s-04100437-utc",
        "results", "results-1");
  }

  @Test
  void aLinkToAMissingHeadingOrFileIsReported(@org.junit.jupiter.api.io.TempDir Path folder) throws IOException {
    Path page = Files.writeString(folder.resolve("page.md"), "# Page\n## Peak memory during scans\n");

    assertThat(problem(page, "peak-memory-during-scans")).isNull();
    assertThat(problem(page, "twelfth-session-the-start-script")).contains("no heading");
    assertThat(problem(folder.resolve("gone.md"), null)).contains("no such file");
  }

  /** Why a link to {@code file} and {@code anchor} (null: none) lands nowhere, or null when it lands. */
  private static String problem(Path file, String anchor) {
    if (!Files.exists(file)) {
      return "no such file";
    }
    if (anchor == null || anchor.isEmpty() || !file.toString().endsWith(".md")) {
      return null;
    }
    try {
      return anchors(Files.readString(file)).contains(anchor) ? null : "no heading with anchor #" + anchor;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The anchors of a markdown page's headings: lower case, punctuation dropped, spaces as '-', repeats numbered. */
  static Set<String> anchors(String markdown) {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    for (String line : markdown.split("\n")) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced && line.matches("#{1,6} .*")) {
        String text = line.replaceFirst("^#+ ", "").strip().replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1");
        String anchor = text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
        int repeat = seen.merge(anchor, 1, Integer::sum) - 1;
        anchors.add(repeat == 0 ? anchor : anchor + "-" + repeat);
      }
    }
    return anchors;
  }

  /** The page without fenced blocks and inline code, where a link is text shown, not a link. */
  private static String withoutCode(String markdown) {
    StringBuilder kept = new StringBuilder();
    boolean fenced = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced) {
        kept.append(line.replaceAll("`[^`]*`", "``")).append('\n');
      }
    }
    return kept.toString();
  }

  private static List<Path> markdownPages() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }
}
