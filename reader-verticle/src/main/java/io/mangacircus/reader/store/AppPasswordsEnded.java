package io.mangacircus.reader.store;

import java.time.Instant;

/** App passwords a password reset ended: when, and how many (the user's profile page says why they stopped working). */
public record AppPasswordsEnded(Instant at, int count) {
}
