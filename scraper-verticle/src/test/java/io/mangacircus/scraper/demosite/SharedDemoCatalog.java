package io.mangacircus.scraper.demosite;

/**
 * One demo catalog for every test of a test JVM that only reads it: its pages are drawn once per JVM (tens of
 * milliseconds of CPU each, about 170 of them) rather than once per test class.
 */
public final class SharedDemoCatalog {

  public static final DemoCatalog CATALOG = new DemoCatalog();

  private SharedDemoCatalog() {
  }
}
