package io.mangacircus.scraper.failure;

/**
 * A classified failure: what kind, where, and what the outside world said. Never a single "last error" string.
 *
 * @param kind the class of failure
 * @param httpStatus the HTTP status when there was one, else null
 * @param message what happened, in words
 */
public record Failure(FailureKind kind, Integer httpStatus, String message) {
}
