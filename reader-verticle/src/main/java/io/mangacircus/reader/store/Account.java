package io.mangacircus.reader.store;

import java.time.Instant;

/** An account as the users page lists it. */
public record Account(String username, String role, boolean disabled, Instant createdAt) {
}
