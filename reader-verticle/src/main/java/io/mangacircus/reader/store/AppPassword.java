package io.mangacircus.reader.store;

import java.time.Instant;

/**
 * An app password as its owner's profile lists it (never its secret or hash); {@code syncable} when it has a KOReader
 * sync key (those made before sync keys were stored have none).
 */
public record AppPassword(long id, String name, AppScope scope, boolean syncable, Instant createdAt,
    Instant lastUsedAt) {
}
