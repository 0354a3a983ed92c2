package io.mangacircus.launcher.testing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A class-data archive of the jar for the tests' own processes, as bin/train-cds.sh makes one for an operator's: made
 * once per jar by whichever test JVM needs it first (a file lock beside the jar keeps the other forks from making it
 * too), by one start of {@code all} with the options of {@link JarProcess}'s starts, stopped with SIGTERM. A start
 * that maps it spends about 1.4 s less CPU getting ready (1.8-2.3 s against 3.1-3.7 s for {@code all} on the embedded
 * defaults, with the client compiler alone); a test machine with two cores has dozens of such starts. When the
 * archive cannot be made, the starts go on without it and say nothing: nothing a test checks depends on it.
 */
final class TestClassArchive {

  /** The options every archived start runs with, the training start's included (the archive is tied to them). */
  static final List<String> OPTIONS = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1");

  private static Optional<Path> archive;

  private TestClassArchive() {
  }

  /** The archive for {@code jar}, made now if no test JVM made it before; empty when it cannot be made. */
  static synchronized Optional<Path> of(Path jar) {
    if (archive == null) {
      archive = make(jar);
    }
    return archive;
  }

  private static Optional<Path> make(Path jar) {
    try {
      Path file = jar.resolveSibling("it-classes-" + Long.toHexString(Files.size(jar)) + "-"
          + Long.toHexString(Files.getLastModifiedTime(jar).toMillis()) + ".jsa");
      try (FileChannel lockFile = FileChannel.open(jar.resolveSibling("it-classes.lock"), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE); FileLock held = lockFile.lock()) {
        if (!Files.isRegularFile(file)) {
          train(jar, file);
        }
      }
      return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      System.err.println("[TestClassArchive] no class-data archive for the test processes: " + e);
      return Optional.empty();
    }
  }

  private static void train(Path jar, Path file) throws IOException {
    Path work = Files.createTempDirectory("mc-it-cds-");
    // Beside the archive's place, so that the finished one is moved there in one rename on one file system.
    Path partial = file.resolveSibling(file.getFileName() + ".part");
    Files.deleteIfExists(partial);
    int port = FreePorts.next();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(OPTIONS);
    command.add("-XX:ArchiveClassesAtExit=" + partial);
    command.addAll(List.of("-jar", jar.toString(), "all", "--data=" + work.resolve("data"), "--port=" + port,
        "--health-port=" + FreePorts.next()));
    ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
        .redirectOutput(work.resolve("training.log").toFile());
    builder.environment().keySet().removeIf(k -> k.startsWith("MANGACIRCUS_") || k.equals("JAVA_OPTS"));
    builder.environment().put("MANGACIRCUS_ADMIN_PASSWORD", UUID.randomUUID().toString());
    Process process = builder.start();
    try {
      HttpProbe.awaitReady(port);
      process.destroy();
      if (process.waitFor(Duration.ofSeconds(60).toSeconds(), TimeUnit.SECONDS) && Files.size(partial) > 0) {
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      process.destroyForcibly();
      Files.deleteIfExists(partial);
      try (var files = Files.walk(work)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
