package io.mangacircus.contracts;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A state file exists but cannot be understood; it is left untouched for the operator. */
public final class CorruptStateFileException extends RuntimeException {

  private final Path file;
  private final String problem;

  public CorruptStateFileException(Path file, String problem) {
    super(file + " cannot be used: " + tidy(problem) + " (left untouched; see docs/operations.md)");
    this.file = file;
    this.problem = tidy(problem);
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

  /** What is wrong with it, as a phrase (for example {@code is not valid JSON (line 1): ...}). */
  public String problem() {
    return problem;
  }

  /** The supervision reason of a service this file stops: {@code corrupt state file <path>: <problem>}. */
  public String blockedReason() {
    return "corrupt state file " + file + ": " + problem;
  }

  /** The first {@code CorruptStateFileException} in {@code error}'s causes (suppressed ones included), if any. */
  public static Optional<CorruptStateFileException> in(Throwable error) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    ArrayDeque<Throwable> todo = new ArrayDeque<>();
    if (error != null) {
      todo.add(error);
    }
    while (!todo.isEmpty()) {
      Throwable t = todo.poll();
      if (!seen.add(t)) {
        continue;
      }
      if (t instanceof CorruptStateFileException corrupt) {
        return Optional.of(corrupt);
      }
      if (t.getCause() != null) {
        todo.add(t.getCause());
      }
      todo.addAll(List.of(t.getSuppressed()));
    }
    return Optional.empty();
  }
}
