package io.mangacircus.contracts.library;

/**
 * A chapter in the library: its manifest and where it lies, as publication returns it and the
 * {@code mc.library.published} event carries it.
 *
 * @param seriesId the series folder's name ({@code circus-nights})
 * @param path the chapter folder relative to the library ({@code circus-nights/chapter-0001})
 * @param manifest its {@code chapter.json}
 */
public record PublishedChapter(String seriesId, String path, ChapterManifest manifest) {
}
