package io.mangacircus.launcher.testing;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The daemon pair as two jar processes on the clustered event bus (scraper first, then reader), over fresh
 * {@link PairConfigs} and one data folder, with free ports for the reader and the scraper's health endpoint.
 */
public final class DaemonPair implements AutoCloseable {

  private final Path work;
  private final PairConfigs configs;
  private final Map<String, String> readerEnv;
  private final int readerPort = FreePorts.next();
  private final int scraperHealthPort = FreePorts.next();
  private final List<JarProcess> started = new ArrayList<>();
  private JarProcess scraper;
  private JarProcess reader;

  private DaemonPair(Path work, Map<String, String> readerEnv) {
    this.work = work;
    this.configs = PairConfigs.write(work);
    this.readerEnv = readerEnv;
  }

  /** Starts both processes in {@code work}; {@code readerEnv} is the reader process's extra environment. */
  public static DaemonPair start(Path work, Map<String, String> readerEnv) {
    return start(work, readerEnv, new JsonObject());
  }

  /** As {@link #start(Path, Map)}, with {@code readerConfig} merged into the reader's config file. */
  public static DaemonPair start(Path work, Map<String, String> readerEnv, JsonObject readerConfig) {
    DaemonPair pair = new DaemonPair(work, readerEnv);
    try {
      Files.writeString(pair.configs.reader(), new JsonObject(Files.readString(pair.configs.reader()))
          .mergeIn(readerConfig).encode());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    pair.scraper = pair.startScraper();
    try {
      pair.reader = pair.startReader();
    } catch (RuntimeException e) {
      pair.scraper.close();
      throw e;
    }
    return pair;
  }

  /** Starts a scraper process of this pair (another one, after the first was killed or stopped). */
  public JarProcess startScraper() {
    scraper = JarProcess.start(work, Map.of(), "scraper", "--cluster", "--conf=" + configs.scraper(), dataOption(),
        "--health-port=" + scraperHealthPort);
    started.add(scraper);
    return scraper;
  }

  /** Starts a reader process of this pair on the same port (another one, after the first stopped). */
  public JarProcess startReader() {
    reader = JarProcess.start(work, readerEnv, "reader", "--cluster", "--conf=" + configs.reader(), dataOption(),
        "--port=" + readerPort);
    started.add(reader);
    return reader;
  }

  private String dataOption() {
    return "--data=" + work.resolve("data");
  }

  /** The scraper process started last. */
  public JarProcess scraper() {
    return scraper;
  }

  /** The reader process started last. */
  public JarProcess reader() {
    return reader;
  }

  public int readerPort() {
    return readerPort;
  }

  public int scraperHealthPort() {
    return scraperHealthPort;
  }

  /** Kills every process of this pair still running, the scraper that runs now last. */
  @Override
  public void close() {
    started.stream().filter(p -> p != scraper).forEach(JarProcess::close);
    scraper.close();
  }
}
