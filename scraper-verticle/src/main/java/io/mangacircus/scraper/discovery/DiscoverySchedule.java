package io.mangacircus.scraper.discovery;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

/** When the next nightly discovery run is due: the next occurrence of a local time of day, after {@code now}. */
public final class DiscoverySchedule {

  private DiscoverySchedule() {
  }

  /** The next instant at {@code time} in {@code zone} strictly after {@code now} (a skipped DST hour moves on). */
  public static Instant nextRun(Instant now, LocalTime time, ZoneId zone) {
    ZonedDateTime today = now.atZone(zone).toLocalDate().atTime(time).atZone(zone);
    return today.toInstant().isAfter(now) ? today.toInstant()
        : now.atZone(zone).toLocalDate().plusDays(1).atTime(time).atZone(zone).toInstant();
  }
}
