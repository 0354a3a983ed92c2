package io.mangacircus.launcher;

import io.mangacircus.launcher.config.MangaCircusConfig;
import io.mangacircus.launcher.memory.MemInfoReader;
import io.mangacircus.launcher.supervision.ServiceSpec;
import io.mangacircus.reader.ReaderVerticle;
import io.mangacircus.reader.accounts.NewAdminPassword;
import io.mangacircus.scraper.ScraperVerticle;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.DeploymentOptions;
import io.vertx.micrometer.backends.BackendRegistries;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Everything a {@link LauncherVerticle} needs: the config, the mode, the services to supervise and where
 * its metrics go.
 *
 * @param config the validated configuration
 * @param mode what this process runs
 * @param services the services to deploy and supervise
 * @param readerRoutes where the reader mounts its routes (served on the HTTP port)
 * @param metricsRegistryName the Micrometer registry of this process's Vert.x, or null without metrics
 * @param clock time source for crash budgets and the memory yield cooldown
 * @param memInfo where memory readings come from
 */
public record LaunchPlan(MangaCircusConfig config, Mode mode, List<ServiceSpec> services, RouterSlot readerRoutes,
    String metricsRegistryName, InstantSource clock, MemInfoReader memInfo) {

  public LaunchPlan {
    services = List.copyOf(services);
  }

  /** The standard plan for a mode: the real reader and scraper verticles. */
  public static LaunchPlan standard(MangaCircusConfig config, Mode mode, String metricsRegistryName) {
    return standard(config, mode, metricsRegistryName, null);
  }

  /**
   * The standard plan, the reader announcing its first start's accounts to {@code accounts} (null: it prints a
   * generated password itself).
   */
  public static LaunchPlan standard(MangaCircusConfig config, Mode mode, String metricsRegistryName,
      Consumer<Optional<NewAdminPassword>> accounts) {
    RouterSlot slot = new RouterSlot();
    MeterRegistry registry = metricsRegistryName == null ? null : BackendRegistries.getNow(metricsRegistryName);
    DataLayout data = new DataLayout(config.dataPath());
    List<ServiceSpec> specs = new ArrayList<>();
    if (mode.hostsReader()) {
      specs.add(new ServiceSpec("reader", () -> {
        ReaderVerticle reader = new ReaderVerticle(config.reader(), slot, config.dataPath(), registry);
        return accounts == null ? reader : reader.accountsAnnouncedTo(accounts);
      }, new DeploymentOptions(),
          data.runtimeFile("reader")));
    }
    if (mode.hostsScraper()) {
      specs.add(new ServiceSpec("scraper", () -> new ScraperVerticle(config.scraper(), config.dataPath(), registry), new DeploymentOptions(),
          data.runtimeFile("scraper")));
    }
    return new LaunchPlan(config, mode, specs, slot, metricsRegistryName, InstantSource.system(), MemInfoReader.system());
  }

  /** The same plan with memory readings from {@code reader} (tests feed their own). */
  public LaunchPlan withMemInfo(MemInfoReader reader) {
    return new LaunchPlan(config, mode, services, readerRoutes, metricsRegistryName, clock, reader);
  }

  /** The HTTP port this process listens on: the reader's port, or the health port without a reader. */
  public int httpPort() {
    return mode.hostsReader() ? config.http().port() : config.http().healthPort();
  }

  /** The URL of this process's readiness endpoint. */
  public String readinessUrl() {
    return "http://" + config.http().bind() + ":" + httpPort() + "/health/ready";
  }
}
