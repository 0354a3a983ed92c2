package io.mangacircus.scraper.source;

import java.time.Instant;

/**
 * What a source's request limits are doing now, for the lane's status and {@code /metrics} (docs/resilience.md,
 * "Limits"): the hold in force, how many holds were waited out and how many requests the site refused with 429, and
 * the request rate the adapter keeps now against the one configured.
 *
 * @param holdUntil no request leaves before this instant, or null
 * @param holdReason why, e.g. {@code waiting for MangaDex's at-home limit}, or null
 * @param holdsWaited holds the adapter announced since start (each waited out, none a failure)
 * @param refused requests the site answered 429 since start
 * @param rateLimitRps requests a second the adapter allows itself now (lowered after a 429); NaN when it keeps none
 * @param configuredRps the most requests a second it ever allows itself; NaN when it keeps none
 */
public record SourceLimits(Instant holdUntil, String holdReason, long holdsWaited, long refused, double rateLimitRps,
    double configuredRps) {

  /** A source that keeps no limits of its own. */
  public static final SourceLimits NONE = new SourceLimits(null, null, 0, 0, Double.NaN, Double.NaN);
}
