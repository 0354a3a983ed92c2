package io.mangacircus.launcher;

import io.mangacircus.contracts.InvalidConfigException;
import io.mangacircus.scraper.source.FetchOutcome;
import io.mangacircus.scraper.source.Sources;
import io.mangacircus.scraper.source.suwayomi.SuwayomiCatalog;
import io.mangacircus.scraper.source.suwayomi.SuwayomiCatalog.InstalledSource;
import io.mangacircus.scraper.source.suwayomi.SuwayomiOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/mangacircus suwayomi-sources --url URL}: lists the sources a Suwayomi server has installed, for the
 * {@code sourceId} of a {@code suwayomi} source, then prints a configuration entry for the first. Runs a Vert.x
 * instance for the one request only; never prints the password.
 */
@Command(name = "suwayomi-sources", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
    description = {"Lists the sources a Suwayomi server has installed, one line each (id, language, name, 18+ when "
        + "NSFW) sorted by name, then a scraper.sources entry of type suwayomi for the first, to paste into the "
        + "configuration. Changes nothing on the server.",
        "Exit codes: 0 listed, 1 the server cannot be reached, refused the credentials or is not a Suwayomi server, "
            + "2 invalid command line."})
final class SuwayomiSourcesCommand implements Callable<Integer> {

  /** The one request's timeout. */
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @Option(names = "--url", required = true, paramLabel = "URL",
      description = "the Suwayomi server's address, its web UI subpath included, e.g. http://127.0.0.1:4567")
  private String url;

  @Option(names = "--username", paramLabel = "USER",
      description = "the user of Suwayomi's basic_auth mode (server.authUsername)")
  private String username;

  @Option(names = "--password-env", paramLabel = "VAR", description = "an environment variable holding the password")
  private String passwordEnv;

  @Option(names = "--password-file", paramLabel = "FILE",
      description = "a file holding the password (one trailing line break ignored)")
  private String passwordFile;

  @Spec
  private CommandSpec spec;

  private final Function<String, String> environment;

  SuwayomiSourcesCommand() {
    this(System::getenv);
  }

