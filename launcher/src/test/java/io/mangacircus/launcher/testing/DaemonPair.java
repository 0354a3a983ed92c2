package io.mangacircus.launcher.testing;

import java.nio.file.Path;
import java.util.Map;

/**
 * The daemon pair as two jar processes on the clustered event bus (scraper first, then reader), over fresh
 * {@link PairConfigs} and one data folder, with free ports for the reader and the scraper's health endpoint.
 */
public final class DaemonPair implements AutoCloseable {

  private final Path work;
  private final PairConfigs configs;
  private final int readerPort = FreePorts.next();
  private final int scraperHealthPort = FreePorts.next();
  private JarProcess scraper;
  private JarProcess reader;

  private DaemonPair(Path work) {
    this.work = work;
    this.configs = PairConfigs.write(work);
  }

  /** Starts both processes in {@code work}; {@code readerEnv} is the reader process's extra environment. */
  public static DaemonPair start(Path work, Map<String, String> readerEnv) {
    DaemonPair pair = new DaemonPair(work);
    pair.scraper = pair.startScraper();
    try {
      pair.reader = JarProcess.start(work, readerEnv, "reader", "--cluster", "--conf=" + pair.configs.reader(),
          pair.dataOption(), "--port=" + pair.readerPort);
    } catch (RuntimeException e) {
      pair.scraper.close();
      throw e;
    }
    return pair;
  }

  /** Starts a scraper process of this pair (another one, after the first was killed or stopped). */
  public JarProcess startScraper() {
    return JarProcess.start(work, Map.of(), "scraper", "--cluster", "--conf=" + configs.scraper(), dataOption(),
        "--health-port=" + scraperHealthPort);
  }

  private String dataOption() {
    return "--data=" + work.resolve("data");
  }

  public JarProcess scraper() {
    return scraper;
  }

  public JarProcess reader() {
    return reader;
  }

  public int readerPort() {
    return readerPort;
  }

  public int scraperHealthPort() {
    return scraperHealthPort;
  }

  @Override
  public void close() {
    try {
      reader.close();
    } finally {
      scraper.close();
    }
  }
}
