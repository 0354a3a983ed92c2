package io.mangacircus.launcher.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Memory use against the limit this process actually has: the cgroup's (v2 {@code memory.max}, {@code memory.current},
 * {@code memory.stat} inactive_file; v1 {@code memory.limit_in_bytes}, {@code memory.usage_in_bytes},
 * {@code memory.stat} total_inactive_file) when there is one smaller than the host's RAM, the host's
 * {@code /proc/meminfo} otherwise. Page cache that can be dropped (inactive file pages) is not pressure, as
 * MemAvailable leaves it out on the host. Every path is injectable so tests read fixture folders.
 */
public final class CgroupMemInfo implements MemInfoReader {

  /** The source named when the host's figures are used. */
  static final String HOST = "host /proc/meminfo";

  /** One cgroup's figures, in bytes. */
  record Limit(int version, long limit, long usage, long inactiveFile) {
    double usedPercent() {
      return 100.0 * Math.max(0, usage - inactiveFile) / limit;
    }

    String source() {
      return "cgroup v" + version + " limit " + mib(limit);
    }
  }

  private final Path cgroupRoot;
  private final Path selfCgroup;
  private final Path meminfo;

  /**
   * @param cgroupRoot where the cgroup file system is mounted ({@code /sys/fs/cgroup})
   * @param selfCgroup this process's cgroup membership ({@code /proc/self/cgroup})
   * @param meminfo the host's {@code /proc/meminfo}
   */
  public CgroupMemInfo(Path cgroupRoot, Path selfCgroup, Path meminfo) {
    this.cgroupRoot = cgroupRoot;
    this.selfCgroup = selfCgroup;
    this.meminfo = meminfo;
  }

  @Override
  public OptionalDouble usedPercent() {
    return read().usedPercent();
  }

  @Override
  public String source() {
    return read().source();
  }

  /** The limit is looked up once, so the figure and its source always belong together. */
  @Override
  public Reading read() {
    Optional<Limit> limit = limit();
    if (limit.isPresent()) {
      return new Reading(limit.get().source(), OptionalDouble.of(limit.get().usedPercent()));
    }
    return new Reading(HOST, read(meminfo).map(MemInfoReader::usedPercent).orElse(OptionalDouble.empty()));
  }

  /**
   * The cgroup limit in force, if there is one below the host's RAM and its usage can be read: the nearest one from
   * this process's own group up to the mount's root.
   */
  Optional<Limit> limit() {
    long hostBytes = read(meminfo).map(MemInfoReader::totalBytes).orElse(-1L);
    // An "unlimited" v1 group reports a huge number; a limit at or above the host's RAM never binds first.
    java.util.function.LongPredicate binds = limit -> limit > 0 && (hostBytes <= 0 || limit < hostBytes);
    return Files.isRegularFile(cgroupRoot.resolve("cgroup.controllers")) ? v2(binds) : v1(binds);
  }

  private Optional<Limit> v2(java.util.function.LongPredicate binds) {
    for (Path dir : candidates(cgroupRoot, membership("0::"))) {
      Optional<String> max = read(dir.resolve("memory.max")).map(String::trim);
      if (max.isEmpty() || max.get().equals("max")) {
        continue;
      }
      OptionalLong limit = number(max.get());
      OptionalLong current = read(dir.resolve("memory.current")).map(t -> number(t.trim())).orElse(OptionalLong.empty());
      if (limit.isPresent() && binds.test(limit.getAsLong()) && current.isPresent()) {
        long inactive = read(dir.resolve("memory.stat")).map(t -> stat(t, "inactive_file")).orElse(0L);
        return Optional.of(new Limit(2, limit.getAsLong(), current.getAsLong(), inactive));
      }
    }
    return Optional.empty();
  }

  private Optional<Limit> v1(java.util.function.LongPredicate binds) {
    Path memory = cgroupRoot.resolve("memory");
    if (!Files.isDirectory(memory)) {
      return Optional.empty();
    }
    for (Path dir : candidates(memory, membershipV1())) {
      OptionalLong limit = read(dir.resolve("memory.limit_in_bytes")).map(t -> number(t.trim()))
          .orElse(OptionalLong.empty());
      OptionalLong usage = read(dir.resolve("memory.usage_in_bytes")).map(t -> number(t.trim()))
          .orElse(OptionalLong.empty());
      if (limit.isPresent() && binds.test(limit.getAsLong()) && usage.isPresent()) {
        String stat = read(dir.resolve("memory.stat")).orElse("");
        long inactive = stat.contains("total_inactive_file") ? stat(stat, "total_inactive_file")
            : stat(stat, "inactive_file");
        return Optional.of(new Limit(1, limit.getAsLong(), usage.getAsLong(), inactive));
      }
    }
    return Optional.empty();
  }

  /**
   * This process's own cgroup folder and its ancestors when they are visible here, then the mount's root (in a
   * container with its own cgroup namespace the root is the container's group).
   */
  private static java.util.List<Path> candidates(Path root, Optional<String> membership) {
    java.util.List<Path> dirs = new java.util.ArrayList<>();
    Optional<Path> own = membership.map(p -> p.replaceFirst("^/+", "")).filter(p -> !p.isEmpty()).map(root::resolve)
        .filter(Files::isDirectory);
    for (Path dir = own.orElse(null); dir != null && dir.startsWith(root) && !dir.equals(root); dir = dir.getParent()) {
      dirs.add(dir);
    }
    dirs.add(root);
    return dirs;
  }

  /** The path after a {@code /proc/self/cgroup} line's prefix ({@code 0::} for v2). */
  private Optional<String> membership(String prefix) {
    return read(selfCgroup).flatMap(text -> text.lines().filter(l -> l.startsWith(prefix))
        .map(l -> l.substring(prefix.length())).findFirst());
  }

  /** The path of the v1 {@code memory} controller's line ({@code N:memory:/path}, possibly among others). */
  private Optional<String> membershipV1() {
    return read(selfCgroup).flatMap(text -> text.lines().map(l -> l.split(":", 3)).filter(p -> p.length == 3)
        .filter(p -> java.util.Arrays.asList(p[1].split(",")).contains("memory")).map(p -> p[2]).findFirst());
  }

  private static long stat(String text, String key) {
    return text.lines().map(l -> l.trim().split("\\s+")).filter(p -> p.length == 2 && p[0].equals(key))
        .map(p -> number(p[1])).filter(OptionalLong::isPresent).map(OptionalLong::getAsLong).findFirst().orElse(0L);
  }

  private static OptionalLong number(String text) {
    try {
      return OptionalLong.of(Long.parseLong(text));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  private static Optional<String> read(Path file) {
    try {
      return Optional.of(Files.readString(file));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%d MiB", bytes / (1024 * 1024));
  }
}
