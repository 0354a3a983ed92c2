package io.mangacircus.reader.library.collection;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether CBR/RAR books can be read: only through libarchive's bsdtar (an open-source RAR reader), found on the
 * PATH. This only detects it; {@link RarPages} runs it.
 */
public record RarSupport(Optional<Path> bsdtar) {

  /** Why a CBR is not served when bsdtar is missing. */
  public static final String MISSING = "RAR needs bsdtar (Debian package libarchive-tools), not installed";

  public RarSupport {
    bsdtar = bsdtar == null ? Optional.empty() : bsdtar;
  }

  /** No RAR support, whatever is installed. */
  public static RarSupport none() {
    return new RarSupport(Optional.empty());
  }

  /** Looks for an executable {@code bsdtar} in the folders of the process's PATH. */
  public static RarSupport detect() {
    return onPath(System.getenv("PATH"));
  }

  /** Looks for an executable {@code bsdtar} in the folders of {@code pathVariable} (null or empty: none). */
  public static RarSupport onPath(String pathVariable) {
    if (pathVariable == null || pathVariable.isEmpty()) {
      return none();
    }
    for (String folder : pathVariable.split(File.pathSeparator)) {
      if (folder.isEmpty()) {
        continue;
      }
      try {
        Path candidate = Path.of(folder, "bsdtar");
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return new RarSupport(Optional.of(candidate));
        }
      } catch (InvalidPathException e) {
        // A PATH entry that is no path names no program; the next one may.
      }
    }
    return none();
  }

  /** The RAR reader through this bsdtar; only when {@link #available()}. */
  public RarPages pages() {
    return new RarPages(bsdtar.orElseThrow(() -> new IllegalStateException(MISSING)), RarPages.TIMEOUT);
  }

  /** Whether CBR books can be read. */
  public boolean available() {
    return bsdtar.isPresent();
  }
}
