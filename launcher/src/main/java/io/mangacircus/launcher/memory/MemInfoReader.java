package io.mangacircus.launcher.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;

/** Reads how much of the host's memory is in use; injectable so tests feed their own readings. */
@FunctionalInterface
public interface MemInfoReader {

  /** {@code 100 × (1 − MemAvailable / MemTotal)}; empty when it cannot be read. */
  OptionalDouble usedPercent();

  /** Linux's {@code /proc/meminfo} (MemAvailable, never MemFree: page cache is not pressure). */
  static MemInfoReader proc() {
    return () -> {
      try {
        return usedPercent(Files.readString(Path.of("/proc/meminfo")));
      } catch (IOException e) {
        return OptionalDouble.empty();
      }
    };
  }

  /** Parses a {@code /proc/meminfo} text. */
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
}
