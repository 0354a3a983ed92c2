package io.mangacircus.launcher.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Config files for a daemon pair on loopback: a fresh cluster name, a free cluster port for each member, and both
 * members listed in each file.
 *
 * @param scraper the scraper process's {@code --conf} file
 * @param reader the reader process's {@code --conf} file
 */
public record PairConfigs(Path scraper, Path reader) {

  /** Writes {@code scraper.json} and {@code reader.json} into {@code dir}. */
  public static PairConfigs write(Path dir) {
    String clusterName = "mc-test-" + UUID.randomUUID();
    int scraperCluster = FreePorts.next();
    int readerCluster = FreePorts.next();
    return new PairConfigs(conf(dir, "scraper", scraperCluster, scraperCluster, readerCluster, clusterName),
        conf(dir, "reader", readerCluster, scraperCluster, readerCluster, clusterName));
  }

  private static Path conf(Path dir, String name, int clusterPort, int scraperClusterPort, int readerClusterPort,
      String clusterName) {
    Path file = dir.resolve(name + ".json");
    try {
      Files.writeString(file, "{\"cluster\": {\"name\": \"" + clusterName + "\", \"port\": " + clusterPort
          + ", \"members\": [\"127.0.0.1:" + scraperClusterPort + "\", \"127.0.0.1:" + readerClusterPort + "\"]}}");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }
}
