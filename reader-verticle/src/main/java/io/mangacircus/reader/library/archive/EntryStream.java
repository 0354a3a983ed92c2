package io.mangacircus.reader.library.archive;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * One entry's content read from its range of the archive, inflated when deflated, never more bytes than the entry
 * declares (a lying header cannot make it inflate without bound), and checked against the declared size and CRC-32
 * when it ends. Reads the file by position, so several streams may share one channel.
 */
final class EntryStream extends InputStream {

  private static final int CHUNK = 16 * 1024;

  private final FileChannel archive;
  private final ArchiveEntry entry;
  private final Inflater inflater;
  private final CRC32 crc = new CRC32();
  private final ByteBuffer input = ByteBuffer.allocate(CHUNK);
  private long position;
  private final long end;
  private long produced;
  private boolean dummyGiven;
  private boolean finished;

  EntryStream(FileChannel archive, PageRange range, ArchiveEntry entry) {
    this.archive = archive;
    this.entry = entry;
    this.position = range.offset();
    this.end = range.offset() + range.length();
    this.inflater = entry.method() == ArchiveEntry.DEFLATED ? new Inflater(true) : null;
    input.limit(0);
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    if (finished) {
      return -1;
    }
    int n = inflater == null ? readStored(buffer, offset, length) : readDeflated(buffer, offset, length);
    if (n < 0) {
      finish();
      return -1;
    }
    produced += n;
    if (produced > entry.uncompressedSize()) {
      throw new IOException("'" + entry.name() + "' holds more than its declared " + entry.uncompressedSize()
          + " bytes");
    }
    crc.update(buffer, offset, n);
    return n;
  }

  private int readStored(byte[] buffer, int offset, int length) throws IOException {
    long left = end - position;
    if (left == 0) {
      return -1;
    }
    ByteBuffer target = ByteBuffer.wrap(buffer, offset, (int) Math.min(length, left));
    int n = archive.read(target, position);
    if (n < 0) {
      throw new IOException("'" + entry.name() + "' ends early: the archive was cut short");
    }
    position += n;
    return n;
  }

  private int readDeflated(byte[] buffer, int offset, int length) throws IOException {
    // Never ask for more than one byte past the declared size: enough to tell a liar, no more inflated for it.
    int wanted = (int) Math.min(length, entry.uncompressedSize() - produced + 1);
    try {
      while (true) {
        int n = inflater.inflate(buffer, offset, wanted);
        if (n > 0) {
          return n;
        }
        if (inflater.finished()) {
          return -1;
        }
        if (inflater.needsDictionary()) {
          throw new IOException("'" + entry.name() + "' needs a preset dictionary, which ZIP does not use");
        }
        if (inflater.needsInput()) {
          fill();
        }
      }
    } catch (DataFormatException e) {
      throw new IOException("'" + entry.name() + "' is not valid deflate data: " + e.getMessage(), e);
    }
  }

  private void fill() throws IOException {
    long left = end - position;
    if (left == 0) {
      // The JDK's own ZIP reader gives raw inflate one dummy byte after the data (see Inflater's "nowrap"); past
      // that, the data is cut short of its end.
      if (dummyGiven) {
        throw new IOException("'" + entry.name() + "' ends before its deflate stream does");
      }
      dummyGiven = true;
      inflater.setInput(new byte[1]);
      return;
    }
    input.clear().limit((int) Math.min(CHUNK, left));
    int n = archive.read(input, position);
    if (n <= 0) {
      throw new IOException("'" + entry.name() + "' ends early: the archive was cut short");
    }
    position += n;
    input.flip();
    inflater.setInput(input.array(), 0, input.limit());
  }

  private void finish() throws IOException {
    finished = true;
    if (produced != entry.uncompressedSize()) {
      throw new IOException("'" + entry.name() + "' holds " + produced + " bytes, not its declared "
          + entry.uncompressedSize());
    }
    if (crc.getValue() != entry.crc()) {
      throw new IOException("'" + entry.name() + "' fails its CRC-32 check (" + Long.toHexString(crc.getValue())
          + ", declared " + Long.toHexString(entry.crc()) + ")");
    }
  }

  @Override
  public void close() {
    finished = true;
    if (inflater != null) {
      inflater.end();
    }
  }
}
