package io.mangacircus.reader.library.archive;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/** Writes ZIP bytes by hand, with every field the hostile cases need to lie about under the test's control. */
final class HandMadeZip {

  /** One entry; the declared fields default to the truth about {@code content}. */
  static final class Entry {
    final String name;
    /** The bytes in the file; a test may swap in any bytes (the sizes follow them). */
    byte[] data;
    final int method;
    int flags;
    long externalAttributes;
    long declaredUncompressed;
    long declaredCrc;
    byte[] localExtra = new byte[0];

    Entry(String name, byte[] content, int method) {
      this.name = name;
      this.method = method;
      this.data = method == 8 ? deflate(content) : content;
      this.declaredUncompressed = content.length;
      CRC32 crc = new CRC32();
      crc.update(content);
      this.declaredCrc = crc.getValue();
    }
  }

  private final List<Entry> entries = new ArrayList<>();
  private boolean zip64;

  Entry add(String name, byte[] content, int method) {
    Entry entry = new Entry(name, content, method);
    entries.add(entry);
    return entry;
  }

  /** Writes sizes and offsets as ZIP64 (saturated 32-bit fields, the 0x0001 extra field, the ZIP64 end records). */
  HandMadeZip zip64() {
    zip64 = true;
    return this;
  }

  byte[] bytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<Long> offsets = new ArrayList<>();
    for (Entry e : entries) {
      offsets.add((long) out.size());
      byte[] name = e.name.getBytes(StandardCharsets.UTF_8);
      ByteBuffer local = le(30);
      local.putInt(0x04034b50).putShort((short) 20).putShort((short) (e.flags | 1 << 11)).putShort((short) e.method)
          .putInt(0).putInt((int) e.declaredCrc).putInt(e.data.length).putInt((int) e.declaredUncompressed)
          .putShort((short) name.length).putShort((short) e.localExtra.length);
      out.writeBytes(local.array());
      out.writeBytes(name);
      out.writeBytes(e.localExtra);
      out.writeBytes(e.data);
    }
    long cdOffset = out.size();
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      byte[] name = e.name.getBytes(StandardCharsets.UTF_8);
      ByteBuffer extra = le(zip64 ? 28 : 0);
      if (zip64) {
        extra.putShort((short) 1).putShort((short) 24).putLong(e.declaredUncompressed).putLong(e.data.length)
            .putLong(offsets.get(i));
      }
      ByteBuffer central = le(46);
      central.putInt(0x02014b50).putShort((short) (3 << 8 | 20)).putShort((short) 20)
          .putShort((short) (e.flags | 1 << 11)).putShort((short) e.method).putInt(0).putInt((int) e.declaredCrc)
          .putInt(zip64 ? -1 : e.data.length).putInt(zip64 ? -1 : (int) e.declaredUncompressed)
          .putShort((short) name.length).putShort((short) extra.capacity()).putShort((short) 0).putShort((short) 0)
          .putShort((short) 0).putInt((int) e.externalAttributes).putInt(zip64 ? -1 : offsets.get(i).intValue());
      out.writeBytes(central.array());
      out.writeBytes(name);
      out.writeBytes(extra.array());
    }
    long cdSize = out.size() - cdOffset;
    if (zip64) {
      long recordAt = out.size();
      ByteBuffer record = le(56);
      record.putInt(0x06064b50).putLong(44).putShort((short) 45).putShort((short) 45).putInt(0).putInt(0)
          .putLong(entries.size()).putLong(entries.size()).putLong(cdSize).putLong(cdOffset);
      out.writeBytes(record.array());
      ByteBuffer locator = le(20);
      locator.putInt(0x07064b50).putInt(0).putLong(recordAt).putInt(1);
      out.writeBytes(locator.array());
    }
    ByteBuffer end = le(22);
    end.putInt(0x06054b50).putShort((short) 0).putShort((short) 0)
        .putShort((short) (zip64 ? 0xFFFF : entries.size())).putShort((short) (zip64 ? 0xFFFF : entries.size()))
        .putInt(zip64 ? -1 : (int) cdSize).putInt(zip64 ? -1 : (int) cdOffset).putShort((short) 0);
    out.writeBytes(end.array());
    return out.toByteArray();
  }

  static byte[] deflate(byte[] content) {
    Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    deflater.setInput(content);
    deflater.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    while (!deflater.finished()) {
      out.write(buffer, 0, deflater.deflate(buffer));
    }
    deflater.end();
    return out.toByteArray();
  }

  private static ByteBuffer le(int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
  }
}
