package io.mangacircus.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The size rule for main code: no Java file under any module's {@code src/main/java} may pass {@link #MAX_LINES}
 * lines, since a class that long holds more than one job. Lines are counted as {@code wc -l} does, plus a last line
 * without a newline.
 */
final class MainClassLength {

  /** The most lines a main class may have. */
  static final int MAX_LINES = 400;

  private MainClassLength() {
  }

  /** A main source file over the limit. */
  record Offender(Path file, long lines) {

    @Override
    public String toString() {
      return file + " has " + lines + " lines";
    }
  }

  /**
   * Every {@code *.java} file under {@code <module>/src/main/java} of each folder directly below {@code root} that has
   * more than {@code max} lines, longest first, with its path relative to {@code root}.
   */
  static List<Offender> offenders(Path root, int max) {
    List<Offender> offenders = new ArrayList<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path module : modules.filter(Files::isDirectory).sorted().toList()) {
        Path main = module.resolve("src/main/java");
        if (!Files.isDirectory(main)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(main)) {
          for (Path file : files.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p)).toList()) {
            long lines = lines(file);
            if (lines > max) {
              offenders.add(new Offender(root.relativize(file), lines));
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    offenders.sort(Comparator.comparingLong(Offender::lines).reversed().thenComparing(o -> o.file().toString()));
    return offenders;
  }

  /** Newline characters, plus one for a last line that does not end with one. */
  static long lines(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    long lines = 0;
    for (byte b : bytes) {
      if (b == '\n') {
        lines++;
      }
    }
    return bytes.length > 0 && bytes[bytes.length - 1] != '\n' ? lines + 1 : lines;
  }
}
