package io.mangacircus.launcher;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.launcher.check.SystemCheck;
import io.mangacircus.launcher.config.ConfigLoader;
import io.mangacircus.launcher.config.ConfigLoader.CommandLineOverrides;
import io.mangacircus.launcher.config.MangaCircusConfig;
import io.mangacircus.launcher.logging.LogSetup;
import io.mangacircus.launcher.memory.IdleMemorySettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The command line: {@code bin/mangacircus [all|reader|scraper|check] [options]}, and
 * {@code bin/mangacircus reset-password <user> [options]}, {@code bin/mangacircus suwayomi-sources --url URL} and
 * {@code bin/mangacircus migrate-db --from FILE --to URL} (the same arguments as {@code java -jar mangacircus.jar}).
 */
@Command(name = "bin/mangacircus", mixinStandardHelpOptions = true, version = "MangaCircus 0.1.0",
    sortOptions = false, usageHelpAutoWidth = true,
    subcommands = {ResetPasswordCommand.class, SuwayomiSourcesCommand.class, MigrateDbCommand.class},
    description = {"Self-hosted manga reader and polite scraper.",
        "Exit codes: 0 ok, 1 runtime failure or failed checks, 2 invalid configuration or usage, "
            + "3 another process owns the data folder."})
public final class Main implements Callable<Integer> {

  /** Exit code: a check failed or the process could not run. */
  public static final int EXIT_FAILURE = 1;
  /** Exit code: configuration or usage error. */
  public static final int EXIT_CONFIG = 2;
  /** Exit code: a lock in the data folder is held by another process. */
  public static final int EXIT_LOCKED = 3;

  @Parameters(index = "0", arity = "0..1", defaultValue = "all", paramLabel = "MODE",
      description = "all (default: both services in one JVM), reader, scraper, or check (read-only checks)")
  private Mode mode;

  @Option(names = "--data", paramLabel = "DIR", description = "data folder (default ./data; env MANGACIRCUS_DATA)")
  private String data;

  @Option(names = "--conf", paramLabel = "FILE",
      description = "config file merged over the defaults (default conf/mangacircus.json when present)")
  private Path conf;

  @Option(names = "--port", paramLabel = "N", description = "reader HTTP port (default 8080; env MANGACIRCUS_PORT)")
  private Integer port;

  @Option(names = "--health-port", paramLabel = "N",
      description = "HTTP port for /health/* and /metrics of a process without the reader (default 8081)")
  private Integer healthPort;

  @Option(names = "--bind", paramLabel = "ADDR", description = "address to bind HTTP and the cluster to (default 127.0.0.1)")
  private String bind;

  @Option(names = "--cluster", description = "join the clustered event bus (Hazelcast) to reach the other service")
  private boolean cluster;

  @Option(names = "--cluster-members", paramLabel = "HOST[:PORT]", split = ",",
      description = "cluster members to join (default 127.0.0.1; multicast is never used)")
  private List<String> clusterMembers;

  @Option(names = "--demo",
      description = "start the built-in demo site on loopback as source 'demo' and download a demo title")
  private boolean demo;

  @Spec
  private CommandSpec spec;

  public static void main(String[] args) {
    int code = commandLine().execute(args);
    System.exit(code);
  }

  /** The command line, its help ending with the environment variables the config reads (from the loader's list). */
  static CommandLine commandLine() {
    CommandLine line = new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true);
    List<String> variables = new ArrayList<>();
    new TreeMap<>(ConfigLoader.ENVIRONMENT_KEYS).forEach((variable, key) -> {
      String row = String.format("  %-28s %s", variable, key);
      // Help wraps at 80 columns where the terminal's width is unknown: a long pair takes two lines, never a split key.
      variables.add(row.length() <= 78 ? row : "  " + variable + "%n      " + key);
    });
    line.getCommandSpec().usageMessage()
        .footerHeading("%nEnvironment variables (each sets a config key; docs/configuration.md):%n")
        .footer(variables.toArray(String[]::new));
    return line;
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ConfigLoader loader = new ConfigLoader();
    CommandLineOverrides overrides = new CommandLineOverrides(data, port, healthPort, bind, clusterMembers, demo);
    if (mode == Mode.CHECK) {
      List<SystemCheck.Finding> findings = new SystemCheck(InstantSource.system())
          .run(() -> loader.load(Optional.ofNullable(conf), System.getenv(), overrides));
      findings.forEach(out::println);
      boolean failed = findings.stream().anyMatch(f -> !f.ok());
      out.println(failed ? "check: problems found" : "check: all passed");
      out.flush();
      return failed ? EXIT_FAILURE : 0;
    }
    // Before anything loads Vert.x or Netty: JVM-wide settings that let an idle process give its memory back.
    IdleMemorySettings.Outcome memory = IdleMemorySettings.applyToThisProcess();
    NettyFlightEvents.applyToThisProcess();
    MangaCircusConfig config;
    try {
      config = loader.load(Optional.ofNullable(conf), System.getenv(), overrides);
    } catch (InvalidConfigException e) {
      err.println("mangacircus: " + e.getMessage());
      err.println("mangacircus: not started; see docs/configuration.md");
      err.flush();
      return EXIT_CONFIG;
    }
    LogSetup.apply(config.log());
    LoggerFactory.getLogger(Main.class).info(memory.logLine());
    return new LauncherProcess(config, mode, cluster).run();
  }
}
