package io.mangacircus.reader.library.archive;

import io.mangacircus.reader.library.archive.ArchiveIndex.Readable;
import io.mangacircus.reader.library.archive.ArchiveIndex.Refusal;
import io.mangacircus.reader.library.archive.ArchiveIndex.Result;
import io.mangacircus.reader.library.archive.ArchiveIndex.Unreadable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * Reads a ZIP file's end of central directory record (ZIP64 too) and its central directory, read-only, every read
 * bounded by the file's size, and turns them into an {@link ArchiveIndex} or a refusal ({@link EntryRules}). Offsets
 * below are those of PKWARE's APPNOTE.TXT (sections 4.3.7, 4.3.12, 4.3.14 to 4.3.16, 4.5.3); all fields little-endian.
 */
final class CentralDirectoryReader {

  // End of central directory record (4.3.16), 22 bytes plus a comment of at most 65,535 bytes:
  // 0 signature, 4 this disk (2), 6 disk of the central directory (2), 8 entries on this disk (2),
  // 10 entries in all (2), 12 central directory size (4), 16 central directory offset (4), 20 comment length (2).
  private static final int EOCD_SIGNATURE = 0x06054b50;
  private static final int EOCD_SIZE = 22;
  private static final int EOCD_SEARCH = EOCD_SIZE + 0xFFFF;
  // ZIP64 end of central directory locator (4.3.15), 20 bytes right before the end record:
  // 0 signature, 4 disk of the ZIP64 record (4), 8 offset of the ZIP64 record (8), 16 number of disks (4).
  private static final int ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
  private static final int ZIP64_LOCATOR_SIZE = 20;
  // ZIP64 end of central directory record (4.3.14): 0 signature, 4 size of the rest (8), 12 made by (2),
  // 14 needed (2), 16 this disk (4), 20 disk of the central directory (4), 24 entries on this disk (8),
  // 32 entries in all (8), 40 central directory size (8), 48 central directory offset (8).
  private static final int ZIP64_EOCD_SIGNATURE = 0x06064b50;
  private static final int ZIP64_EOCD_SIZE = 56;
  // Central directory file header (4.3.12), 46 bytes then name, extra field and comment:
  // 0 signature, 4 made by (2), 6 needed (2), 8 flags (2), 10 method (2), 12 time (2), 14 date (2), 16 CRC-32 (4),
  // 20 compressed size (4), 24 uncompressed size (4), 28 name length (2), 30 extra length (2), 32 comment length (2),
  // 34 disk of the entry (2), 36 internal attributes (2), 38 external attributes (4), 42 local header offset (4).
  private static final int CENTRAL_SIGNATURE = 0x02014b50;
  private static final int CENTRAL_SIZE = 46;
  // The local file header (4.3.7) is 30 bytes before the name; used here for bounds and "does it start like a ZIP".
  static final int LOCAL_SIGNATURE = 0x04034b50;
  static final int LOCAL_SIZE = 30;
  // ZIP64 extended information extra field (4.5.3), tag 0x0001: the 8-byte uncompressed size, compressed size and
  // local header offset, in that order, each present only when its 32-bit central field is 0xFFFFFFFF.
  private static final int ZIP64_EXTRA_TAG = 0x0001;
  private static final long SATURATED_32 = 0xFFFFFFFFL;
  private static final int SATURATED_16 = 0xFFFF;
  // General purpose flag bit 11: the name is UTF-8; otherwise it is IBM code page 437 (APPNOTE appendix D).
  private static final int FLAG_UTF8 = 1 << 11;
  private static final Charset CP437 = Charset.isSupported("IBM437") ? Charset.forName("IBM437")
      : StandardCharsets.ISO_8859_1;

  private CentralDirectoryReader() {
  }

  static Result read(Path file) {
    return read(file, EntryRules::isPage);
  }

