package io.mangacircus.reader.library.archive;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Serves one page of an indexed archive from the archive itself: where a stored page's bytes lie, or a stream that
 * inflates a deflated page. Nothing is written anywhere. The archive may have changed since it was indexed, so a
 * local header that does not match, or data past the entries' end, fails with an {@link IOException} here.
 */
public final class ArchivePages {

  private ArchivePages() {
  }

  /**
   * Where the entry's data lies, from its local file header (APPNOTE 4.3.7: 0 signature, 26 name length (2),
   * 28 extra length (2), data at 30 + name + extra). The local lengths are read rather than the central ones because
   * they may differ (tools add alignment padding or a different extra field in the local header).
   */
  public static PageRange locate(FileChannel archive, ArchiveIndex index, ArchiveEntry entry) throws IOException {
    return locate(archive, entry, index.fileSize(), index.centralDirectoryOffset());
  }

  private static PageRange locate(FileChannel archive, ArchiveEntry entry, long fileSize, long end)
      throws IOException {
    long header = entry.localHeaderOffset();
    if (archive.size() != fileSize) {
      throw new IOException("archive is " + archive.size() + " bytes, not the " + fileSize + " it was indexed at");
    }
    if (header > end - CentralDirectoryReader.LOCAL_SIZE) {
      throw new IOException("local header of '" + entry.name() + "' at " + header + " lies past the entries' end");
    }
    ByteBuffer local = CentralDirectoryReader.readFully(archive, header, CentralDirectoryReader.LOCAL_SIZE);
    if (local.getInt(0) != CentralDirectoryReader.LOCAL_SIGNATURE) {
      throw new IOException("no local header for '" + entry.name() + "' at " + header);
    }
    long data = header + CentralDirectoryReader.LOCAL_SIZE + CentralDirectoryReader.u16(local, 26)
        + CentralDirectoryReader.u16(local, 28);
    if (data > end || entry.compressedSize() > end - data) {
      throw new IOException("data of '" + entry.name() + "' (" + entry.compressedSize() + " bytes at " + data
          + ") runs past the entries' end at " + end);
    }
    return new PageRange(data, entry.compressedSize());
  }

  /**
   * The page's image bytes: for a stored page, read from its range; for a deflated one, inflated on the fly. Either
   * way the stream yields at most the declared uncompressed size, fails with an {@link IOException} when the data
   * holds more or less than declared, and checks the CRC-32 at the end. The caller closes {@code archive} after the
   * stream.
   */
  public static InputStream open(FileChannel archive, ArchiveIndex index, ArchiveEntry entry) throws IOException {
    return new EntryStream(archive, locate(archive, index, entry), entry);
  }

  /**
   * Where the part's data lies: from its local header (the same checks as the index's {@code locate}), or the range
   * located before when the archive still has the size it had then.
   */
  public static PageRange locate(FileChannel archive, ArchivePart part) throws IOException {
    if (part.range() != null) {
      if (archive.size() != part.archiveSize()) {
        throw new IOException("archive is " + archive.size() + " bytes, not the " + part.archiveSize()
            + " it was indexed at");
      }
      return part.range();
    }
    return locate(archive, part.entry(), part.archiveSize(), part.entriesEnd());
  }

  /** The part's image bytes: the same stream and checks as the index's {@code open}. */
  public static InputStream open(FileChannel archive, ArchivePart part) throws IOException {
    return new EntryStream(archive, locate(archive, part), part.entry());
  }
}
