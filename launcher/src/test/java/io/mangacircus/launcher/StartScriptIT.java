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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/mangacircus}, the README's start: the measured JVM options and a class-data archive trained once. */
@Tag("process")
class StartScriptIT {

  private static final Duration RUN = Duration.ofSeconds(60);
  private static final String PASSWORD = "start-script-it-password";

  /**
   * The class's folder. Its {@code dist} holds one copy of the jar for the class, so that the archive is made beside it
   * and not beside the build's jar: each training costs a product start, so the tests share the archives they make.
   * Every test holds in any order (a test that needs an archive of its options makes it, one that needs none uses a jar
   * of its own); in JUnit's order the serial archive is trained once and the G1 one once.
   */
  @TempDir
  static Path root;

  private static Path jar;
  private static Path archive;

  /** The working folder of one test's processes (their output files, a config file of the folder, the data). */
  private Path work;

  @BeforeAll
  static void copyTheJar() throws IOException {
    jar = Files.copy(JarProcess.jar(), Files.createDirectories(root.resolve("dist")).resolve("mangacircus.jar"))
        .toRealPath();
    archive = jar.resolveSibling("mangacircus.jsa");
  }

  @BeforeEach
  void aWorkingFolderOfItsOwn(TestInfo test) throws IOException {
    work = Files.createDirectories(root.resolve(test.getTestMethod().orElseThrow().getName()));
  }

  private static Path script() {
    return Path.of(System.getProperty("mangacircus.startScript"));
  }

  private static Map<String, String> env(Path jarFile, Map<String, String> extra) {
    Map<String, String> env = new HashMap<>(extra);
    env.put("MANGACIRCUS_JAR", jarFile.toString());
    env.put("MANGACIRCUS_ADMIN_PASSWORD", PASSWORD);
    // The script runs the java on PATH: this test's own JDK first.
    env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv("PATH"));
    return env;
  }

  private JarProcess run(Map<String, String> extra, String... args) {
    return runIn(work, jar, extra, args);
  }

  private static JarProcess runIn(Path folder, Path jarFile, Map<String, String> extra, String... args) {
    List<String> command = new ArrayList<>(List.of("bash", script().toString()));
    command.addAll(List.of(args));
    return JarProcess.startCommand(folder, env(jarFile, extra), command);
  }

  private JarProcess startAll(Map<String, String> extra, int port, String... more) {
    return startAllIn(work, extra, port, more);
  }

  private JarProcess startAllIn(Path folder, Map<String, String> extra, int port, String... more) {
    List<String> args = new ArrayList<>(List.of("all", "--data", work.resolve("data").toString(),
        "--port", String.valueOf(port), "--health-port", String.valueOf(FreePorts.next())));
    args.addAll(List.of(more));
    return runIn(folder, jar, extra, args.toArray(String[]::new));
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
  void theFirstServiceStartTrainsAnArchiveWithTheEmbeddedDefaultsThatTheJvmMapsAndTheNextStartReusesIt()
      throws Exception {
    // A working folder whose conf/mangacircus.json (the service's default config file) is invalid: the training start
    // must not read it, or it would fail and this start would go without an archive.
    Path badFolder = Files.createDirectories(work.resolve("bad-conf-folder"));
    Files.createDirectories(badFolder.resolve("conf"));
    Files.writeString(badFolder.resolve("conf/mangacircus.json"),
        "{\"supervision\": {\"crashBudgetFailures\": \"three\"}}");
    Path defaults = Files.writeString(work.resolve("defaults.json"), "{}");

    int port = FreePorts.next();
    try (JarProcess first = startAllIn(badFolder, Map.of(), port, "--conf", defaults.toString())) {
      HttpProbe.awaitReady(port);
      assertThat(first.output()).contains("mangacircus: training a class-data archive", "train-cds: ready after")
          .doesNotContain("the training start failed");
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

    // The folder's file is invalid indeed: a service start that reads it (no --conf) refuses it, naming the key.
    try (JarProcess process = startAllIn(badFolder, Map.of(), FreePorts.next())) {
      assertThat(process.waitForExit(RUN)).as(process.output()).isEqualTo(Main.EXIT_CONFIG);
      assertThat(process.output()).contains("supervision.crashBudgetFailures").doesNotContain("training");
    }

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
    // The archive of the default options: trained here unless the first start's test made it already.
    try (JarProcess prepare = run(Map.of(), "prepare")) {
      assertThat(prepare.waitForExit(RUN)).as(prepare.output()).isZero();
    }
    FileTime serial = Files.getLastModifiedTime(archive);

    Map<String, String> g1Options = Map.of("JAVA_OPTS", "-XX:+UseG1GC -Xmx300m");
    try (JarProcess prepare = run(g1Options, "prepare")) {
      assertThat(prepare.waitForExit(RUN)).as(prepare.output()).isZero();
      assertThat(prepare.output()).contains("mangacircus: training a class-data archive");
    }
    assertThat(Files.getLastModifiedTime(archive)).isNotEqualTo(serial);
    assertThat(Files.readString(jar.resolveSibling("mangacircus.jsa.stamp"))).contains("options -XX:+UseG1GC -Xmx300m");

    int port = FreePorts.next();
    try (JarProcess g1 = startAll(g1Options, port)) {
      HttpProbe.awaitReady(port);
      assertThat(g1.output()).doesNotContain("training");
      assertThat(commandLine(g1)).startsWith("java -XX:+UseG1GC -Xmx300m -XX:SharedArchiveFile=")
          .doesNotContain("UseSerialGC");
      assertThat(mappedFiles(g1)).contains(archive.toString());
      stop(g1);
    }
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
    // A jar of this test's own: the shared one may have an archive already.
    Path ownJar = Files.copy(jar, Files.createDirectories(work.resolve("dist")).resolve("mangacircus.jar"));
    try (JarProcess check = runIn(work, ownJar, Map.of(), "check", "--data", work.resolve("data").toString())) {
      check.waitForExit(RUN);
      assertThat(check.output()).doesNotContain("training");
    }
    assertThat(ownJar.resolveSibling("mangacircus.jsa")).doesNotExist();

    Files.delete(ownJar);
    try (JarProcess missing = runIn(work, ownJar, Map.of(), "all")) {
      assertThat(missing.waitForExit(RUN)).isEqualTo(2);
      assertThat(missing.output()).contains("no jar at " + ownJar + ": build it first with  mvn -B -ntp package -DskipTests");
    }
  }
}
