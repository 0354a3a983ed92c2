package io.mangacircus.launcher.state;

import java.time.Instant;

/**
 * The process that last wrote a runtime file, so {@code check} knows where to ask for health.
 *
 * @param pid operating-system process id
 * @param mode {@code all}, {@code reader} or {@code scraper}
 * @param healthUrl URL of that process's {@code /health/ready}
 * @param startedAt when the process started
 */
public record ProcessInfo(long pid, String mode, String healthUrl, Instant startedAt) {
}
