package io.mangacircus.reader.store;

import java.time.Instant;

/** An app password as its owner's profile lists it (never its secret or hash). */
public record AppPassword(long id, String name, Instant createdAt, Instant lastUsedAt) {
}
