package io.mangacircus.reader.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The product's version and build time as the build wrote them: what a browser compares to notice an upgrade (the
 * service worker names its caches of the reader's assets by it, so an upgrade never serves yesterday's scripts).
 */
public final class AppVersion {

  private static final String FILE = "mangacircus-version.properties";
  private static final String CURRENT = read();

  private AppVersion() {
  }

  /** {@code <version>+<build time>}, e.g. {@code 0.1.0-SNAPSHOT+20261204T183000}; {@code dev} outside a build. */
  public static String current() {
    return CURRENT;
  }

  private static String read() {
    try (InputStream in = AppVersion.class.getResourceAsStream(FILE)) {
      if (in == null) {
        return "dev";
      }
      Properties properties = new Properties();
      properties.load(in);
      String version = properties.getProperty("version", "");
      String build = properties.getProperty("build", "");
      if (version.isEmpty() || version.startsWith("${")) {
        return "dev";
      }
      return build.isEmpty() || build.startsWith("${") ? version : version + "+" + build;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + FILE + " from the reader's jar", e);
    }
  }
}
