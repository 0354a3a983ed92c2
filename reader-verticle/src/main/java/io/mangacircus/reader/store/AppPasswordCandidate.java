package io.mangacircus.reader.store;

/** An app password that may match an offered secret, joined with its user (not disabled). */
public record AppPasswordCandidate(long id, long userId, String username, String role, String passwordHash,
    AppScope scope) {
}
