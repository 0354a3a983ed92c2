package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No main class of any module is over {@value MainClassLength#MAX_LINES} lines (a longer class holds more than one job); the
 * rule itself is checked on made-up modules, so it can fail.
 */
class MainClassLengthTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void noMainClassOfAnyModuleIsOverFourHundredLines() {
    assertThat(ROOT.resolve("pom.xml")).isRegularFile();
    assertThat(ROOT.resolve("launcher/src/main/java")).isDirectory();

    List<MainClassLength.Offender> offenders = MainClassLength.offenders(ROOT, MainClassLength.MAX_LINES);

    assertThat(offenders).as("main classes over %d lines (split them by job)", MainClassLength.MAX_LINES)
        .isEmpty();
  }

  @Test
  void aMainClassOfFourHundredAndOneLinesBreaksTheRuleAndIsNamedWithItsLength(@TempDir Path root)
      throws IOException {
    write(root.resolve("alpha/src/main/java/io/example/Long.java"), 401);
    write(root.resolve("alpha/src/main/java/io/example/Fine.java"), 12);
    write(root.resolve("beta/src/main/java/io/example/deep/Longer.java"), 450);

    List<MainClassLength.Offender> offenders = MainClassLength.offenders(root, MainClassLength.MAX_LINES);

    assertThat(offenders).extracting(Object::toString).containsExactly(
        Path.of("beta/src/main/java/io/example/deep/Longer.java") + " has 450 lines",
        Path.of("alpha/src/main/java/io/example/Long.java") + " has 401 lines");
  }

  @Test
  void aMainClassOfExactlyFourHundredLinesAndLongTestClassesPass(@TempDir Path root) throws IOException {
    write(root.resolve("alpha/src/main/java/io/example/Limit.java"), 400);
    write(root.resolve("alpha/src/test/java/io/example/LongTest.java"), 900);
    write(root.resolve("alpha/src/main/resources/long.java.txt"), 900);

    assertThat(MainClassLength.offenders(root, MainClassLength.MAX_LINES)).isEmpty();
  }

  @Test
  void aLastLineWithoutANewlineCounts(@TempDir Path root) throws IOException {
    Path file = root.resolve("A.java");
    Files.writeString(file, "class A {\n}");

    assertThat(MainClassLength.lines(file)).isEqualTo(2);
  }

  private static void write(Path file, int lines) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "// line\n".repeat(lines));
  }
}
