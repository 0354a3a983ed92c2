package io.mangacircus.reader.library.collection;

import java.time.Instant;
import java.util.Objects;

/**
 * Something in a collection that is not served, with the reason shown to the admin.
 *
 * @param path where it lies, relative to the collection's root, '/'-separated
 * @param cause what kind of problem it is
 * @param reason the reason in words
 * @param size its size when the scan saw it (a link's own size, not its target's)
 * @param modified its last-modified time when the scan saw it, so an unchanged broken archive is not read again
 */
public record UnreadableItem(String path, Cause cause, String reason, long size, Instant modified) {

  public UnreadableItem {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(cause, "cause");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(modified, "modified");
  }

  /** What kind of problem keeps an item from being served. */
  public enum Cause {
    /** An archive that {@code ArchiveIndex} refuses: truncated, a zip bomb, an unsafe entry and so on. */
    BROKEN_ARCHIVE,
    /** A CBR while bsdtar is not installed. */
    RAR_UNSUPPORTED,
    /** A symbolic link, which is never followed. */
    SYMBOLIC_LINK,
    /** A file or folder the scan could not read (permissions, I/O error). */
    IO_ERROR
  }
}
