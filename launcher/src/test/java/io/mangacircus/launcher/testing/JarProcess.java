package io.mangacircus.launcher.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The shaded {@code mangacircus.jar} run as a separate JVM process, its output captured to a file. */
public final class JarProcess implements AutoCloseable {

  private final Process process;
  private final Path output;

  private JarProcess(Process process, Path output) {
    this.process = process;
    this.output = output;
  }

  /** The jar failsafe built before the integration tests ran. */
  public static Path jar() {
    String path = System.getProperty("mangacircus.jar");
    if (path == null || !Files.isRegularFile(Path.of(path))) {
      throw new IllegalStateException("mangacircus.jar not found (" + path + "); run the ITs through 'mvn verify'");
    }
    return Path.of(path);
  }

  /** Starts {@code java -jar mangacircus.jar args...} in {@code workDir} with extra environment variables. */
  public static JarProcess start(Path workDir, Map<String, String> env, String... args) {
    return start(workDir, env, List.of(), args);
  }

  /** As {@link #start(Path, Map, String...)} with extra JVM options (e.g. {@code -Dmangacircus.crashAt=...}). */
  public static JarProcess start(Path workDir, Map<String, String> env, List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // A test's process lives seconds to a minute: the client compiler alone brings it to ready with about 40% less CPU
    // (3.3-3.8 s against 5.2-6.3 s of CPU for `all` on the embedded defaults), and the class-data archive of the jar
    // saves another 1.4 s, which on a two-core machine is time the other test JVMs get. What is tested is behaviour,
    // never the JIT; bin/mangacircus (startCommand) keeps its own options. A start with JVM options of its own (other
    // than properties) gets no archive: it was made with these options only.
    command.addAll(TestClassArchive.OPTIONS);
    if (jvmOptions.stream().allMatch(o -> o.startsWith("-D"))) {
      TestClassArchive.of(jar()).ifPresent(archive -> command.add("-XX:SharedArchiveFile=" + archive));
    }
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(jar().toString());
    command.addAll(List.of(args));
    return startCommand(workDir, env, command);
  }

  /**
   * Starts a command that runs the jar (such as {@code bin/mangacircus}), with the MangaCircus and JAVA_OPTS variables
   * of the test's own environment removed and {@code env} added.
   */
  public static JarProcess startCommand(Path workDir, Map<String, String> env, List<String> command) {
    try {
      Path output = Files.createTempFile(workDir, "process-", ".log");
      ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
          .redirectErrorStream(true).redirectOutput(output.toFile());
      builder.environment().keySet().removeIf(k -> k.startsWith("MANGACIRCUS_") || k.equals("JAVA_OPTS"));
      builder.environment().putAll(env);
      return new JarProcess(builder.start(), output);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs to completion and returns the exit code (fails the test if it takes longer than {@code limit}). */
  public int waitForExit(Duration limit) {
    try {
      if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("process did not exit within " + limit + "; output:\n" + output());
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Waits up to {@code limit} for the process to end by itself; true when it did. */
  public boolean waitUntilExit(Duration limit) {
    try {
      return process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The exit code of an ended process. */
  public int exitCode() {
    return process.exitValue();
  }

  /** Everything the process printed so far. */
  public String output() {
    try {
      return Files.readString(output);
    } catch (IOException e) {
      return "(output unreadable: " + e + ")";
    }
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public long pid() {
    return process.pid();
  }

  /** SIGTERM. */
  public void terminate() {
    process.destroy();
  }

  /** SIGKILL: no chance to clean up. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Resident set size in KiB, read from /proc. */
  public long rssKib() {
    try {
      return Files.readAllLines(Path.of("/proc", String.valueOf(pid()), "status")).stream()
          .filter(l -> l.startsWith("VmRSS:")).map(l -> l.replaceAll("\\D", "")).mapToLong(Long::parseLong)
          .findFirst().orElse(-1);
    } catch (IOException e) {
      return -1;
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      kill();
    }
  }

  /** The path separator-free description for messages. */
  @Override
  public String toString() {
    return "pid " + pid() + " (" + output.getFileName() + File.separator + ")";
  }
}
