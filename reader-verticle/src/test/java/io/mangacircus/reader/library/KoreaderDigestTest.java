package io.mangacircus.reader.library;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KOReader's partial MD5 of a file, checked against a line-by-line transcription of {@code util.partialMD5} in
 * KOReader's {@code frontend/util.lua} (LuaJIT's 32-bit {@code bit.lshift}, {@code file:seek("set", ...)},
 * {@code file:read(1024)} returning nil at the end).
 */
class KoreaderDigestTest {

  @TempDir
  Path dir;

  /** LuaJIT's {@code bit.lshift}: 32-bit operands, the shift count taken modulo 32. */
  private static int luaLshift(int x, int n) {
    return x << (n & 31);
  }

  /** The Lua loop, transcribed: seek, read up to 1024 bytes, stop at the first read that gets nil (at or past EOF). */
  private static String luaPartialMd5(Path file) throws Exception {
    MessageDigest update = MessageDigest.getInstance("MD5");
    int step = 1024;
    int size = 1024;
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      for (int i = -1; i <= 10; i++) {
        f.seek(Integer.toUnsignedLong(luaLshift(step, 2 * i)));
        byte[] sample = new byte[size];
        int got = 0;
        for (int n = 0; got < size && (n = f.read(sample, got, size - got)) > 0; ) {
          got += n;
        }
        if (got == 0) {
          break;
        }
        update.update(sample, 0, got);
      }
    }
    return HexFormat.of().formatHex(update.digest());
  }

  @Test
  void theSamplesStartAtOffsetZeroAsLuajitShiftsThenGrowFourfoldUpToOneGibibyte() {
    assertThat(KoreaderDigest.offsets()).containsExactly(0, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304,
        16777216, 67108864, 268435456, 1073741824);
  }

  @Test
  void aFileBiggerThanTheLastOffsetHasTheDigestOfTheLuaLoop() throws Exception {
    // Sparse: bytes only around each offset, so the file passes 1 GiB without taking the disk.
    Path file = dir.resolve("big.cbz");
    Random random = new Random(7);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      for (long offset = 0; offset <= 1L << 30; offset = offset == 0 ? 1024 : offset * 4) {
        byte[] noise = new byte[4096];
        random.nextBytes(noise);
        channel.write(ByteBuffer.wrap(noise), Math.max(0, offset - 512));
      }
    }
    assertThat(Files.size(file)).isGreaterThan((1L << 30) + 1024);

    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      assertThat(KoreaderDigest.partialMd5(channel)).isEqualTo(luaPartialMd5(file));
    }
  }

  @Test
  void aSmallFileIsSampledUpToItsEndWithAShortLastSample() throws Exception {
    for (int length : new int[] {0, 1, 1023, 1024, 1025, 5000, 70000}) {
      byte[] bytes = new byte[length];
      new Random(length).nextBytes(bytes);
      Path file = dir.resolve("small-" + length + ".cbz");
      Files.write(file, bytes);

      assertThat(KoreaderDigest.partialMd5(bytes)).as(length + " bytes").isEqualTo(luaPartialMd5(file));
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
        assertThat(KoreaderDigest.partialMd5(channel)).as(length + " bytes, by channel").isEqualTo(luaPartialMd5(file));
      }
    }
  }

  @Test
  void aFileOfExactlyOneSampleIsTheMd5OfItsBytes() throws Exception {
    byte[] bytes = new byte[1024];
    new Random(1).nextBytes(bytes);

    assertThat(KoreaderDigest.partialMd5(bytes))
        .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes)));
  }
}