  /**
   * Like {@link #read(Path)}, but the index keeps the entries {@code keep} accepts instead of the pages; every entry
   * still passes every rule, so an archive refused for its pages is refused here too.
   */
  static Result read(Path file, Predicate<String> keep) {
    // A link is never followed, not even one swapped in after a scan looked: it could lead out of the library.
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      return read(channel, keep);
    } catch (IOException e) {
      return new Unreadable(Refusal.IO_ERROR, "cannot read " + file.getFileName() + ": " + e.getMessage());
    }
  }

  private static Result read(FileChannel channel, Predicate<String> keep) throws IOException {
    long size = channel.size();
    int tailLength = (int) Math.min(size, EOCD_SEARCH);
    ByteBuffer tail = readFully(channel, size - tailLength, tailLength);
    int at = findEndRecord(tail);
    if (at < 0) {
      return startsLikeZip(channel, size)
          ? new Unreadable(Refusal.TRUNCATED, "no end of central directory record: the file is cut short")
          : new Unreadable(Refusal.NOT_A_ZIP, "not a ZIP archive (no end of central directory record)");
    }
    long endRecord = size - tailLength + at;
    if (u16(tail, at + 4) != 0 || u16(tail, at + 6) != 0) {
      return new Unreadable(Refusal.UNSUPPORTED, "split (multi-disk) archives are not served");
    }
    long entries = u16(tail, at + 10);
    long cdSize = u32(tail, at + 12);
    long cdOffset = u32(tail, at + 16);
    long cdLimit = endRecord;
    if (entries == SATURATED_16 || cdSize == SATURATED_32 || cdOffset == SATURATED_32) {
      long zip64 = findZip64Record(channel, endRecord);
      if (zip64 < 0) {
        return new Unreadable(Refusal.TRUNCATED, "ZIP64 archive without a readable ZIP64 end record");
      }
      ByteBuffer record = readFully(channel, zip64, ZIP64_EOCD_SIZE);
      entries = record.getLong(32);
      cdSize = record.getLong(40);
      cdOffset = record.getLong(48);
      cdLimit = zip64;
    }
    if (entries < 0 || entries > EntryRules.MAX_ENTRIES) {
      return new Unreadable(Refusal.TOO_MANY_ENTRIES, "declares " + Long.toUnsignedString(entries)
          + " entries; at most " + EntryRules.MAX_ENTRIES + " are served");
    }
    if (cdSize < 0 || cdOffset < 0 || cdOffset > cdLimit || cdSize > cdLimit - cdOffset) {
      return new Unreadable(Refusal.TRUNCATED, "central directory (" + cdSize + " bytes at " + cdOffset
          + ") runs past the end of the file");
    }
    if (cdSize > EntryRules.MAX_CENTRAL_DIRECTORY_BYTES) {
      return new Unreadable(Refusal.TOO_MANY_ENTRIES, "central directory of " + cdSize + " bytes; at most "
          + EntryRules.MAX_CENTRAL_DIRECTORY_BYTES + " are read");
    }
    return readEntries(readFully(channel, cdOffset, (int) cdSize), (int) entries, size, cdOffset, keep);
  }

  private static Result readEntries(ByteBuffer cd, int entries, long fileSize, long cdOffset,
      Predicate<String> keep) {
    EntryRules rules = new EntryRules();
    List<ArchiveEntry> pages = new ArrayList<>();
    int pos = 0;
    for (int n = 0; n < entries; n++) {
      if (cd.limit() - pos < CENTRAL_SIZE || cd.getInt(pos) != CENTRAL_SIGNATURE) {
        return new Unreadable(Refusal.TRUNCATED, "central directory ends or breaks at entry " + (n + 1) + " of "
            + entries);
      }
      int flags = u16(cd, pos + 8);
      int method = u16(cd, pos + 10);
      long crc = u32(cd, pos + 16);
      long compressed = u32(cd, pos + 20);
      long uncompressed = u32(cd, pos + 24);
      int nameLength = u16(cd, pos + 28);
      int extraLength = u16(cd, pos + 30);
      int commentLength = u16(cd, pos + 32);
      long external = u32(cd, pos + 38);
      long localOffset = u32(cd, pos + 42);
      int next = pos + CENTRAL_SIZE + nameLength + extraLength + commentLength;
      if (next > cd.limit()) {
        return new Unreadable(Refusal.TRUNCATED, "central directory entry " + (n + 1) + " runs past its end");
      }
      byte[] nameBytes = new byte[nameLength];
      cd.get(pos + CENTRAL_SIZE, nameBytes);
      String name = new String(nameBytes, (flags & FLAG_UTF8) != 0 ? StandardCharsets.UTF_8 : CP437);
      int extra = pos + CENTRAL_SIZE + nameLength;
      int extraEnd = extra + extraLength;
      while (extraEnd - extra >= 4) {
        int tag = u16(cd, extra);
        int length = u16(cd, extra + 2);
        int field = extra + 4;
        if (field + length > extraEnd) {
          break;
        }
        if (tag == ZIP64_EXTRA_TAG) {
          int end = field + length;
          if (uncompressed == SATURATED_32 && field + 8 <= end) {
            uncompressed = cd.getLong(field);
            field += 8;
          }
          if (compressed == SATURATED_32 && field + 8 <= end) {
            compressed = cd.getLong(field);
            field += 8;
          }
          if (localOffset == SATURATED_32 && field + 8 <= end) {
            localOffset = cd.getLong(field);
          }
        }
        extra += 4 + length;
      }
      pos = next;
      // A negative size is an unsigned 64-bit value beyond any file: as much a bomb as a huge one.
      if (uncompressed < 0 || compressed < 0) {
        return new Unreadable(Refusal.ZIP_BOMB, "entry '" + name + "' declares a size beyond 2^63 bytes");
      }
      Unreadable broken = rules.check(name, flags, external, method, compressed, uncompressed);
      if (broken != null) {
        return broken;
      }
      if (localOffset < 0 || localOffset > cdOffset || LOCAL_SIZE + nameLength + compressed > cdOffset - localOffset) {
        return new Unreadable(Refusal.TRUNCATED, "entry '" + name + "' (" + compressed + " bytes at " + localOffset
            + ") runs past the entries' end at " + cdOffset);
      }
      if (!keep.test(name)) {
        continue;
      }
      if (method != ArchiveEntry.STORED && method != ArchiveEntry.DEFLATED) {
        return new Unreadable(Refusal.UNSUPPORTED, (EntryRules.isPage(name) ? "page '" : "entry '") + name + "' uses compression method " + method
            + "; only stored (0) and deflated (8) are served");
      }
      pages.add(new ArchiveEntry(name, method, compressed, uncompressed, localOffset, crc));
    }
    pages.sort(Comparator.comparing(ArchiveEntry::name, NaturalOrder.INSTANCE));
    return new Readable(new ArchiveIndex(pages, fileSize, cdOffset));
  }

  /** The last end record whose comment ends exactly at the end of the file, or -1. */
  private static int findEndRecord(ByteBuffer tail) {
    for (int at = tail.limit() - EOCD_SIZE; at >= 0; at--) {
      if (tail.getInt(at) == EOCD_SIGNATURE && at + EOCD_SIZE + u16(tail, at + 20) == tail.limit()) {
        return at;
      }
    }
    return -1;
  }

  private static long findZip64Record(FileChannel channel, long endRecord) throws IOException {
    if (endRecord < ZIP64_LOCATOR_SIZE) {
      return -1;
    }
    long locatorAt = endRecord - ZIP64_LOCATOR_SIZE;
    ByteBuffer locator = readFully(channel, locatorAt, ZIP64_LOCATOR_SIZE);
    if (locator.getInt(0) != ZIP64_LOCATOR_SIGNATURE) {
      return -1;
    }
    long record = locator.getLong(8);
    if (record < 0 || record > locatorAt - ZIP64_EOCD_SIZE) {
      return -1;
    }
    return readFully(channel, record, 4).getInt(0) == ZIP64_EOCD_SIGNATURE ? record : -1;
  }

  private static boolean startsLikeZip(FileChannel channel, long size) throws IOException {
    return size >= 4 && readFully(channel, 0, 4).getInt(0) == LOCAL_SIGNATURE;
  }

  /** Reads {@code length} bytes at {@code offset}, which the caller has checked lie inside the file. */
  static ByteBuffer readFully(FileChannel channel, long offset, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, offset + buffer.position()) < 0) {
        throw new IOException("file ended at " + (offset + buffer.position()) + " while reading " + length
            + " bytes at " + offset);
      }
    }
    return buffer.flip();
  }

  static int u16(ByteBuffer buffer, int at) {
    return buffer.getShort(at) & 0xFFFF;
  }

  static long u32(ByteBuffer buffer, int at) {
    return buffer.getInt(at) & 0xFFFFFFFFL;
  }
}
