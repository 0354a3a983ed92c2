package io.mangacircus.scraper.source;

import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The request lines of one scraper process, one per site key (e.g. an API root), so that every adapter talking to
 * the same site waits in the same line and together they keep its limits. Owned by the scraper, not the JVM.
 */
public final class RequestLines {

  private final InstantSource clock;
  private final Map<String, RequestLine> lines = new ConcurrentHashMap<>();

  public RequestLines(InstantSource clock) {
    this.clock = clock;
  }

  /** The line of a site, created on first use. */
  public RequestLine line(String site) {
    return lines.computeIfAbsent(site, s -> new RequestLine(new RequestLimiter(clock)));
  }
}
