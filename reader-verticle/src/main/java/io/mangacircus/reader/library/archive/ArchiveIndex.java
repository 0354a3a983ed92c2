package io.mangacircus.reader.library.archive;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The pages of one ZIP/CBZ archive in natural order of their names, read from its central directory without
 * unpacking anything; a small value (records and a list) that a cache can keep. {@link #read} answers a refusal with
 * its reason instead when the archive is broken or hostile (see {@link CentralDirectoryReader} for the rules).
 *
 * @param pages the page images, in {@link NaturalOrder} of their names
 * @param fileSize the archive's size in bytes when it was read
 * @param centralDirectoryOffset where the central directory starts: no entry's data may run past it
 */
public record ArchiveIndex(List<ArchiveEntry> pages, long fileSize, long centralDirectoryOffset) {

  public ArchiveIndex {
    pages = List.copyOf(pages);
    if (centralDirectoryOffset < 0 || centralDirectoryOffset > fileSize) {
      throw new IllegalArgumentException("central directory offset " + centralDirectoryOffset + " outside a file of "
          + fileSize + " bytes");
    }
  }

  /** Reads the archive at {@code file} (read-only); never throws for a broken or hostile archive. */
  public static Result read(Path file) {
    return CentralDirectoryReader.read(Objects.requireNonNull(file, "file"));
  }

  /** What reading an archive found: its pages, or why it cannot be read. */
  public sealed interface Result permits Readable, Unreadable {
  }

  /** The archive's pages can be served. */
  public record Readable(ArchiveIndex index) implements Result {
    public Readable {
      Objects.requireNonNull(index, "index");
    }
  }

  /**
   * The archive as a whole is refused: one unsafe entry refuses it all, because a library lists books, not entries,
   * and a book with a hostile entry was not made by an honest tool.
   */
  public record Unreadable(Refusal refusal, String reason) implements Result {
    public Unreadable {
      Objects.requireNonNull(refusal, "refusal");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** Why an archive is refused. */
  public enum Refusal {
    /** No end of central directory record and no local header at the start: not a ZIP file. */
    NOT_A_ZIP,
    /** Cut short: no end record though it starts like a ZIP, a central directory or an entry past the file's end. */
    TRUNCATED,
    /** A ZIP feature the reader does not serve: split archives, or a page in a method other than stored or deflated. */
    UNSUPPORTED,
    /** An entry is encrypted (general purpose flag bit 0). */
    ENCRYPTED,
    /** An entry's name climbs out with {@code ..} or is absolute ({@code /x}, {@code C:\x}, {@code \\x}). */
    UNSAFE_NAME,
    /** An entry is a symbolic link (Unix mode S_IFLNK in its external attributes). */
    SYMLINK,
    /** An entry or the archive inflates more than 100 times its compressed size, or beyond 2 GiB in all. */
    ZIP_BOMB,
    /** More entries, or a bigger central directory, than any book needs. */
    TOO_MANY_ENTRIES,
    /** The file could not be read at all (permissions, I/O error). */
    IO_ERROR
  }
}
