package io.mangacircus.scraper.source;

import java.time.Instant;

/**
 * "No requests to this source before {@code until}": a wait the site named (429, a spent budget in its headers) or
 * our own budget under its published limits, with the line the lane's status shows (docs/resilience.md, "Limits").
 */
public record SourceHold(Instant until, String reason) {
}
