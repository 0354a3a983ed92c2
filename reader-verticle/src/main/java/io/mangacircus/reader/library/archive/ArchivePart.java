package io.mangacircus.reader.library.archive;

import java.util.Objects;

/**
 * One page of an indexed archive, as a book's page list carries it: the entry (how it is stored, its sizes and CRC-32)
 * and what the archive was when it was indexed, so that a send locates the page's data itself
 * ({@link ArchivePages#locate(java.nio.channels.FileChannel, ArchivePart)}: one read of its local header) and can tell
 * that the archive changed since.
 *
 * @param entry the page's entry in the central directory
 * @param archiveSize the archive's size in bytes when it was indexed
 * @param entriesEnd where its central directory starts: no page's data may run past it
 * @param range where its data lies when that was located already (a book opened for reading), else null
 */
public record ArchivePart(ArchiveEntry entry, long archiveSize, long entriesEnd, PageRange range) {

  public ArchivePart {
    Objects.requireNonNull(entry, "entry");
    if (entriesEnd < 0 || entriesEnd > archiveSize) {
      throw new IllegalArgumentException("entries end at " + entriesEnd + " in an archive of " + archiveSize + " bytes");
    }
  }

  /** The part of {@code entry} in the archive {@code index} describes. */
  public static ArchivePart of(ArchiveIndex index, ArchiveEntry entry) {
    return new ArchivePart(entry, index.fileSize(), index.centralDirectoryOffset(), null);
  }

  /** This part with its data's range located. */
  public ArchivePart located(PageRange where) {
    return new ArchivePart(entry, archiveSize, entriesEnd, Objects.requireNonNull(where, "where"));
  }

  /** Whether the page's bytes lie in the archive as they are (sent as a file region), not deflated. */
  public boolean stored() {
    return entry.method() == ArchiveEntry.STORED;
  }
}
