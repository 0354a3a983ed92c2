package io.mangacircus.reader.store;

import java.time.Instant;

/** A user's saved position in a series. */
public record Progress(String series, String chapter, int page, Instant updatedAt) {
}
