package io.mangacircus.scraper.source;

import java.util.List;

/**
 * A title's metadata as a source describes it.
 *
 * @param id the source's title id
 * @param title the human title
 * @param chapters every chapter the source lists, in reading order, any language
 * @param languages the languages the source says the title has chapters in, when it says (else empty)
 */
public record TitleInfo(String id, String title, List<ChapterInfo> chapters, List<String> languages) {

  public TitleInfo {
    chapters = List.copyOf(chapters);
    languages = List.copyOf(languages);
  }

  /** A title whose source does not say which languages it has. */
  public TitleInfo(String id, String title, List<ChapterInfo> chapters) {
    this(id, title, chapters, List.of());
  }
}
