package io.mangacircus.launcher.testing;

import io.mangacircus.launcher.DataLayout;
import io.mangacircus.launcher.LaunchPlan;
import io.mangacircus.launcher.LauncherVerticle;
import io.mangacircus.launcher.Mode;
import io.mangacircus.launcher.RouterSlot;
import io.mangacircus.launcher.VertxFactory;
import io.mangacircus.launcher.config.ConfigLoader;
import io.mangacircus.launcher.config.ConfigLoader.CommandLineOverrides;
import io.mangacircus.launcher.config.MangaCircusConfig;
import io.mangacircus.launcher.supervision.ServiceSpec;
import io.mangacircus.reader.ReaderVerticle;
import io.mangacircus.scraper.ScraperVerticle;
import io.vertx.core.Deployable;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs a real {@link LauncherVerticle} in this JVM on a data folder and a free port, with chosen services. The real
 * reader starts on a {@link SeededReaderDb} when the data folder has no {@code reader.db} yet: its admin already holds
 * the configured initial password (or an unknown one), as a first start would have created it.
 */
public final class LauncherHarness implements AutoCloseable {

  /** The admin password of a start without a configured one: generated, as the reader's, and never shown. */
  private static final String UNKNOWN_PASSWORD = java.util.UUID.randomUUID().toString();

  private final Vertx vertx;
  private final MangaCircusConfig config;
  private final String registry;
  private final int port;
  private String deployment;
  private io.mangacircus.launcher.memory.MemInfoReader memInfo = io.mangacircus.launcher.memory.MemInfoReader.proc();

  /** Feeds memory readings from the test instead of /proc/meminfo (set before starting). */
  public LauncherHarness memInfo(io.mangacircus.launcher.memory.MemInfoReader reader) {
    this.memInfo = reader;
    return this;
  }

  /**
   * @param data the data folder
   * @param configJson config overrides merged over the shipped defaults
   */
  public LauncherHarness(Path data, String configJson) {
    this.port = FreePorts.next();
    try {
      Path conf = Files.createTempFile("mangacircus-test", ".json");
      Files.writeString(conf, configJson);
      this.config = new ConfigLoader().load(Optional.of(conf), Map.of(),
          new CommandLineOverrides(data.toString(), port, FreePorts.next(), "127.0.0.1", null));
      Files.delete(conf);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    VertxFactory.ProcessVertx process = await(VertxFactory.create(config, false));
    this.vertx = process.vertx();
    this.registry = process.metricsRegistryName();
  }

  public MangaCircusConfig config() {
    return config;
  }

  public Vertx vertx() {
    return vertx;
  }

  /** This Vert.x's metrics registry (what {@code /metrics} serves). */
  public io.micrometer.core.instrument.MeterRegistry registry() {
    return io.vertx.micrometer.backends.BackendRegistries.getNow(registry);
  }

  /** A launcher (not started) whose reader creates the account {@code admin} with this password on first start. */
  public static LauncherHarness withAdminPassword(Path data, String password) {
    return new LauncherHarness(data, new JsonObject().put("reader", new JsonObject()
        .put("initialAdminPassword", password)).encode());
  }

  /** The HTTP port the launcher serves (the reader port). */
  public int port() {
    return port;
  }

  /** The address of {@code path} on the reader port. */
  public String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }

  /** A spec for the real reader, mounted on {@code slot}. */
  public ServiceSpec realReader(RouterSlot slot) {
    seedReaderDb();
    return spec("reader", () -> new ReaderVerticle(config.reader(), slot, config.dataPath(),
        io.vertx.micrometer.backends.BackendRegistries.getNow(registry)));
  }

  /** A spec for the real scraper. */
  public ServiceSpec realScraper() {
    return spec("scraper", () -> new ScraperVerticle(config.scraper(), config.dataPath(),
        io.vertx.micrometer.backends.BackendRegistries.getNow(registry)));
  }

  /** A spec for any stand-in under a service's name, persisted where that service's runtime file lives. */
  public ServiceSpec spec(String name, Supplier<Deployable> factory) {
    return new ServiceSpec(name, factory, new DeploymentOptions(), new DataLayout(config.dataPath()).runtimeFile(name));
  }

  /** Deploys a launcher supervising {@code services} in {@code all} mode. */
  public LauncherHarness start(RouterSlot slot, ServiceSpec... services) {
    LaunchPlan plan = new LaunchPlan(config, Mode.ALL, new ArrayList<>(List.of(services)), slot, registry,
        InstantSource.system(), memInfo);
    deployment = await(vertx.deployVerticle(new LauncherVerticle(plan)));
    return this;
  }

  /**
   * Begins deploying a launcher supervising {@code services} in {@code all} mode without waiting for it (a test whose
   * stand-in holds its start open); the future completes when the launcher's start does.
   */
  public Future<String> startInBackground(RouterSlot slot, ServiceSpec... services) {
    LaunchPlan plan = new LaunchPlan(config, Mode.ALL, new ArrayList<>(List.of(services)), slot, registry,
        InstantSource.system(), memInfo);
    return vertx.deployVerticle(new LauncherVerticle(plan)).onSuccess(id -> deployment = id);
  }

  /** Deploys the standard launcher of a mode (real reader and scraper). */
  public LauncherHarness startStandard(Mode mode) {
    if (mode.hostsReader()) {
      seedReaderDb();
    }
    deployment = await(vertx.deployVerticle(new LauncherVerticle(
        LaunchPlan.standard(config, mode, registry).withMemInfo(memInfo))));
    return this;
  }

  /** Gives a fresh data folder the reader's accounts already hashed (the admin with the configured password). */
  private void seedReaderDb() {
    String password = config.reader().initialAdminPassword();
    SeededReaderDb.into(config.dataPath(),
        SeededReaderDb.Account.admin(password.isEmpty() ? UNKNOWN_PASSWORD : password));
  }

  /** Undeploys the launcher (as a process stop would) but keeps Vert.x for a new start. */
  public void stopLauncher() {
    await(vertx.undeploy(deployment));
    deployment = null;
  }

  @Override
  public void close() {
    await(vertx.close());
  }

  public static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("operation did not complete: " + e, e);
    }
  }
}
