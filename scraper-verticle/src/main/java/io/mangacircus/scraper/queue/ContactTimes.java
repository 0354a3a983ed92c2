package io.mangacircus.scraper.queue;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last successful contact with each source since this start (an inspection recorded, a lease renewed at a
 * checkpoint), for the source's coverage; kept in memory only.
 */
final class ContactTimes {

  private final Map<String, Instant> lastContact = new ConcurrentHashMap<>();

  void contacted(String source, Instant at) {
    lastContact.put(source, at);
  }

  /** The last contact with {@code source}, or null when there was none since this start. */
  Instant last(String source) {
    return lastContact.get(source);
  }
}
