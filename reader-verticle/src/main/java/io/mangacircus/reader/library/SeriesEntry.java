package io.mangacircus.reader.library;

import java.time.Instant;

/**
 * One series in the library, as the inventory sees it on disk.
 *
 * @param id the series folder's name (a slug)
 * @param title the series title from its chapters' {@code chapter.json}
 * @param source the source it came from
 * @param titleId the source's title id
 * @param chapters published chapters
 * @param updatedAt when its newest chapter was published
 */
public record SeriesEntry(String id, String title, String source, String titleId, int chapters, Instant updatedAt) {
}
