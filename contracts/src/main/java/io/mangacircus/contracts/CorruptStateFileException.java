package io.mangacircus.contracts;

import java.nio.file.Path;

/** A state file exists but cannot be understood; it is left untouched for the operator. */
public final class CorruptStateFileException extends RuntimeException {

  private final Path file;

  public CorruptStateFileException(Path file, String problem) {
    super(file + " cannot be used: " + problem + " (left untouched; see docs/operations.md)");
    this.file = file;
  }

  /** The file at fault. */
  public Path file() {
    return file;
  }
}
