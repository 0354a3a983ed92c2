package io.mangacircus.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Debian's own PostgreSQL server (the newest under /usr/lib/postgresql) in a fresh temporary data directory on a free
 * loopback port, run as the {@code postgres} system user when the JVM is root (PostgreSQL refuses to run as root) and as
 * the JVM's user otherwise; stopped and its directory removed at JVM exit. The package's own cluster is not used.
 */
final class DebianPostgresServer implements PostgresServer {

  private static final Path INSTALLS = Path.of("/usr/lib/postgresql");
  private static final String SYSTEM_USER = "postgres";
  private static final long TOOL_TIMEOUT_SECONDS = 120;

  private final Path bin;
  private final Path directory;
  private final int port;
  private final boolean asSystemUser;
  private final AtomicBoolean stopped = new AtomicBoolean();

  private DebianPostgresServer(Path bin, Path directory, int port, boolean asSystemUser) {
    this.bin = bin;
    this.directory = directory;
    this.port = port;
    this.asSystemUser = asSystemUser;
  }

  /** Creates its data directory, starts it and waits until it accepts connections; fails with what went wrong. */
  static DebianPostgresServer start() throws IOException {
    Path bin = newestBin();
    boolean asSystemUser = RunningUser.isRoot();
    Path directory = Files.createTempDirectory("mangacircus-pg-");
    if (asSystemUser) {
      UserPrincipal owner = directory.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(SYSTEM_USER);
      Files.setOwner(directory, owner);
    }
    DebianPostgresServer server = new DebianPostgresServer(bin, directory, freeLoopbackPort(), asSystemUser);
    // Registered before anything starts, so that a start that fails half-way leaves no server and no directory behind.
    Runtime.getRuntime().addShutdownHook(new Thread(server::stopQuietly, "debian-postgres-stop"));
    try {
      server.initialise();
      server.run("pg_ctl", "-D", server.data().toString(), "-l", directory.resolve("postgres.log").toString(),
          "-w", "-t", "60", "start");
    } catch (IOException | RuntimeException e) {
      server.stopQuietly();
      throw e;
    }
    return server;
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public Connection superuserConnection() throws SQLException {
    Properties login = new Properties();
    login.setProperty("user", SYSTEM_USER);
    return DriverManager.getConnection("jdbc:postgresql://localhost:" + port + "/postgres", login);
  }

  /** Stops the server at once (no checkpoint: its data is thrown away) and removes its directory; idempotent. */
  void stop() throws IOException {
    if (!stopped.compareAndSet(false, true)) {
      return;
    }
    try {
      if (Files.exists(data().resolve("postmaster.pid"))) {
        run("pg_ctl", "-D", data().toString(), "-m", "immediate", "-w", "stop");
      }
    } finally {
      deleteRecursively(directory);
    }
  }

  /** The data directory; initdb creates it inside the directory the server's user owns. */
  Path data() {
    return directory.resolve("data");
  }

  private void stopQuietly() {
    try {
      stop();
    } catch (IOException | RuntimeException e) {
      System.getLogger(DebianPostgresServer.class.getName()).log(System.Logger.Level.WARNING,
          "cannot stop the Debian PostgreSQL server in " + directory + ": " + e.getMessage());
    }
  }

  private void initialise() throws IOException {
    run("initdb", "-A", "trust", "-U", SYSTEM_USER, "-E", "UTF-8", "--no-sync", "-D", data().toString());
    // The settings zonky's builder gives its server, so that both behave alike; no Unix socket (the loopback port only).
    String settings = String.join("\n",
        "",
        "port = " + port,
        "listen_addresses = 'localhost'",
        "unix_socket_directories = ''",
        "password_encryption = 'scram-sha-256'",
        "timezone = 'UTC'",
        "synchronous_commit = off",
        "max_connections = 300",
        "");
    Files.writeString(data().resolve("postgresql.conf"), settings, StandardOpenOption.APPEND);
    Files.writeString(data().resolve("pg_hba.conf"), HBA, StandardOpenOption.TRUNCATE_EXISTING);
  }

  private void run(String tool, String... arguments) throws IOException {
    List<String> command = new ArrayList<>();
    if (asSystemUser) {
      command.addAll(List.of("runuser", "-u", SYSTEM_USER, "--"));
    }
    command.add(bin.resolve(tool).toString());
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command)
        .directory(directory.toFile())
        .redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!process.waitFor(TOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException(tool + " did not finish within " + TOOL_TIMEOUT_SECONDS + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted while waiting for " + tool, e);
    }
    if (process.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " failed with exit code " + process.exitValue() + ": "
          + output.strip());
    }
  }

  private static Path newestBin() throws IOException {
    if (!Files.isDirectory(INSTALLS)) {
      throw new IOException("no PostgreSQL server in " + INSTALLS + " (Debian's postgresql package installs one)");
    }
    try (Stream<Path> versions = Files.list(INSTALLS)) {
      return versions
          .filter(version -> version.getFileName().toString().matches("\\d+(\\.\\d+)*"))
          .filter(version -> Files.isExecutable(version.resolve("bin/postgres")))
          .max(Comparator.comparing(version -> Runtime.Version.parse(version.getFileName().toString())))
          .map(version -> version.resolve("bin"))
          .orElseThrow(() -> new IOException("no PostgreSQL server in " + INSTALLS
              + "/<version>/bin (Debian's postgresql package installs one)"));
    }
  }

  private static int freeLoopbackPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> {
        try {
          Files.delete(path);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot remove " + path, e);
        }
      });
    }
  }
}
