package io.mangacircus.reader.library;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The byte layout of a stored (uncompressed) ZIP of a chapter, computed before a byte is sent: local headers, the
 * page files' bytes as they are on disk, the central directory and its end record. Stored entries make every offset
 * and the total length known in advance, so the archive is streamed without a temporary file, with an exact
 * {@code Content-Length}, and any byte range of it can be served. Plain ZIP (no ZIP64): at most 65535 entries and
 * 4 GiB, UTF-8 names. No I/O here: the caller supplies each entry's size and CRC-32.
 */
public final class CbzArchive {

  private static final int LOCAL_HEADER = 30;
  private static final int CENTRAL_HEADER = 46;
  private static final int END_RECORD = 22;
  private static final long ZIP32_LIMIT = 0xFFFF_FFFFL;
  /** General purpose flag bit 11: names are UTF-8. */
  private static final int UTF8_NAMES = 1 << 11;

  /**
   * One entry: its bytes are either a file's (read when streamed) or held here.
   *
   * @param file the file whose bytes are the entry, or null
   * @param bytes the entry's bytes when there is no file, else null
   */
  public record Entry(String name, Path file, byte[] bytes, long size, int crc32) {
    public Entry {
      if ((file == null) == (bytes == null)) {
        throw new IllegalArgumentException("an entry is a file or bytes: " + name);
      }
      if (bytes != null && bytes.length != size) {
        throw new IllegalArgumentException("size of " + name + " is " + bytes.length + ", not " + size);
      }
    }
  }

  /**
   * A run of the archive's bytes: held here ({@code bytes}) or a region of a file ({@code file} from
   * {@code fileOffset}).
   *
   * @param start where the run starts in the archive
   */
  public record Segment(long start, long length, byte[] bytes, Path file, long fileOffset) {
  }

  private final List<Segment> segments;
  private final long length;
  private final byte[] centralDirectory;

  private CbzArchive(List<Segment> segments, long length, byte[] centralDirectory) {
    this.segments = List.copyOf(segments);
    this.length = length;
    this.centralDirectory = centralDirectory;
  }

  /**
   * The layout of a ZIP holding {@code entries} in this order, every entry stamped {@code modified} (UTC).
   *
   * @throws IllegalArgumentException when the archive would need ZIP64 (too many entries or bytes)
   */
  public static CbzArchive of(List<Entry> entries, Instant modified) {
    if (entries.size() > 0xFFFF) {
      throw new IllegalArgumentException(entries.size() + " entries: a plain ZIP holds at most 65535");
    }
    int[] dos = dosTime(modified);
    List<Segment> segments = new ArrayList<>();
    ByteArrayOutputStream central = new ByteArrayOutputStream();
    long offset = 0;
    for (Entry entry : entries) {
      byte[] name = entry.name().getBytes(StandardCharsets.UTF_8);
      if (name.length > 0xFFFF) {
        throw new IllegalArgumentException("entry name too long: " + entry.name());
      }
      if (offset > ZIP32_LIMIT || entry.size() > ZIP32_LIMIT) {
        throw new IllegalArgumentException("the archive would pass 4 GiB at " + entry.name());
      }
      ByteBuffer local = little(LOCAL_HEADER + name.length);
      local.putInt(0x04034b50).putShort((short) 10).putShort((short) UTF8_NAMES).putShort((short) 0)
          .putShort((short) dos[0]).putShort((short) dos[1]).putInt(entry.crc32()).putInt((int) entry.size())
          .putInt((int) entry.size()).putShort((short) name.length).putShort((short) 0).put(name);
      segments.add(new Segment(offset, local.capacity(), local.array(), null, 0));
      ByteBuffer header = little(CENTRAL_HEADER + name.length);
      header.putInt(0x02014b50).putShort((short) 20).putShort((short) 10).putShort((short) UTF8_NAMES)
          .putShort((short) 0).putShort((short) dos[0]).putShort((short) dos[1]).putInt(entry.crc32())
          .putInt((int) entry.size()).putInt((int) entry.size()).putShort((short) name.length).putShort((short) 0)
          .putShort((short) 0).putShort((short) 0).putShort((short) 0).putInt(0).putInt((int) offset).put(name);
      central.writeBytes(header.array());
      offset += local.capacity();
      if (entry.size() > 0) {
        segments.add(entry.file() != null ? new Segment(offset, entry.size(), null, entry.file(), 0)
            : new Segment(offset, entry.size(), entry.bytes(), null, 0));
      }
      offset += entry.size();
    }
    if (offset > ZIP32_LIMIT) {
      throw new IllegalArgumentException("the archive would pass 4 GiB");
    }
    byte[] directory = central.toByteArray();
    ByteBuffer end = little(END_RECORD);
    end.putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) entries.size())
        .putShort((short) entries.size()).putInt(directory.length).putInt((int) offset).putShort((short) 0);
    byte[] tail = new byte[directory.length + END_RECORD];
    System.arraycopy(directory, 0, tail, 0, directory.length);
    System.arraycopy(end.array(), 0, tail, directory.length, END_RECORD);
    segments.add(new Segment(offset, tail.length, tail, null, 0));
    return new CbzArchive(segments, offset + tail.length, directory);
  }

  /**
   * An archive that exists already as a file (a collection's CBZ), sent as it is: one run of the file's bytes.
   *
   * @param centralDirectory the file's central directory as indexed (its fingerprint)
   */
  public static CbzArchive whole(Path file, long size, byte[] centralDirectory) {
    return new CbzArchive(List.of(new Segment(0, size, null, file, 0)), size, centralDirectory.clone());
  }

  /** The archive's exact size in bytes. */
  public long length() {
    return length;
  }

  /** Every run of bytes, in order, covering the archive from 0 to {@link #length()}. */
  public List<Segment> segments() {
    return segments;
  }

  /** The runs that cover bytes {@code from} (inclusive) to {@code to} (exclusive), cut to that range. */
  public List<Segment> range(long from, long to) {
    if (from < 0 || to > length || from > to) {
      throw new IllegalArgumentException("range " + from + "-" + to + " of " + length);
    }
    List<Segment> cut = new ArrayList<>();
    for (Segment s : segments) {
      long start = Math.max(from, s.start());
      long end = Math.min(to, s.start() + s.length());
      if (start >= end) {
        continue;
      }
      long skip = start - s.start();
      if (s.bytes() != null) {
        byte[] part = java.util.Arrays.copyOfRange(s.bytes(), (int) skip, (int) (skip + end - start));
        cut.add(new Segment(start, end - start, part, null, 0));
      } else {
        cut.add(new Segment(start, end - start, null, s.file(), s.fileOffset() + skip));
      }
    }
    return cut;
  }

  /** The central directory's bytes: names, sizes and CRCs of every entry, so a fingerprint of the content. */
  public byte[] centralDirectory() {
    return centralDirectory.clone();
  }

  private static ByteBuffer little(int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** MS-DOS time and date (2-second steps, 1980 to 2107) of an instant in UTC. */
  static int[] dosTime(Instant instant) {
    LocalDateTime t = LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    if (t.getYear() < 1980) {
      t = LocalDateTime.of(1980, 1, 1, 0, 0);
    } else if (t.getYear() > 2107) {
      t = LocalDateTime.of(2107, 12, 31, 23, 59, 58);
    }
    int time = t.getHour() << 11 | t.getMinute() << 5 | t.getSecond() / 2;
    int date = (t.getYear() - 1980) << 9 | t.getMonthValue() << 5 | t.getDayOfMonth();
    return new int[] {time, date};
  }
}
