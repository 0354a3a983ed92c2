package io.mangacircus.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.mangacircus.launcher.testing.FreePorts;
import io.mangacircus.launcher.testing.HttpProbe;
import io.mangacircus.launcher.testing.JarProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/mangacircus}, the README's start: the measured JVM options and a class-data archive trained once. */
@Tag("process")
class StartScriptIT {

  private static final Duration RUN = Duration.ofSeconds(60);
  private static final String PASSWORD = "start-script-it-password";

  @TempDir
  Path work;

  private Path jar;
  private Path archive;

  @BeforeEach
  void copyTheJar() throws IOException {
    // A jar of the test's own, so that the archive is made beside it and not beside the build's jar.
    Files.createDirectories(work.resolve("dist"));
    jar = Files.copy(JarProcess.jar(), work.resolve("dist/mangacircus.jar")).toRealPath();
    archive = jar.resolveSibling("mangacircus.jsa");
  }

  private static Path script() {
    return Path.of(System.getProperty("mangacircus.startScript"));
  }

  private Map<String, String> env(Map<String, String> extra) {
    Map<String, String> env = new HashMap<>(extra);
    env.put("MANGACIRCUS_JAR", jar.toString());
    env.put("MANGACIRCUS_ADMIN_PASSWORD", PASSWORD);
    // The script runs the java on PATH: this test's own JDK first.
    env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv("PATH"));
    return env;
  }

  private JarProcess run(Map<String, String> extra, String... args) {
    List<String> command = new ArrayList<>(List.of("bash", script().toString()));
    command.addAll(List.of(args));
    return JarProcess.startCommand(work, env(extra), command);
  }

  private JarProcess startAll(Map<String, String> extra, int port) {
    return run(extra, "all", "--data", work.resolve("data").toString(), "--port", String.valueOf(port),
        "--health-port", String.valueOf(FreePorts.next()));
  }

  private static String commandLine(JarProcess process) throws IOException {
    return new String(Files.readAllBytes(Path.of("/proc", String.valueOf(process.pid()), "cmdline")),
        StandardCharsets.UTF_8).replace('\0', ' ');
  }

  private static String mappedFiles(JarProcess process) throws IOException {
    return Files.readString(Path.of("/proc", String.valueOf(process.pid()), "maps"));
  }

  private static void stop(JarProcess process) {
    process.terminate();
    assertThat(process.waitForExit(RUN)).as(process.output()).isZero();
  }

  @Test
  void theFirstServiceStartTrainsAnArchiveThatTheJvmMapsAndTheNextStartReusesIt() throws Exception {
    int port = FreePorts.next();
    try (JarProcess first = startAll(Map.of(), port)) {
      HttpProbe.awaitReady(port);
      assertThat(first.output()).contains("mangacircus: training a class-data archive", "train-cds: ready after");
      assertThat(commandLine(first)).startsWith("java -XX:+UseSerialGC -XX:InitialHeapSize=16m")
          .contains("-XX:SharedArchiveFile=" + archive, "-jar " + jar + " all");
      // The JVM maps the archive's classes from the file: it is in the process's memory map, not only named.
      assertThat(mappedFiles(first)).contains(archive.toString());
      assertThat(first.output()).contains("not applied: G1 options (the JVM does not run G1)")
          .doesNotContain("Unable to use shared archive");
      stop(first);
    }
    FileTime trained = Files.getLastModifiedTime(archive);
    assertThat(Files.readString(jar.resolveSibling("mangacircus.jsa.stamp")))
        .contains("jar " + jar + " ", "options -XX:+UseSerialGC");

    try (JarProcess second = startAll(Map.of(), port)) {
      HttpProbe.awaitReady(port);
      assertThat(mappedFiles(second)).contains(archive.toString());
      assertThat(second.output()).doesNotContain("training");
      stop(second);
    }
    assertThat(Files.getLastModifiedTime(archive)).isEqualTo(trained);
  }

  @Test
  void javaOptsReplaceTheDefaultsAndAnotherOptionSetTrainsItsOwnArchive() throws Exception {
    try (JarProcess options = run(Map.of("JAVA_OPTS", "-Xmx300m"), "java-options")) {
      assertThat(options.waitForExit(RUN)).isZero();
      assertThat(options.output().strip()).isEqualTo("-Xmx300m -XX:SharedArchiveFile=" + archive);
    }
    try (JarProcess prepare = run(Map.of(), "prepare")) {
      assertThat(prepare.waitForExit(RUN)).as(prepare.output()).isZero();
    }
    FileTime serial = Files.getLastModifiedTime(archive);

    int port = FreePorts.next();
    try (JarProcess g1 = startAll(Map.of("JAVA_OPTS", "-XX:+UseG1GC -Xmx300m"), port)) {
      HttpProbe.awaitReady(port);
      assertThat(g1.output()).contains("mangacircus: training a class-data archive");
      assertThat(commandLine(g1)).startsWith("java -XX:+UseG1GC -Xmx300m -XX:SharedArchiveFile=")
          .doesNotContain("UseSerialGC");
      assertThat(mappedFiles(g1)).contains(archive.toString());
      stop(g1);
    }
    assertThat(Files.getLastModifiedTime(archive)).isNotEqualTo(serial);
  }

  @Test
  void theTrainingStartUsesTheEmbeddedDefaultsNotTheWorkingFoldersConfigFile() throws Exception {
    // conf/mangacircus.json of the working folder is the service's default config file; here it is invalid.
    Files.createDirectories(work.resolve("conf"));
    Files.writeString(work.resolve("conf/mangacircus.json"), "{\"supervision\": {\"crashBudgetFailures\": \"three\"}}");

    try (JarProcess process = startAll(Map.of(), FreePorts.next())) {
      assertThat(process.waitForExit(RUN)).as(process.output()).isEqualTo(Main.EXIT_CONFIG);
      assertThat(process.output()).contains("train-cds: ready after", "supervision.crashBudgetFailures");
    }
    assertThat(archive).isRegularFile();
  }

  @Test
  void withoutAWritableArchiveFolderTheServiceStartsWithoutAnArchiveAndSaysWhy() throws Exception {
    Path nowhere = work.resolve("missing/mangacircus.jsa");
    int port = FreePorts.next();
    try (JarProcess process = startAll(Map.of("MANGACIRCUS_CDS_ARCHIVE", nowhere.toString()), port)) {
      HttpProbe.awaitReady(port);
      assertThat(process.output()).contains("cannot write " + nowhere.getParent() + ": no class-data archive");
      assertThat(commandLine(process)).contains("-XX:+UseSerialGC").doesNotContain("SharedArchiveFile");
      stop(process);
    }
    assertThat(work.resolve("missing")).doesNotExist();
  }

  @Test
  void aOneOffCommandNeverTrainsAndAMissingJarIsNamedWithTheBuildCommand() throws Exception {
    try (JarProcess check = run(Map.of(), "check", "--data", work.resolve("data").toString())) {
      check.waitForExit(RUN);
      assertThat(check.output()).doesNotContain("training");
    }
    assertThat(archive).doesNotExist();

    Files.delete(jar);
    try (JarProcess missing = run(Map.of(), "all")) {
      assertThat(missing.waitForExit(RUN)).isEqualTo(2);
      assertThat(missing.output()).contains("no jar at " + jar + ": build it first with  mvn -B -q package -DskipTests");
    }
  }
}
