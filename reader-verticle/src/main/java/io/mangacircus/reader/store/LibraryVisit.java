package io.mangacircus.reader.store;

import java.time.Instant;

/**
 * A user's library visit as stored.
 *
 * @param since chapters published after this are "new" during the visit (the end of the previous visit); null on
 *     the first visit
 * @param lastAt when the library was last opened
 */
public record LibraryVisit(Instant since, Instant lastAt) {
}
