package io.mangacircus.reader.store;

import java.time.Instant;

/** A live session joined with its user. */
public record Session(String tokenHash, long userId, String username, String role, String csrfToken,
    Instant expiresAt) {
}