  /** @param environment the environment variables by name, for {@code --password-env} */
  SuwayomiSourcesCommand(Function<String, String> environment) {
    this.environment = environment;
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      return list(out, err);
    } finally {
      out.flush();
      err.flush();
    }
  }

  private int list(PrintWriter out, PrintWriter err) {
    String base = baseUrl(url);
    if (base == null) {
      // The address is not echoed: it may carry credentials.
      err.println("suwayomi-sources: --url must be an http(s) address without credentials, e.g. "
          + "http://127.0.0.1:4567 (the password goes in --password-env or --password-file)");
      return Main.EXIT_CONFIG;
    }
    if (username == null && (passwordEnv != null || passwordFile != null)) {
      err.println("suwayomi-sources: --password-env and --password-file are used with --username");
      return Main.EXIT_CONFIG;
    }
    if (username != null && (passwordEnv == null) == (passwordFile == null)) {
      err.println("suwayomi-sources: --username needs exactly one of --password-env VAR or --password-file FILE");
      return Main.EXIT_CONFIG;
    }
    SuwayomiOptions credentials;
    try {
      credentials = SuwayomiOptions.credentials("suwayomi-sources", options(), Path.of(""), environment);
    } catch (InvalidConfigException e) {
      err.println("suwayomi-sources: " + flag(e));
      return Main.EXIT_CONFIG;
    }
    FetchOutcome<List<InstalledSource>> outcome;
    try {
      outcome = fetch(base, credentials);
    } catch (Exception e) {
      err.println("suwayomi-sources: the list of sources of " + base + " did not come in " + TIMEOUT.toSeconds()
          + " s: " + e.getClass().getSimpleName());
      return Main.EXIT_FAILURE;
    }
    if (!outcome.ok()) {
      err.println("suwayomi-sources: " + oneLine(failure(base, outcome)));
      return Main.EXIT_FAILURE;
    }
    List<InstalledSource> sources = new ArrayList<>(outcome.value());
    if (sources.isEmpty()) {
      out.println("no sources are installed on " + base + ": install extensions in Suwayomi's web UI "
          + "(Browse, Extensions) first");
      return 0;
    }
    sources.sort(Comparator.comparing(InstalledSource::name, String.CASE_INSENSITIVE_ORDER)
        .thenComparing(InstalledSource::lang).thenComparing(InstalledSource::id));
    int idWidth = sources.stream().mapToInt(s -> s.id().length()).max().orElse(1);
    int langWidth = sources.stream().mapToInt(s -> oneLine(s.lang()).length()).max().orElse(1);
    for (InstalledSource source : sources) {
      out.println(String.format(Locale.ROOT, "%-" + idWidth + "s  %-" + langWidth + "s  %s%s", source.id(),
          oneLine(source.lang()), oneLine(source.name()), source.nsfw() ? "  18+" : ""));
    }
    InstalledSource first = sources.get(0);
    out.println();
    out.println("A scraper.sources entry for " + oneLine(first.displayName()) + ", to merge into "
        + "conf/mangacircus.json (rename it, change its sourceId for another source, set pageDelayMs for its site):");
    out.println(entry(base, first).encodePrettily());
    return 0;
  }

  private FetchOutcome<List<InstalledSource>> fetch(String base, SuwayomiOptions credentials) throws Exception {
    Vertx vertx = Vertx.vertx();
    WebClient client = Sources.client(vertx);
    try {
      return SuwayomiCatalog.installedSources(client, base, credentials, TIMEOUT).toCompletionStage()
          .toCompletableFuture().get(TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS);
    } finally {
      client.close();
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /** The options of a {@code suwayomi} source these flags stand for, without its sourceId. */
  private Map<String, Object> options() {
    Map<String, Object> options = new LinkedHashMap<>();
    if (username != null) {
      options.put("auth", SuwayomiOptions.Auth.BASIC.wire());
      options.put("username", username);
      options.put(passwordEnv != null ? "passwordEnv" : "passwordFile", passwordEnv != null ? passwordEnv
          : passwordFile);
    }
    return options;
  }

  /** One {@code scraper.sources} entry for {@code source}, nested as the configuration file holds it. */
  private JsonObject entry(String base, InstalledSource source) {
    JsonObject options = new JsonObject().put("sourceId", source.id());
    options().forEach(options::put);
    JsonObject entry = new JsonObject().put("type", "suwayomi").put("baseUrl", base).put("options", options);
    return new JsonObject().put("scraper", new JsonObject().put("sources", new JsonObject()
        .put(entryName(source), entry)));
  }

  /** A source name the configuration accepts (lower-case letters, digits, dashes, at most 40): name and language. */
  static String entryName(InstalledSource source) {
    String slug = (source.name() + "-" + source.lang()).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-")
        .replaceAll("^-+|-+$", "");
    slug = slug.length() > 40 ? slug.substring(0, 40).replaceAll("-+$", "") : slug;
    return slug.isEmpty() ? "suwayomi-" + source.id().replace("-", "") : slug;
  }

  /** What an operator reads when the list could not be had. */
  private String failure(String base, FetchOutcome<List<InstalledSource>> outcome) {
    if (outcome instanceof FetchOutcome.NetworkError<List<InstalledSource>> network) {
      return "cannot reach the Suwayomi server at " + base + ": " + network.message();
    }
    if (outcome instanceof FetchOutcome.AccessDenied<List<InstalledSource>> denied && denied.status() == 401) {
      return (username == null ? "the server at " + base + " asks for credentials (401): give --username and "
          + "--password-env or --password-file" : "the server at " + base + " refused the credentials of '"
          + username + "' (401): check --username and the password")
          + " (Suwayomi's basic_auth mode; simple_login and ui_login are not supported)";
    }
    if (outcome instanceof FetchOutcome.NotFound || outcome instanceof FetchOutcome.ParseError) {
      return base + " is not a Suwayomi server, or not one this command can read (is its web UI subpath in --url?): "
          + outcome.describe();
    }
    return "the server at " + base + " did not list its sources: " + outcome.describe();
  }

  /** The address without a trailing slash; null when it is not an http(s) address or carries credentials. */
  static String baseUrl(String url) {
    String trimmed = url == null ? "" : url.trim();
    try {
      URI uri = new URI(trimmed);
      if (uri.getScheme() == null || !uri.getScheme().matches("(?i)https?") || uri.getHost() == null
          || uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
        return null;
      }
    } catch (URISyntaxException e) {
      return null;
    }
    return trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
  }

  /** The error of a flag, named as the command line names it. */
  private static String flag(InvalidConfigException e) {
    String problem = e.getMessage().substring(e.getMessage().indexOf(e.key()) + e.key().length())
        .replaceFirst("^: ", "");
    String key = e.key().substring(e.key().lastIndexOf('.') + 1);
    String flag = switch (key) {
      case "passwordEnv" -> "--password-env";
      case "passwordFile" -> "--password-file";
      case "username" -> "--username";
      default -> key;
    };
    return flag + ": " + problem;
  }

  /** Text from the server on one line, without control characters. */
  private static String oneLine(String text) {
    return text == null ? "" : text.replaceAll("[\\p{Cntrl}\\s]+", " ").strip();
  }
}
