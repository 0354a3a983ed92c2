package io.mangacircus.contracts;

import java.nio.file.Path;

/** A state file exists but cannot be understood; it is left untouched for the operator. */
public final class CorruptStateFileException extends RuntimeException {

  private final Path file;

  public CorruptStateFileException(Path file, String problem) {
    super(file + " cannot be used: " + tidy(problem) + " (left untouched; see docs/operations.md)");
    this.file = file;
  }

  /** Drops the parser's note about hidden source text, which tells an operator nothing. */
  private static String tidy(String problem) {
    String hidden = "Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); ";
    return problem == null ? "" : problem.replace(hidden, "");
  }

  /** The file at fault. */
  public Path file() {
    return file;
  }
}
