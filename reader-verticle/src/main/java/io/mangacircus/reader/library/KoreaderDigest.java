package io.mangacircus.reader.library;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * KOReader's "binary" document id of a file, the partial MD5 its sync plugin sends as {@code document}: the MD5 of up
 * to 1024 bytes read at each of the offsets {@code lshift(1024, 2*i)} for {@code i = -1..10}, stopping at the first
 * offset at or past the end. This is {@code util.partialMD5} in KOReader's {@code frontend/util.lua}:
 * <pre>
 * local step, size = 1024, 1024
 * for i = -1, 10 do
 *     file:seek("set", lshift(step, 2*i))
 *     local sample = file:read(size)
 *     if sample then update(sample) else break end
 * end
 * </pre>
 * {@code lshift} is LuaJIT's {@code bit.lshift}, which works on 32 bits and keeps only the low 5 bits of the shift
 * count: {@code lshift(1024, -2)} is {@code 1024 << 30}, which overflows to 0, so the first sample is at offset 0
 * (not 256), then 1024, 4096, ... up to 1024 &lt;&lt; 20 (1 GiB). Java's {@code int} shift has the same two rules. (KOReader's
 * {@code spec/unit/util_spec.lua} values for its test files {@code tall.pdf} and {@code leaves.epub} hold only with offset 0.)
 */
public final class KoreaderDigest {

  /** Bytes read per sample, and the base of the offsets. */
  static final int STEP = 1024;

  /** Reads up to {@code length} bytes at {@code offset}; fewer at the end, none (empty) at or past it. */
  @FunctionalInterface
  public interface Sampler {
    byte[] read(long offset, int length) throws IOException;
  }

  private KoreaderDigest() {
  }

  /** The sample offsets, in order: 0, 1024, 4096, 16384, ..., 1073741824. */
  static long[] offsets() {
    long[] offsets = new long[12];
    for (int i = -1; i <= 10; i++) {
      offsets[i + 1] = STEP << (2 * i);
    }
    return offsets;
  }

  /** The partial MD5, lower-case hex, of a file of {@code size} bytes read through {@code sampler}. */
  public static String partialMd5(long size, Sampler sampler) throws IOException {
    MessageDigest md5 = md5();
    for (long offset : offsets()) {
      if (offset >= size) {
        break;
      }
      byte[] sample = sampler.read(offset, (int) Math.min(STEP, size - offset));
      if (sample.length == 0) {
        break;
      }
      md5.update(sample);
    }
    return HexFormat.of().formatHex(md5.digest());
  }

  /** The partial MD5 of the bytes a channel holds (its position is moved). */
  public static String partialMd5(SeekableByteChannel channel) throws IOException {
    return partialMd5(channel.size(), (offset, length) -> {
      ByteBuffer buffer = ByteBuffer.allocate(length);
      channel.position(offset);
      while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
        // a read may return fewer bytes than asked
      }
      return Arrays.copyOf(buffer.array(), buffer.position());
    });
  }

  /** The partial MD5 of bytes held in memory. */
  public static String partialMd5(byte[] bytes) {
    try {
      return partialMd5(bytes.length, (offset, length) ->
          Arrays.copyOfRange(bytes, (int) offset, (int) offset + length));
    } catch (IOException e) {
      throw new IllegalStateException("reading memory cannot fail", e);
    }
  }

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has MD5", e);
    }
  }
}
