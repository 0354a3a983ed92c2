package io.mangacircus.launcher.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;

/** Reads how much of the memory this process may use is in use; injectable so tests feed their own readings. */
@FunctionalInterface
public interface MemInfoReader {

  /** Used memory in percent of what this process may use; empty when it cannot be read. */
  OptionalDouble usedPercent();

  /**
   * Where the readings come from, for {@code check}, the log and the health page: for example
   * {@code cgroup v2 limit 512 MiB} or {@code host /proc/meminfo}.
   */
  default String source() {
    return "readings supplied by the caller";
  }

  /** One reading with its source, taken together (a reader may look its limit up once for both). */
  default Reading read() {
    return new Reading(source(), usedPercent());
  }

  /** Where a reading came from and the figure, empty when it could not be read. */
  record Reading(String source, OptionalDouble usedPercent) {
  }

  /**
   * The reader for this machine: the cgroup's figures when this process runs under a memory limit (a container),
   * else the host's {@code /proc/meminfo}.
   */
  static MemInfoReader system() {
    return new CgroupMemInfo(Path.of("/sys/fs/cgroup"), Path.of("/proc/self/cgroup"), Path.of("/proc/meminfo"));
  }

  /** Linux's {@code /proc/meminfo} of the host (MemAvailable, never MemFree: page cache is not pressure). */
  static MemInfoReader proc() {
    return new MemInfoReader() {
      @Override
      public OptionalDouble usedPercent() {
        try {
          return MemInfoReader.usedPercent(Files.readString(Path.of("/proc/meminfo")));
        } catch (IOException e) {
          return OptionalDouble.empty();
        }
      }

      @Override
      public String source() {
        return CgroupMemInfo.HOST;
      }
    };
  }

  /** Parses a {@code /proc/meminfo} text: {@code 100 × (1 − MemAvailable / MemTotal)}. */
  static OptionalDouble usedPercent(String meminfo) {
    long total = -1;
    long available = -1;
    for (String line : meminfo.split("\n")) {
      String[] parts = line.trim().split("\\s+");
      if (parts.length >= 2 && parts[0].equals("MemTotal:")) {
        total = Long.parseLong(parts[1]);
      } else if (parts.length >= 2 && parts[0].equals("MemAvailable:")) {
        available = Long.parseLong(parts[1]);
      }
    }
    if (total <= 0 || available < 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(100.0 * (1.0 - (double) available / total));
  }

  /** {@code MemTotal} of a {@code /proc/meminfo} text in bytes; -1 when absent. */
  static long totalBytes(String meminfo) {
    for (String line : meminfo.split("\n")) {
      String[] parts = line.trim().split("\\s+");
      if (parts.length >= 2 && parts[0].equals("MemTotal:")) {
        return Long.parseLong(parts[1]) * 1024;
      }
    }
    return -1;
  }
}
