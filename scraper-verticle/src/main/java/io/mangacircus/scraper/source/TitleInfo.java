package io.mangacircus.scraper.source;

import java.util.List;

/**
 * A title's metadata as a source describes it.
 *
 * @param id the source's title id
 * @param title the human title
 * @param chapters every chapter the source lists, in reading order, any language
 */
public record TitleInfo(String id, String title, List<ChapterInfo> chapters) {

  public TitleInfo {
    chapters = List.copyOf(chapters);
  }
}
